// Several W8A8 GEMVs on one activation vector, for the fused decode kernels: x is quantized
// once (as tcpu_gemv_bf16_w8 does it), then every matrix's rows run in one parallel region.
// Each output is bit-identical to its own tcpu_gemv_bf16_w8 call, since the quantization is
// deterministic and every row is an exact integer dot product.
#ifndef TCPU_KERNELS_GEMV_GEMV_W8A8_H_
#define TCPU_KERNELS_GEMV_GEMV_W8A8_H_

#include <cstdint>

#include "kernels/gemv/gemv_kernels.h"
#include "kernels/pack/packed_weights.h"

namespace tcpu::gemv {

// The kernel tcpu_gemv_bf16_w8 dispatches to (chosen once).
const GemvKernel& Bf16W8Kernel();

// Scratch bytes QuantizeActivation needs for k activations (64-byte multiple), or a negative
// tcpu_status naming `fn`.
int ActivationScratchBytes(const char* fn, const GemvKernel& kernel, int64_t k, int64_t* bytes);

// x quantized to int8 in the kernel's layout; `zero` when x has no nonzero (non-NaN) value,
// in which case every GEMV on it outputs zeros.
struct QuantizedActivation {
  // k int8 at the start of the scratch's first AlignScratch(k) bytes; the bytes after k are
  // free for a runner to pad (kernels/linear zero-fills them to whole int4 groups of 32).
  int8_t* q = nullptr;
  const int8_t* prepared = nullptr;
  float scale = 0.0f;  // absmax / 127
  int64_t k = 0;
  bool zero = true;
};

// Quantizes x[k] into `scratch` (ActivationScratchBytes bytes, 64-byte aligned).
QuantizedActivation QuantizeActivation(const GemvKernel& kernel, const uint16_t* x, int64_t k,
                                       int8_t* scratch);

// One W8A8 matrix on a shared activation: y[n] = W . x with per-row scales, bf16 (y) or fp32
// (y_f32, when y is null).
struct W8A8Gemv {
  PackedWeightsView weights;  // validated for (n, x.k)
  const float* scales = nullptr;
  uint16_t* y = nullptr;
  float* y_f32 = nullptr;
};

// The int8 backend of ParallelForUnits (runtime/parallel_units.h), the one runner of GEMVs
// alone or sharing an activation (kernels/linear): a GEMV's unit is a pair of 4-row blocks
// (8 rows, what the vector kernels unroll).
int64_t BlockPairs(int64_t blocks);
int64_t MacsPerBlockPair(const I8GemvArgs& args);
void RunBlockPairs(const GemvKernel& kernel, const I8GemvArgs& args, int64_t blocks,
                   int64_t pair_begin, int64_t pair_end);

// One GEMV on the pool (its block pairs through ParallelForUnits). Returns a tcpu_status
// (only the thread pool can fail).
int RunGemv(const GemvKernel& kernel, const I8GemvArgs& args, int64_t blocks);

// The arguments of `gemv` on a nonzero x.
I8GemvArgs W8A8Args(const QuantizedActivation& x, const W8A8Gemv& gemv);

}  // namespace tcpu::gemv

#endif  // TCPU_KERNELS_GEMV_GEMV_W8A8_H_
