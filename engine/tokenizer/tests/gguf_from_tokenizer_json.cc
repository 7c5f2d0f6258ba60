#include "engine/tokenizer/tests/gguf_from_tokenizer_json.h"

#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/common/json_text.h"
#include "engine/gguf/gguf_writer.h"

namespace tcpu::testing {
namespace {

using gguf::MetadataValue;
using Json = nlohmann::json;

constexpr int32_t kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4, kUnused = 5, kByte = 6;

bool ReadJson(const std::string& path, Json* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  if (engine::ParseJson(std::string(std::istreambuf_iterator<char>(in), {}), out)) return true;
  *error = path + ": not JSON";
  return false;
}

// "<s>" or {"content": "<s>"} in tokenizer_config.json.
std::string ConfigToken(const Json& config, const char* key) {
  const auto it = config.find(key);
  if (it == config.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : (*it)["content"].get<std::string>();
}

bool IsBytePiece(const std::string& token) {
  return token.size() == 6 && token.rfind("<0x", 0) == 0 && token[5] == '>';
}

}  // namespace

bool AddGgufTokenizer(const std::string& tokenizer_json, const TokenizerExport& options,
                      gguf::GgufWriter* writer, std::string* error) {
  Json tokenizer, config = Json::object();
  if (!ReadJson(tokenizer_json, &tokenizer, error)) return false;
  const std::string dir = tokenizer_json.substr(0, tokenizer_json.rfind('/'));
  if (std::ifstream(dir + "/tokenizer_config.json").good() &&
      !ReadJson(dir + "/tokenizer_config.json", &config, error)) {
    return false;
  }
  const bool llama = options.model == "llama";
  std::map<int64_t, std::pair<std::string, int32_t>> by_id;  // id -> token, type
  const Json& model = tokenizer["model"];
  const std::string unk = model.value("unk_token", Json()).is_string()
                              ? model["unk_token"].get<std::string>()
                              : std::string();
  for (auto it = model["vocab"].begin(); it != model["vocab"].end(); ++it) {
    const std::string& token = it.key();
    const int32_t type = llama && token == unk         ? kUnknown
                         : llama && IsBytePiece(token) ? kByte
                                                       : kNormal;
    by_id[it->get<int64_t>()] = {token, type};
  }
  for (const Json& added : tokenizer["added_tokens"]) {
    const int32_t type = added["content"] == unk && llama ? kUnknown
                         : added["special"].get<bool>()   ? kControl
                                                          : kUserDefined;
    by_id[added["id"].get<int64_t>()] = {added["content"].get<std::string>(), type};
  }
  std::vector<std::pair<std::string, std::string>> merges;
  for (const Json& m : model["merges"]) {
    if (m.is_string()) {
      const std::string text = m.get<std::string>();
      const size_t space = text.find(' ');
      merges.emplace_back(text.substr(0, space), text.substr(space + 1));
    } else {
      merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
    }
  }
  // The piece each merge makes scores minus its first merge's rank: transformers ranked the
  // merges by these scores, so ranking by them again must give the same merges.
  std::map<std::string, float> made_at;
  for (size_t rank = 0; rank < merges.size(); ++rank) {
    made_at.emplace(merges[rank].first + merges[rank].second, -static_cast<float>(rank));
  }
  std::vector<std::string> tokens;
  std::vector<int32_t> types;
  std::vector<float> scores;
  std::map<std::string, int32_t> ids;
  const int64_t size = by_id.rbegin()->first + 1;
  for (int64_t id = 0; id < size; ++id) {
    const auto it = by_id.find(id);
    tokens.push_back(it != by_id.end() ? it->second.first : "[PAD" + std::to_string(id) + "]");
    types.push_back(it != by_id.end() ? it->second.second : kUnused);
    const auto made = made_at.find(tokens.back());
    scores.push_back(made != made_at.end() ? made->second : -1e9f);  // no merge makes it
    ids[tokens.back()] = static_cast<int32_t>(id);
  }
  writer->AddMetadata("tokenizer.ggml.model", MetadataValue::String(options.model));
  if (!options.pre.empty()) {
    writer->AddMetadata("tokenizer.ggml.pre", MetadataValue::String(options.pre));
  }
  writer->AddMetadata("tokenizer.ggml.tokens", MetadataValue::StringArray(tokens));
  writer->AddMetadata("tokenizer.ggml.token_type", MetadataValue::Int32Array(types));
  if (llama) writer->AddMetadata("tokenizer.ggml.scores", MetadataValue::Float32Array(scores));
  if (!llama || options.llama_merges) {
    std::vector<std::string> lines;
    for (const auto& [left, right] : merges) lines.push_back(left + " " + right);
    writer->AddMetadata("tokenizer.ggml.merges", MetadataValue::StringArray(lines));
  }
  for (const char* key : {"bos", "eos"}) {
    const std::string token = ConfigToken(config, (std::string(key) + "_token").c_str());
    if (token.empty()) continue;
    writer->AddMetadata(std::string("tokenizer.ggml.") + key + "_token_id",
                        MetadataValue::Uint32(static_cast<uint32_t>(ids.at(token))));
  }
  if (!unk.empty()) {
    writer->AddMetadata("tokenizer.ggml.unknown_token_id",
                        MetadataValue::Uint32(static_cast<uint32_t>(ids.at(unk))));
  }
  for (const char* flag : {"add_bos_token", "add_eos_token"}) {
    if (config.contains(flag) && config[flag].is_boolean()) {
      writer->AddMetadata(std::string("tokenizer.ggml.") + flag,
                          MetadataValue::Bool(config[flag].get<bool>()));
    }
  }
  return true;
}

bool WriteGgufTokenizer(const std::string& tokenizer_json, const std::string& path,
                        const TokenizerExport& options, std::string* error) {
  gguf::GgufWriter writer;
  return AddGgufTokenizer(tokenizer_json, options, &writer, error) && writer.WriteFile(path, error);
}

}  // namespace tcpu::testing
