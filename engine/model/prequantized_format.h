// The pre-quantized checkpoint (engine/model/README.md, "Contract: pre-quantized checkpoints"): a
// checkpoint directory whose model.safetensors holds the linear layers packed and scaled exactly as
// the loader holds them after quantizing (tcpu/gemv.h, tcpu/gemv_q4.h), so loading maps them. Its
// `__metadata__` says so in the `tcpu.*` entries read and written here.
#ifndef TCPU_ENGINE_MODEL_PREQUANTIZED_FORMAT_H_
#define TCPU_ENGINE_MODEL_PREQUANTIZED_FORMAT_H_

#include <cstdint>
#include <map>
#include <string>

#include "engine/model/weight_format.h"

namespace tcpu::model {

inline constexpr char kPrequantizedFormatName[] = "tcpu-prequantized";
inline constexpr int64_t kPrequantizedFormatVersion = 1;

// The `__metadata__` keys.
inline constexpr char kFormatKey[] = "tcpu.format";
inline constexpr char kFormatVersionKey[] = "tcpu.format_version";
inline constexpr char kWeightsKey[] = "tcpu.weights";
inline constexpr char kPackingVersionKey[] = "tcpu.packing_layout_version";
inline constexpr char kSourceConfigKey[] = "tcpu.source_config";

struct PrequantizedInfo {
  WeightFormat weights = WeightFormat::kInt8;
  std::string source_config;  // the config.json the checkpoint was quantized from
};

// The packed layout version this SDK writes and reads for `format`: TCPU_PACKED_WEIGHTS_VERSION or
// TCPU_Q4_PACKED_VERSION.
int64_t PackingLayoutVersion(WeightFormat format);

// The fp32 per-row scales of the int8 matrix `weight_name`: "X.weight" -> "X.weight_scale".
std::string ScaleTensorName(const std::string& weight_name);

// The `__metadata__` of a pre-quantized model.safetensors.
std::map<std::string, std::string> PrequantizedMetadata(WeightFormat weights,
                                                        const std::string& source_config);

// Reads the tcpu.* entries of `metadata` (from `file`). *found is false when there are none (a
// float checkpoint). Otherwise every entry must be present and valid and `config_json` (the
// config.json beside the file) the same JSON as the recorded source config; false with *error
// naming the file, the key and the value found.
bool ReadPrequantizedMetadata(const std::map<std::string, std::string>& metadata,
                              const std::string& file, const std::string& config_json, bool* found,
                              PrequantizedInfo* info, std::string* error);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_PREQUANTIZED_FORMAT_H_
