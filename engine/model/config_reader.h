// Typed reads of config.json fields that name the field on failure ("DIR/config.json: field
// 'x' must be a positive integer"), shared by the config parser and the architecture files.
#ifndef TCPU_ENGINE_MODEL_CONFIG_READER_H_
#define TCPU_ENGINE_MODEL_CONFIG_READER_H_

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace tcpu::model {

using Json = nlohmann::json;

class ConfigReader {
 public:
  ConfigReader(const Json& json, const std::string& name, std::string* error)
      : json_(json), name_(name), error_(error) {}

  bool Fail(const std::string& what) {
    *error_ = name_ + ": " + what;
    return false;
  }

  // A positive integer field in [1, max]; absent or null keeps *out unless required.
  bool Int(const char* field, bool required, int64_t max, int64_t* out) {
    const auto it = json_.find(field);
    if (it == json_.end() || it->is_null()) {
      if (required) return Fail(std::string("required field '") + field + "' is missing");
      return true;
    }
    if (!it->is_number_integer() || (it->is_number_unsigned() && it->get<uint64_t>() > INT64_MAX) ||
        it->get<int64_t>() <= 0) {
      return Fail(std::string("field '") + field + "' must be a positive integer");
    }
    if (it->get<int64_t>() > max) {
      return Fail(std::string("field '") + field + "' = " + std::to_string(it->get<int64_t>()) +
                  " exceeds the supported maximum " + std::to_string(max));
    }
    *out = it->get<int64_t>();
    return true;
  }

  // A finite number in (0, max] from `object`.
  bool Number(const Json& object, const std::string& field, bool required, double max,
              double* out) {
    const auto it = object.find(field);
    if (it == object.end() || it->is_null()) {
      if (required) return Fail("required field '" + field + "' is missing");
      return true;
    }
    if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>())) {
      return Fail("field '" + field + "' must be a positive finite number");
    }
    if (it->get<double>() > max) {
      return Fail("field '" + field + "' = " + std::to_string(it->get<double>()) +
                  " exceeds the supported maximum " + std::to_string(max));
    }
    *out = it->get<double>();
    return true;
  }

  // A boolean field; absent or null keeps *out.
  bool Bool(const char* field, bool* out) {
    const auto it = json_.find(field);
    if (it == json_.end() || it->is_null()) return true;
    if (!it->is_boolean()) return Fail(std::string("field '") + field + "' must be true or false");
    *out = it->get<bool>();
    return true;
  }

  const Json& json() const { return json_; }

 protected:
  const Json& json_;
  const std::string& name_;
  std::string* error_;
};

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_CONFIG_READER_H_
