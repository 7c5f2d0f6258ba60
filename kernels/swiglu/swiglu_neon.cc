// SwiGLU on Armv8.0 NEON: the vector exp of swiglu_kernels.h, 8 elements per iteration; the
// tail goes through the same code via a zero-padded stack block, so every element of a call
// gets the same arithmetic whatever its position.
#include <arm_neon.h>

#include <cstring>

#include "kernels/swiglu/swiglu_kernels.h"
#include "runtime/bf16_neon.h"

namespace tcpu::swiglu {
namespace {

using ::tcpu::simd::HighToF32;
using ::tcpu::simd::LowToF32;
using ::tcpu::simd::ToBf16;

// 2^k for integer lanes k in [-126, 127], built in the exponent field.
inline float32x4_t Pow2(int32x4_t k) {
  return vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(k, vdupq_n_s32(127)), 23));
}

// silu(g) * u in fp32, lane by lane.
inline float32x4_t SiluTimes(float32x4_t g, float32x4_t u) {
  const float32x4_t x = vnegq_f32(vminq_f32(vabsq_f32(g), vdupq_n_f32(kMaxArg)));
  const int32x4_t n = vcvtnq_s32_f32(vmulq_n_f32(x, kLog2e));  // Nearest, ties to even.
  const float32x4_t nf = vcvtq_f32_s32(n);
  float32x4_t r = vfmaq_n_f32(x, nf, -kLn2Hi);
  r = vfmaq_n_f32(r, nf, -kLn2Lo);
  float32x4_t p = vfmaq_n_f32(vdupq_n_f32(kExpC4), r, kExpC5);
  p = vfmaq_f32(vdupq_n_f32(kExpC3), p, r);
  p = vfmaq_f32(vdupq_n_f32(kExpC2), p, r);
  p = vfmaq_f32(vdupq_n_f32(kExpC1), p, r);
  p = vfmaq_f32(vdupq_n_f32(kExpC0), p, r);

  const int32x4_t n1 = vmaxq_s32(n, vdupq_n_s32(kMinNormalExp));
  const float32x4_t scale1 = Pow2(n1);
  const float32x4_t denom = vfmaq_f32(vdupq_n_f32(1.0f), p, scale1);  // 1 + e^-|g|
  float32x4_t recip = vrecpeq_f32(denom);
  recip = vmulq_f32(recip, vrecpsq_f32(denom, recip));
  recip = vmulq_f32(recip, vrecpsq_f32(denom, recip));

  const uint32x4_t negative = vcltq_f32(g, vdupq_n_f32(0.0f));  // False for NaN: g is kept.
  const float32x4_t num = vbslq_f32(negative, vmulq_f32(vmulq_f32(x, p), scale1), g);
  const float32x4_t y = vmulq_f32(vmulq_f32(num, recip), u);
  // The rest of 2^n (g < -87 only), in two normal halves: rest in [-148, 0].
  const int32x4_t rest = vandq_s32(vsubq_s32(n, n1), vreinterpretq_s32_u32(negative));
  const int32x4_t half = vshrq_n_s32(rest, 1);
  return vmulq_f32(vmulq_f32(y, Pow2(half)), Pow2(vsubq_s32(rest, half)));
}

inline void Block8(const uint16_t* gate, const uint16_t* up, uint16_t* out) {
  const uint16x8_t hg = vld1q_u16(gate);
  const uint16x8_t hu = vld1q_u16(up);
  const float32x4_t lo = SiluTimes(LowToF32(hg), LowToF32(hu));
  const float32x4_t hi = SiluTimes(HighToF32(hg), HighToF32(hu));
  vst1q_u16(out, vcombine_u16(ToBf16(lo), ToBf16(hi)));
}

}  // namespace

void SwigluNeon(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) Block8(gate + i, up + i, out + i);
  if (i < n) {
    const size_t bytes = static_cast<size_t>(n - i) * sizeof(uint16_t);
    uint16_t g[8] = {}, u[8] = {}, o[8];
    std::memcpy(g, gate + i, bytes);
    std::memcpy(u, up + i, bytes);
    Block8(g, u, o);
    std::memcpy(out + i, o, bytes);
  }
}

}  // namespace tcpu::swiglu
