#include "engine/tokenizer/gguf_tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tcpu::tokenizer {
namespace {

// llama_token_type, as llama.cpp's converter writes `tokenizer.ggml.token_type`.
enum TokenType : int32_t {
  kNormal = 1,
  kUnknown = 2,
  kControl = 3,
  kUserDefined = 4,
  kUnused = 5,
  kByte = 6,
};

// `tokenizer.ggml.pre` names the pre-tokenizer llama.cpp applies; these are the regexes of
// the tokenizer.json files those names stand for (GPT-2's ByteLevel, Qwen2's and Llama 3's
// Split), with what else those files set.
struct PreTokenizer {
  const char* name;
  const char* regex;
  bool nfc;            // Qwen2's normalizer
  bool ignore_merges;  // Llama 3's BPE model
};
constexpr char kGpt2Regex[] =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
constexpr char kQwen2Regex[] =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr char kLlama3Regex[] =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr PreTokenizer kPreTokenizers[] = {
    {"default", kGpt2Regex, false, false}, {"gpt-2", kGpt2Regex, false, false},
    {"qwen2", kQwen2Regex, true, false},   {"llama-bpe", kLlama3Regex, false, true},
    {"llama3", kLlama3Regex, false, true},
};

constexpr char kSpace[] = "\xe2\x96\x81";  // U+2581, SentencePiece's space

class Builder {
 public:
  Builder(const gguf::GgufFile& file, const std::string& name, std::string* error)
      : file_(file), name_(name), error_(error) {}

  bool Fail(const std::string& what) {
    *error_ = name_ + ": " + what;
    return false;
  }
  bool Failed() { return Fail(*error_); }  // an accessor's error names the key

  bool ReadTokens();
  bool Gpt2(Json* tokenizer);
  bool Llama(Json* tokenizer);
  bool Config(Json* config);
  const std::string& model() const { return model_; }

 private:
  bool OptionalId(const char* key, int32_t* id);
  Json AddedTokens(bool unknown_too) const;
  bool LlamaMerges(Json* merges);

  const gguf::GgufFile& file_;
  const std::string& name_;
  std::string* error_;
  std::string model_;
  std::vector<std::string_view> tokens_;
  std::vector<int32_t> types_;
  std::unordered_map<std::string_view, int32_t> ids_;
  int32_t bos_ = -1, eos_ = -1, unknown_ = -1;
};

bool Builder::OptionalId(const char* key, int32_t* id) {
  if (file_.FindValue(key) == nullptr) return true;
  uint32_t v = 0;
  if (!file_.GetUint32(key, &v, error_)) return Failed();
  if (v >= tokens_.size()) {
    return Fail(std::string("metadata key '") + key + "' = " + std::to_string(v) +
                " is not one of the " + std::to_string(tokens_.size()) + " tokens");
  }
  *id = static_cast<int32_t>(v);
  return true;
}

bool Builder::ReadTokens() {
  std::string_view model;
  if (!file_.GetString("tokenizer.ggml.model", &model, error_)) return Failed();
  model_ = std::string(model.substr(0, 32));
  if (model_ != "gpt2" && model_ != "llama") {
    return Fail("metadata key 'tokenizer.ggml.model' = '" + model_ +
                "' is not supported (gpt2: byte-level BPE, llama: SentencePiece BPE)");
  }
  if (!file_.GetStringArray("tokenizer.ggml.tokens", &tokens_, error_)) return Failed();
  if (tokens_.empty() || tokens_.size() > (size_t{1} << 24)) {
    return Fail("metadata key 'tokenizer.ggml.tokens' holds " + std::to_string(tokens_.size()) +
                " tokens (expected 1 to 2^24)");
  }
  types_.assign(tokens_.size(), kNormal);
  if (file_.FindValue("tokenizer.ggml.token_type") != nullptr) {
    if (!file_.GetInt32Array("tokenizer.ggml.token_type", &types_, error_)) return Failed();
    if (types_.size() != tokens_.size()) {
      return Fail("metadata key 'tokenizer.ggml.token_type' holds " +
                  std::to_string(types_.size()) + " types for " + std::to_string(tokens_.size()) +
                  " tokens");
    }
  }
  ids_.reserve(tokens_.size());
  for (size_t i = 0; i < tokens_.size(); ++i) {
    if (types_[i] < 0 || types_[i] > kByte) {
      return Fail("metadata key 'tokenizer.ggml.token_type': token " + std::to_string(i) +
                  " has type " + std::to_string(types_[i]) + " (expected 0 to 6)");
    }
    const auto [it, fresh] = ids_.emplace(tokens_[i], static_cast<int32_t>(i));
    if (!fresh) {
      return Fail("metadata key 'tokenizer.ggml.tokens': token " + std::to_string(i) + " '" +
                  std::string(tokens_[i].substr(0, 64)) + "' repeats token " +
                  std::to_string(it->second));
    }
  }
  return OptionalId("tokenizer.ggml.bos_token_id", &bos_) &&
         OptionalId("tokenizer.ggml.eos_token_id", &eos_) &&
         OptionalId("tokenizer.ggml.unknown_token_id", &unknown_);
}

Json Builder::AddedTokens(bool unknown_too) const {
  Json added = Json::array();
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const int32_t type = types_[i];
    if (type != kControl && type != kUserDefined && !(unknown_too && type == kUnknown)) continue;
    added.push_back({{"id", i},
                     {"content", std::string(tokens_[i])},
                     {"special", type != kUserDefined},
                     {"single_word", false},
                     {"lstrip", false},
                     {"rstrip", false},
                     {"normalized", false}});
  }
  return added;
}

bool Builder::Gpt2(Json* tokenizer) {
  std::string_view pre = "default";
  if (file_.FindValue("tokenizer.ggml.pre") != nullptr &&
      !file_.GetString("tokenizer.ggml.pre", &pre, error_)) {
    return Failed();
  }
  const PreTokenizer* chosen = nullptr;
  std::string known;
  for (const PreTokenizer& p : kPreTokenizers) {
    if (pre == p.name) chosen = &p;
    known += (known.empty() ? "" : ", ") + std::string(p.name);
  }
  if (chosen == nullptr) {
    return Fail("metadata key 'tokenizer.ggml.pre' = '" + std::string(pre.substr(0, 64)) +
                "' is not supported (" + known + ")");
  }
  std::vector<std::string_view> merges;
  if (!file_.GetStringArray("tokenizer.ggml.merges", &merges, error_)) return Failed();
  Json vocab = Json::object();
  for (size_t i = 0; i < tokens_.size(); ++i) {
    if (types_[i] != kControl && types_[i] != kUserDefined) vocab[std::string(tokens_[i])] = i;
  }
  Json merge_list = Json::array();
  for (std::string_view m : merges) merge_list.push_back(std::string(m));
  (*tokenizer)["model"] = {{"type", "BPE"},
                           {"vocab", std::move(vocab)},
                           {"merges", std::move(merge_list)},
                           {"byte_fallback", false},
                           {"fuse_unk", false},
                           {"ignore_merges", chosen->ignore_merges}};
  if (chosen->nfc) (*tokenizer)["normalizer"] = {{"type", "NFC"}};
  const Json byte_level = {{"type", "ByteLevel"},
                           {"add_prefix_space", false},
                           {"trim_offsets", false},
                           {"use_regex", false}};
  (*tokenizer)["pre_tokenizer"] = {{"type", "Sequence"},
                                   {"pretokenizers",
                                    {{{"type", "Split"},
                                      {"pattern", {{"Regex", chosen->regex}}},
                                      {"behavior", "Isolated"},
                                      {"invert", false}},
                                     byte_level}}};
  (*tokenizer)["decoder"] = byte_level;
  (*tokenizer)["added_tokens"] = AddedTokens(/*unknown_too=*/false);
  return true;
}

// transformers' SentencePiece converter: every split of a piece into two pieces of the vocabulary
// is a merge; a piece's merges ordered by the ids of their halves, then all merges by the score
// of the piece they make, highest first (ties keep that order).
bool Builder::LlamaMerges(Json* merges) {
  if (file_.FindValue("tokenizer.ggml.merges") != nullptr) {
    std::vector<std::string_view> listed;
    if (!file_.GetStringArray("tokenizer.ggml.merges", &listed, error_)) return Failed();
    for (std::string_view m : listed) merges->push_back(std::string(m));
    return true;
  }
  std::vector<float> scores;
  if (!file_.GetFloatArray("tokenizer.ggml.scores", &scores, error_)) return Failed();
  if (scores.size() != tokens_.size()) {
    return Fail("metadata key 'tokenizer.ggml.scores' holds " + std::to_string(scores.size()) +
                " scores for " + std::to_string(tokens_.size()) + " tokens");
  }
  for (size_t i = 0; i < scores.size(); ++i) {
    if (std::isnan(scores[i])) {  // would leave the ranking undefined
      return Fail("metadata key 'tokenizer.ggml.scores': score " + std::to_string(i) + " is NaN");
    }
  }
  struct Merge {
    int32_t left, right;
    float score;
    size_t order;  // position before the sort by score, which keeps it among equal scores
  };
  std::vector<Merge> all, local;
  for (size_t id = 0; id < tokens_.size(); ++id) {
    const std::string_view piece = tokens_[id];
    local.clear();
    for (size_t at = 1; at < piece.size(); ++at) {
      if ((static_cast<uint8_t>(piece[at]) & 0xC0) == 0x80) continue;  // inside a character
      const auto left = ids_.find(piece.substr(0, at));
      const auto right = ids_.find(piece.substr(at));
      if (left != ids_.end() && right != ids_.end()) {
        local.push_back({left->second, right->second, scores[id], 0});
      }
    }
    std::sort(local.begin(), local.end(), [](const Merge& a, const Merge& b) {
      return a.left != b.left ? a.left < b.left : a.right < b.right;
    });
    for (Merge& m : local) m.order = all.size(), all.push_back(m);
  }
  std::sort(all.begin(), all.end(), [](const Merge& a, const Merge& b) {
    return a.score != b.score ? a.score > b.score : a.order < b.order;
  });
  for (const Merge& m : all) {
    merges->push_back({std::string(tokens_[m.left]), std::string(tokens_[m.right])});
  }
  return true;
}

bool Builder::Llama(Json* tokenizer) {
  bool space_prefix = true;
  if (file_.FindValue("tokenizer.ggml.add_space_prefix") != nullptr &&
      !file_.GetBool("tokenizer.ggml.add_space_prefix", &space_prefix, error_)) {
    return Failed();
  }
  if (unknown_ < 0) {
    const auto it = std::find(types_.begin(), types_.end(), kUnknown);
    if (it != types_.end()) unknown_ = static_cast<int32_t>(it - types_.begin());
  }
  Json vocab = Json::object();
  for (size_t i = 0; i < tokens_.size(); ++i) vocab[std::string(tokens_[i])] = i;
  Json merges = Json::array();
  if (!LlamaMerges(&merges)) return false;
  Json& model = (*tokenizer)["model"];
  model = {{"type", "BPE"},
           {"vocab", std::move(vocab)},
           {"merges", std::move(merges)},
           {"byte_fallback", true},
           {"fuse_unk", true}};
  if (unknown_ >= 0) model["unk_token"] = std::string(tokens_[unknown_]);
  const Json replace_space = {
      {"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", kSpace}};
  Json decoders = {{{"type", "Replace"}, {"pattern", {{"String", kSpace}}}, {"content", " "}},
                   {{"type", "ByteFallback"}},
                   {{"type", "Fuse"}}};
  if (space_prefix) {
    (*tokenizer)["normalizer"] = {
        {"type", "Sequence"},
        {"normalizers", {{{"type", "Prepend"}, {"prepend", kSpace}}, replace_space}}};
    decoders.push_back({{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}});
  } else {
    (*tokenizer)["normalizer"] = replace_space;
  }
  (*tokenizer)["decoder"] = {{"type", "Sequence"}, {"decoders", std::move(decoders)}};
  (*tokenizer)["added_tokens"] = AddedTokens(/*unknown_too=*/true);
  return true;
}

bool Builder::Config(Json* config) {
  bool add_bos = model_ == "llama", add_eos = false;
  for (auto [key, flag] : {std::pair{"tokenizer.ggml.add_bos_token", &add_bos},
                           std::pair{"tokenizer.ggml.add_eos_token", &add_eos}}) {
    if (file_.FindValue(key) != nullptr && !file_.GetBool(key, flag, error_)) return Failed();
  }
  auto token = [&](int32_t id) { return id < 0 ? Json() : Json(std::string(tokens_[id])); };
  *config = {{"bos_token", token(bos_)},
             {"eos_token", token(eos_)},
             {"add_bos_token", add_bos},
             {"add_eos_token", add_eos},
             {"clean_up_tokenization_spaces", false}};
  return true;
}

}  // namespace

bool TokenizerJsonFromGguf(const gguf::GgufFile& file, const std::string& name, Json* tokenizer,
                           Json* config, std::string* error) {
  Builder builder(file, name, error);
  Json t = Json::object(), c;
  if (!builder.ReadTokens() ||
      !(builder.model() == "gpt2" ? builder.Gpt2(&t) : builder.Llama(&t)) || !builder.Config(&c)) {
    return false;
  }
  *tokenizer = std::move(t);
  *config = std::move(c);
  return true;
}

}  // namespace tcpu::tokenizer
