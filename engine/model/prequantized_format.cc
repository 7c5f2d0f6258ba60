#include "engine/model/prequantized_format.h"

#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::model {
namespace {

using Json = nlohmann::json;

// The first top-level key whose value differs between two JSON objects, as "'key' (a vs b)".
std::string FirstDifference(const Json& a, const Json& b) {
  auto value = [](const Json& object, const std::string& key) {
    const auto it = object.find(key);
    return it == object.end() ? std::string("absent") : it->dump().substr(0, 80);
  };
  for (const Json* object : {&a, &b}) {
    for (auto it = object->begin(); it != object->end(); ++it) {
      if (a.find(it.key()) == a.end() || b.find(it.key()) == b.end() ||
          a[it.key()] != b[it.key()]) {
        return "'" + it.key().substr(0, 80) + "' (" + value(a, it.key()) + " vs " +
               value(b, it.key()) + ")";
      }
    }
  }
  return "a value";
}

}  // namespace

int64_t PackingLayoutVersion(WeightFormat format) {
  return format == WeightFormat::kInt4 ? TCPU_Q4_PACKED_VERSION : TCPU_PACKED_WEIGHTS_VERSION;
}

std::string ScaleTensorName(const std::string& weight_name) { return weight_name + "_scale"; }

std::map<std::string, std::string> PrequantizedMetadata(WeightFormat weights,
                                                        const std::string& source_config) {
  return {{kFormatKey, kPrequantizedFormatName},
          {kFormatVersionKey, std::to_string(kPrequantizedFormatVersion)},
          {kWeightsKey, WeightFormatName(weights)},
          {kPackingVersionKey, std::to_string(PackingLayoutVersion(weights))},
          {kSourceConfigKey, source_config}};
}

bool ReadPrequantizedMetadata(const std::map<std::string, std::string>& metadata,
                              const std::string& file, const std::string& config_json, bool* found,
                              PrequantizedInfo* info, std::string* error) {
  *found = false;
  const auto first_tcpu_key = metadata.lower_bound("tcpu.");
  if (first_tcpu_key == metadata.end() || first_tcpu_key->first.rfind("tcpu.", 0) != 0) {
    return true;
  }
  *found = true;
  const std::string where = file + ": __metadata__ ";
  auto get = [&](const char* key, std::string* value) {
    const auto it = metadata.find(key);
    if (it == metadata.end()) {
      *error = where + "has no '" + key + "' (a pre-quantized checkpoint records " + kFormatKey +
               ", " + kFormatVersionKey + ", " + kWeightsKey + ", " + kPackingVersionKey + " and " +
               kSourceConfigKey + ")";
      return false;
    }
    *value = it->second;
    return true;
  };
  auto mismatch = [&](const char* key, const std::string& value, const std::string& expected) {
    *error = where + "'" + key + "' is '" + value.substr(0, 80) + "', expected " + expected;
    return false;
  };
  std::string format, version, weights, packing;
  if (!get(kFormatKey, &format) || !get(kFormatVersionKey, &version) ||
      !get(kWeightsKey, &weights) || !get(kPackingVersionKey, &packing) ||
      !get(kSourceConfigKey, &info->source_config)) {
    return false;
  }
  if (format != kPrequantizedFormatName) {
    return mismatch(kFormatKey, format, std::string("'") + kPrequantizedFormatName + "'");
  }
  if (version != std::to_string(kPrequantizedFormatVersion)) {
    return mismatch(kFormatVersionKey, version,
                    "'" + std::to_string(kPrequantizedFormatVersion) +
                        "' (the version this SDK reads: quantize the source "
                        "checkpoint again)");
  }
  if (weights == "int8") {
    info->weights = WeightFormat::kInt8;
  } else if (weights == "int4") {
    info->weights = WeightFormat::kInt4;
  } else {
    return mismatch(kWeightsKey, weights, "'int8' or 'int4'");
  }
  const std::string layout = std::to_string(PackingLayoutVersion(info->weights));
  if (packing != layout) {
    return mismatch(kPackingVersionKey, packing,
                    "'" + layout + "' (this SDK's " + weights +
                        " packing: quantize the source checkpoint again)");
  }
  Json source;
  if (!engine::ParseJson(info->source_config, &source) || !source.is_object()) {
    *error = where + "'" + kSourceConfigKey + "' is not a JSON object";
    return false;
  }
  Json config;  // null when malformed, which differs from the object `source`
  engine::ParseJson(config_json, &config);
  if (config != source) {  // config.json parsed already; a difference means it was edited
    *error = file + ": config.json differs from __metadata__ '" + kSourceConfigKey + "' at " +
             FirstDifference(config, source);
    return false;
  }
  return true;
}

}  // namespace tcpu::model
