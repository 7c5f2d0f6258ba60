// tcpu_rms_norm_bf16: argument checks, run-time dispatch, and the float64 fallback for inputs
// whose fp32 squares leave the fp32 range.
#include "tcpu/rms_norm.h"

#include <cmath>

#include "kernels/rms_norm/rms_norm_kernels.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "tcpu/bf16.h"

namespace tcpu {
namespace rms_norm {
namespace {

constexpr KernelVariant<const RmsNormKernel*> kRmsNormVariants[] = {
#if defined(__aarch64__)
    {"rms_norm_bf16:sve2", TCPU_FEATURE_SVE2, &kRmsNormSve2},
    {"rms_norm_bf16:neon", 0, &kRmsNormNeon},
#endif
    {"rms_norm_bf16:ref", 0, &kRmsNormRef},
};

const KernelVariant<const RmsNormKernel*>& Selected() {
  static const KernelVariant<const RmsNormKernel*>& variant = SelectVariant(kRmsNormVariants);
  return variant;
}

// Below this fp32 sum of squares, squares that underflowed (|x| < 2^-75) could matter: each
// lost square is < 2^-126, so above it they change the sum by < d * 2^-62 relatively.
constexpr float kMinExactSum = 0x1p-64f;

// Everything in float64, whose exponent range holds any bf16 squared: for rows with huge
// (|x| > ~1.8e19) or tiny values, all zeros, Inf or NaN. Rare, so plain scalar code.
void RmsNormFloat64(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float eps) {
  double sum = 0.0;
  for (int64_t i = 0; i < d; ++i) {
    const double v = tcpu_bf16_to_f32(x[i]);
    sum += v * v;
  }
  const double inv = 1.0 / std::sqrt(sum / static_cast<double>(d) + static_cast<double>(eps));
  for (int64_t i = 0; i < d; ++i) {
    const double v = static_cast<double>(tcpu_bf16_to_f32(x[i])) * inv *
                     static_cast<double>(tcpu_bf16_to_f32(w[i]));
    out[i] = tcpu_f32_to_bf16(static_cast<float>(v));
  }
}

}  // namespace

const KernelVariant<const RmsNormKernel*>* RmsNormVariantTable(int* count) {
  *count = static_cast<int>(sizeof(kRmsNormVariants) / sizeof(kRmsNormVariants[0]));
  return kRmsNormVariants;
}

void RmsNormWith(const RmsNormKernel& kernel, const uint16_t* x, const uint16_t* w, uint16_t* out,
                 int64_t d, float eps) {
  const float sum = kernel.sum_squares(x, d);
  if (!(std::isfinite(sum) && sum >= kMinExactSum)) {
    RmsNormFloat64(x, w, out, d, eps);
    return;
  }
  // The scalar epilogue in float64 costs nothing and keeps inv correctly rounded. With
  // sum >= 2^-64, |x[i] * inv| <= sqrt(d): the scale pass cannot overflow before w.
  const double mean = static_cast<double>(sum) / static_cast<double>(d);
  const float inv = static_cast<float>(1.0 / std::sqrt(mean + static_cast<double>(eps)));
  kernel.scale(x, w, out, d, inv);
}

}  // namespace rms_norm

const char* RmsNormBf16Variant() { return rms_norm::Selected().name; }

}  // namespace tcpu

extern "C" int tcpu_rms_norm_bf16(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d,
                                  float eps) {
  constexpr const char* kFn = "tcpu_rms_norm_bf16";
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, w);
  TCPU_CHECK_NOT_NULL(kFn, out);
  TCPU_CHECK_POSITIVE(kFn, d);
  int64_t bytes = 0;
  TCPU_CHECK_MUL(kFn, d, static_cast<int64_t>(sizeof(uint16_t)), &bytes);
  if (!(eps > 0.0f && std::isfinite(eps))) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: eps = %g, expected > 0 and finite", kFn,
                      static_cast<double>(eps));
  }
  tcpu::rms_norm::RmsNormWith(*tcpu::rms_norm::Selected().fn, x, w, out, d, eps);
  return tcpu::Succeed();
}
