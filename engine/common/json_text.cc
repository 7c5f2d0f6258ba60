#include "engine/common/json_text.h"

namespace tcpu::engine {
namespace {

template <typename Json>
bool Parse(std::string_view text, Json* out, JsonError* error) {
  try {
    *out = Json::parse(text.begin(), text.end());
    return true;
  } catch (const nlohmann::json::parse_error& e) {
    if (error != nullptr) *error = {e.what(), e.byte};
  } catch (const nlohmann::json::exception& e) {
    if (error != nullptr) *error = {e.what(), 0};
  }
  *out = nullptr;
  return false;
}

template <typename Json>
std::string Dump(const Json& value, int indent) {
  return value.dump(indent);
}

}  // namespace

bool ParseJson(std::string_view text, nlohmann::json* out, JsonError* error) {
  return Parse(text, out, error);
}

bool ParseJson(std::string_view text, nlohmann::ordered_json* out, JsonError* error) {
  return Parse(text, out, error);
}

std::string DumpJson(const nlohmann::json& value, int indent) { return Dump(value, indent); }

std::string DumpJson(const nlohmann::ordered_json& value, int indent) {
  return Dump(value, indent);
}

}  // namespace tcpu::engine
