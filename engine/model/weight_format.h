// How a model's linear layers (attention, MLP, lm_head) are held: quantized at load from a float
// checkpoint, or mapped as stored in a pre-quantized one (prequantized_format.h).
#ifndef TCPU_ENGINE_MODEL_WEIGHT_FORMAT_H_
#define TCPU_ENGINE_MODEL_WEIGHT_FORMAT_H_

namespace tcpu::model {

enum class WeightFormat {
  kInt8,  // W8A8: tcpu_quantize_weights_bf16 + tcpu_pack_weights_i8
  kInt4,  // W4A8: tcpu_quantize_q4_bf16 + tcpu_pack_q4 (0.5625 bytes per weight)
};

// "int8" or "int4": the spelling of tcpu-decode's and tcpu-quantize's
// --weights.
inline const char* WeightFormatName(WeightFormat format) {
  return format == WeightFormat::kInt4 ? "int4" : "int8";
}

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_WEIGHT_FORMAT_H_
