// A model with MiniCPM5-1B's layer shapes (hidden 1536, 16 heads, 2 kv heads, head_dim 128,
// intermediate 4608) and cheap deterministic weights generated in memory, for the benchmarks
// and instruction counts of whole decode steps and prompts. By default every layer has its own
// weights, so each step reads every byte as a real model's would; an instruction count, which
// does not depend on the weights' values or addresses, can share one layer's weights among all
// layers and skip generating the rest.
#ifndef TCPU_KERNELS_DECODE_STEP_SYNTHETIC_MODEL_H_
#define TCPU_KERNELS_DECODE_STEP_SYNTHETIC_MODEL_H_

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "tcpu/transformer.h"

namespace tcpu::testing {

inline constexpr tcpu_layer_shape kMiniCpm5_1BLayer = {1536,  4608, 16, 2, 128, 1e-6f,
                                                        1e6f,  0.0f, nullptr, 0.0};
inline constexpr int64_t kMiniCpm5_1BLayers = 24, kMiniCpm5_1BVocab = 130560;

struct SyntheticLinear {
  std::unique_ptr<uint8_t, decltype(&std::free)> packed{nullptr, &std::free};
  std::vector<float> scales;  // int8 only
  int64_t bytes = 0;          // packed bytes plus the scales a step reads
};

struct SyntheticModel {
  std::vector<uint16_t> embed, norm;
  std::vector<SyntheticLinear> linears;
  std::vector<tcpu_layer_weights> layers;
  tcpu_model_weights weights{};
  int64_t bytes_per_token = 0;  // every packed matrix with its scales, the norms, one embedding row
};

enum class LayerWeights { kDistinct, kShared };

// `layers` layers of `shape` and a vocabulary of `vocab`, INT8 (W8A8, per-row fp32 scales) or
// INT4 (W4A8: the int8 values / 16, one fp16 scale per group). `bytes_per_token` counts every
// layer's matrices either way. nullptr when memory runs out.
std::unique_ptr<SyntheticModel> MakeSyntheticModel(
    const tcpu_layer_shape& shape, int64_t layers, int64_t vocab, bool int4,
    LayerWeights layer_weights = LayerWeights::kDistinct);

}  // namespace tcpu::testing

#endif  // TCPU_KERNELS_DECODE_STEP_SYNTHETIC_MODEL_H_
