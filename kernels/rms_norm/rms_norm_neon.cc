// RMSNorm passes on Armv8.0 NEON. bf16 -> fp32 is SHLL #16 (bf16 is the top half of fp32);
// the sum of squares keeps 8 FMA chains in flight (4-cycle FMA latency x 2 pipes on
// Cortex-A720) over 32 elements per iteration.
#include <arm_neon.h>

#include "kernels/rms_norm/rms_norm_kernels.h"
#include "tcpu/bf16.h"

namespace tcpu::rms_norm {
namespace {

inline float32x4_t LowToF32(uint16x8_t h) {
  return vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16));
}
inline float32x4_t HighToF32(uint16x8_t h) {
  return vreinterpretq_f32_u32(vshll_high_n_u16(h, 16));
}

// fp32 -> bf16 rounding to nearest even, NaN made quiet: lane by lane tcpu_f32_to_bf16
// (Armv8.0 has no BFCVTN).
inline uint16x4_t ToBf16(float32x4_t f) {
  const uint32x4_t bits = vreinterpretq_u32_f32(f);
  const uint32x4_t lsb = vandq_u32(vshrq_n_u32(bits, 16), vdupq_n_u32(1));
  const uint32x4_t rounded = vaddq_u32(bits, vaddq_u32(lsb, vdupq_n_u32(0x7fff)));
  const uint32x4_t quiet_nan = vorrq_u32(bits, vdupq_n_u32(0x00400000));
  return vshrn_n_u32(vbslq_u32(vceqq_f32(f, f), rounded, quiet_nan), 16);
}

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
