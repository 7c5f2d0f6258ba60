// RMSNorm passes on Armv8.0 NEON. bf16 -> fp32 is SHLL #16 (bf16 is the top half of fp32);
// the sum of squares keeps 8 FMA chains in flight (4-cycle FMA latency x 2 pipes on
// Cortex-A720) over 32 elements per iteration.
#include <arm_neon.h>

#include "kernels/rms_norm/rms_norm_kernels.h"
#include "runtime/bf16_neon.h"
#include "tcpu/bf16.h"

namespace tcpu::rms_norm {
namespace {

using ::tcpu::simd::HighToF32;
using ::tcpu::simd::LowToF32;
using ::tcpu::simd::ToBf16;

float SumSquaresNeon(const uint16_t* x, int64_t d) {
  float32x4_t acc[8];
  for (auto& a : acc) a = vdupq_n_f32(0.0f);
  int64_t i = 0;
  for (; i + 32 <= d; i += 32) {
    for (int u = 0; u < 4; ++u) {
      const uint16x8_t h = vld1q_u16(x + i + 8 * u);
      const float32x4_t lo = LowToF32(h);
      const float32x4_t hi = HighToF32(h);
      acc[2 * u] = vfmaq_f32(acc[2 * u], lo, lo);
      acc[2 * u + 1] = vfmaq_f32(acc[2 * u + 1], hi, hi);
    }
  }
  for (; i + 8 <= d; i += 8) {
    const uint16x8_t h = vld1q_u16(x + i);
    const float32x4_t lo = LowToF32(h);
    const float32x4_t hi = HighToF32(h);
    acc[0] = vfmaq_f32(acc[0], lo, lo);
    acc[1] = vfmaq_f32(acc[1], hi, hi);
  }
  const float32x4_t sum =
      vaddq_f32(vaddq_f32(vaddq_f32(acc[0], acc[1]), vaddq_f32(acc[2], acc[3])),
                vaddq_f32(vaddq_f32(acc[4], acc[5]), vaddq_f32(acc[6], acc[7])));
  float total = vaddvq_f32(sum);
  for (; i < d; ++i) {
    const float v = tcpu_bf16_to_f32(x[i]);
    total += v * v;
  }
  return total;
}

void ScaleNeon(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float inv) {
  const float32x4_t vinv = vdupq_n_f32(inv);
  int64_t i = 0;
  for (; i + 8 <= d; i += 8) {
    const uint16x8_t hx = vld1q_u16(x + i);
    const uint16x8_t hw = vld1q_u16(w + i);
    const float32x4_t lo = vmulq_f32(vmulq_f32(LowToF32(hx), vinv), LowToF32(hw));
    const float32x4_t hi = vmulq_f32(vmulq_f32(HighToF32(hx), vinv), HighToF32(hw));
    vst1q_u16(out + i, vcombine_u16(ToBf16(lo), ToBf16(hi)));
  }
  for (; i < d; ++i) {
    out[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(x[i]) * inv * tcpu_bf16_to_f32(w[i]));
  }
}

}  // namespace

const RmsNormKernel kRmsNormNeon = {SumSquaresNeon, ScaleNeon};

}  // namespace tcpu::rms_norm
