// The fused MLP with caller-provided scratch, for tcpu_fused_mlp_bf16 (arena scratch) and
// the transformer layer (its workspace).
#ifndef TCPU_KERNELS_FUSED_MLP_FUSED_MLP_INTERNAL_H_
#define TCPU_KERNELS_FUSED_MLP_FUSED_MLP_INTERNAL_H_

#include <cstdint>

#include "kernels/linear/linear.h"

namespace tcpu::fused_mlp {

// Validated weights of one MLP: gate and up [intermediate, hidden], down [hidden,
// intermediate], each int8 with per-row fp32 scales or int4 (kernels/linear).
struct MlpWeights {
  linear::LinearView gate, up, down;
};

// Checks the pointers and shapes (errors name `fn` and the offending argument).
int ViewMlpWeights(const char* fn, const void* packed_gate, const float* gate_scales,
                   const void* packed_up, const float* up_scales, const void* packed_down,
                   const float* down_scales, int64_t hidden, int64_t intermediate,
                   MlpWeights* weights);

// Scratch bytes Run needs (a 64-byte multiple), or a negative tcpu_status naming `fn`.
int MlpScratchBytes(const char* fn, int64_t hidden, int64_t intermediate, int64_t* bytes);

// y = down(silu(gate(x)) * up(x)); `scratch` is MlpScratchBytes long and 64-byte aligned. y may
// alias x. Returns a tcpu_status (only the thread pool can fail).
int Run(const MlpWeights& w, const uint16_t* x, uint16_t* y, int8_t* scratch);

}  // namespace tcpu::fused_mlp

#endif  // TCPU_KERNELS_FUSED_MLP_FUSED_MLP_INTERNAL_H_
