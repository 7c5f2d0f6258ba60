// The micro-kernels behind tcpu_rms_norm_bf16, one per file and ISA:
//   rms_norm_ref.cc   portable scalar reference
//   rms_norm_neon.cc  -march=armv8-a        8 fp32 FMA accumulators, SHLL widening
//   rms_norm_sve2.cc  -march=armv9-a+sve2   any VL: ZIP with zero widens bf16, WHILELT tails
// A kernel is two passes: sum_squares (fp32 accumulation) and scale. rms_norm.cc turns the
// sum into 1 / sqrt(mean + eps) and falls back to a float64 pass when fp32 squares may have
// overflowed or underflowed (see RmsNormWith).
#ifndef TCPU_KERNELS_RMS_NORM_RMS_NORM_KERNELS_H_
#define TCPU_KERNELS_RMS_NORM_RMS_NORM_KERNELS_H_

#include <cstdint>

#include "runtime/dispatch.h"

namespace tcpu::rms_norm {

struct RmsNormKernel {
  // sum_{i<d} x[i]^2 in fp32 (any d >= 1; the order of additions is the kernel's).
  float (*sum_squares)(const uint16_t* x, int64_t d);
  // out[i] = bf16_rne((x[i] * inv) * w[i]) in fp32; out may alias x (each element is read
  // before it is written).
  void (*scale)(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float inv);
};

extern const RmsNormKernel kRmsNormRef;
#if defined(__aarch64__)
extern const RmsNormKernel kRmsNormNeon;
extern const RmsNormKernel kRmsNormSve2;
#endif

// The dispatch table, best first; tests and benchmarks run every entry the CPU supports.
const KernelVariant<const RmsNormKernel*>* RmsNormVariantTable(int* count);

// tcpu_rms_norm_bf16 with a given kernel, arguments already checked.
void RmsNormWith(const RmsNormKernel& kernel, const uint16_t* x, const uint16_t* w, uint16_t* out,
                 int64_t d, float eps);

}  // namespace tcpu::rms_norm

#endif  // TCPU_KERNELS_RMS_NORM_RMS_NORM_KERNELS_H_
