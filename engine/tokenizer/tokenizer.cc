#include "engine/tokenizer/tokenizer.h"

#include <algorithm>
#include <cstdio>

#include "engine/common/json_text.h"
#include "engine/common/utf8.h"

namespace tcpu::tokenizer {
namespace {

bool ParseJson(std::string_view text, const char* file, Json* out, std::string* error) {
  engine::JsonError parse_error;
  if (engine::ParseJson(text, out, &parse_error)) return true;
  *error = std::string(file) + ": not valid JSON at byte " + std::to_string(parse_error.byte) +
           ": " + parse_error.message;
  return false;
}

// transformers' clean_up_tokenization: no space before punctuation and contractions.
std::string CleanUpSpaces(std::string text) {
  static const std::pair<const char*, const char*> kRules[] = {
      {" .", "."},     {" ?", "?"},   {" !", "!"},   {" ,", ","},     {" ' ", "'"},
      {" n't", "n't"}, {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
  for (const auto& [from, to] : kRules) {
    std::string out;
    const std::string f = from;
    size_t pos = 0;
    while (true) {
      const size_t hit = text.find(f, pos);
      if (hit == std::string::npos) break;
      out += text.substr(pos, hit - pos) + to;
      pos = hit + f.size();
    }
    text = out + text.substr(pos);
  }
  return text;
}

}  // namespace

bool Tokenizer::Load(std::string_view tokenizer_json, std::string_view config_json,
                     std::string* error) {
  Json root, config;
  if (!ParseJson(tokenizer_json, "tokenizer.json", &root, error)) return false;
  if (!config_json.empty() &&
      !ParseJson(config_json, "tokenizer_config.json", &config, error)) {
    return false;
  }
  return LoadParsed(root, config_json.empty() ? nullptr : &config, error);
}

bool Tokenizer::LoadParsed(const Json& root, const Json* config, std::string* error) {
  if (!root.is_object()) return WrongType("tokenizer.json", "an object", root, error);
  const Json null_value;
  const auto member = [&](const char* key) -> const Json& {
    const auto it = root.find(key);
    return it == root.end() ? null_value : *it;
  };
  const Json* model = nullptr;
  if (!GetMember(root, "model", "tokenizer.json", &model, error)) return false;
  if (!model_.Load(*model, "tokenizer.json: model", error) ||
      !added_.Load(member("added_tokens"), "tokenizer.json: added_tokens", error) ||
      !normalizer_.Load(member("normalizer"), "tokenizer.json: normalizer", error) ||
      !pre_tokenizer_.Load(member("pre_tokenizer"), "tokenizer.json: pre_tokenizer", error) ||
      !decoder_.Load(member("decoder"), "tokenizer.json: decoder", error)) {
    return false;
  }

  int64_t size = 0;
  for (const auto& [token, id] : model_.vocab()) size = std::max<int64_t>(size, id + 1);
  for (const AddedToken& token : added_.tokens()) size = std::max<int64_t>(size, token.id + 1);
  id_to_token_.assign(size, std::string());
  id_used_.assign(size, false);
  for (const auto& [token, id] : model_.vocab()) {
    id_to_token_[id] = token;
    id_used_[id] = true;
  }
  for (const AddedToken& token : added_.tokens()) {
    id_to_token_[token.id] = token.content;
    id_used_[token.id] = true;
  }
  if (!post_processor_.Load(member("post_processor"), "tokenizer.json: post_processor",
                            vocab_size(), error)) {
    return false;
  }
  return config == nullptr || LoadConfig(*config, error);
}

bool Tokenizer::ConfigTokenId(const Json& config, const char* key, int32_t* id,
                              std::string* error) {
  *id = -1;
  const auto it = config.find(key);
  if (it == config.end() || it->is_null()) return true;
  std::string content;
  if (it->is_string()) {
    content = it->get<std::string>();
  } else if (!GetString(*it, "content", std::string("tokenizer_config.json: ") + key, true,
                        &content, error)) {
    return false;
  }
  if (const AddedToken* token = added_.FindByContent(content)) {
    *id = token->id;
  } else {
    *id = model_.TokenToId(content);
  }
  if (*id < 0) {
    *error = std::string("tokenizer_config.json: ") + key + ": \"" + content +
             "\" is not a token of tokenizer.json";
    return false;
  }
  return true;
}

bool Tokenizer::LoadConfig(const Json& config, std::string* error) {
  if (!config.is_object()) return WrongType("tokenizer_config.json", "an object", config, error);
  if (!ConfigTokenId(config, "bos_token", &bos_id_, error) ||
      !ConfigTokenId(config, "eos_token", &eos_id_, error)) {
    return false;
  }
  const std::string path = "tokenizer_config.json";
  bool add_bos = false, add_eos = false;
  if (!GetBool(config, "add_bos_token", path, &add_bos, error) ||
      !GetBool(config, "add_eos_token", path, &add_eos, error) ||
      !GetBool(config, "clean_up_tokenization_spaces", path, &clean_up_spaces_, error)) {
    return false;
  }
  post_processor_.AddConfigTokens(add_bos, bos_id_, add_eos, eos_id_);
  return true;
}

bool Tokenizer::Encode(std::string_view text, bool add_special_tokens, std::vector<int32_t>* ids,
                       std::string* error) const {
  ids->clear();
  size_t bad = 0;
  if (!engine::IsValidUtf8(text, &bad)) {
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02X", static_cast<unsigned char>(text[bad]));
    *error =
        "text is not valid UTF-8: byte " + std::string(hex) + " at offset " + std::to_string(bad);
    return false;
  }
  const std::vector<Section> sections = added_.Split(text);
  std::vector<std::string> words;
  for (size_t i = 0; i < sections.size(); ++i) {
    const Section& section = sections[i];
    if (section.token != nullptr) {
      ids->push_back(section.token->id);
      continue;
    }
    if (section.text.empty()) continue;
    const std::string normalized = normalizer_.Apply(section.text);
    if (normalized.empty()) continue;
    pre_tokenizer_.Split(normalized, /*first_section=*/i == 0, &words);
    for (const std::string& word : words) model_.Encode(word, ids);
  }
  if (add_special_tokens) post_processor_.Apply(ids);
  return true;
}

bool Tokenizer::Decode(const std::vector<int32_t>& ids, bool skip_special_tokens, std::string* text,
                       std::string* error) const {
  std::vector<DecoderToken> tokens;
  tokens.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    const int32_t id = ids[i];
    if (id < 0 || id >= vocab_size() || !id_used_[id]) {
      *error = "id " + std::to_string(id) + " at position " + std::to_string(i) +
               " is not in the vocabulary (" + std::to_string(vocab_size()) + " ids)";
      return false;
    }
    const AddedToken* added = added_.FindById(id);
    if (added != nullptr && added->special && skip_special_tokens) continue;
    tokens.push_back({id_to_token_[id], added != nullptr});
  }
  *text = decoder_.Decode(std::move(tokens));
  if (clean_up_spaces_) *text = CleanUpSpaces(std::move(*text));
  return true;
}

}  // namespace tcpu::tokenizer
