#include "engine/generate/generation_config.h"

#include "engine/common/json_text.h"
#include "nlohmann/json.hpp"

namespace tcpu::generate {
namespace {

bool IsTokenId(const nlohmann::json& value) {
  return value.is_number_integer() && value.get<int64_t>() >= 0 &&
         value.get<int64_t>() <= INT32_MAX;
}

}  // namespace

bool ReadEosTokenIds(std::string_view config_json, std::vector<int32_t>* ids, std::string* error) {
  nlohmann::json config;
  if (!engine::ParseJson(config_json, &config) || !config.is_object()) {
    *error = "generation_config.json is not a JSON object";
    return false;
  }
  const auto found = config.find("eos_token_id");
  if (found == config.end() || found->is_null()) return true;
  if (IsTokenId(*found)) {
    ids->push_back(found->get<int32_t>());
    return true;
  }
  if (found->is_array()) {
    for (const auto& id : *found) {
      if (!IsTokenId(id)) {
        *error = "eos_token_id: list entry " + engine::DumpJson(id) + " is not a token id";
        return false;
      }
      ids->push_back(id.get<int32_t>());
    }
    return true;
  }
  *error = "eos_token_id: " + found->dump() + " is neither a token id nor a list of them";
  return false;
}

}  // namespace tcpu::generate
