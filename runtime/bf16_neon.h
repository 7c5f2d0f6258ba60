// bf16 <-> fp32 on NEON vectors (Armv8.0: no BFCVTN), with the rounding of tcpu/bf16.h.
// For kernels built with -march=armv8-a or later.
#ifndef TCPU_RUNTIME_BF16_NEON_H_
#define TCPU_RUNTIME_BF16_NEON_H_

#include <arm_neon.h>

namespace tcpu::simd {

// The low / high four bf16 of `h` as fp32 (exact).
inline float32x4_t LowToF32(uint16x8_t h) {
  return vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16));
}
inline float32x4_t HighToF32(uint16x8_t h) {
  return vreinterpretq_f32_u32(vshll_high_n_u16(h, 16));
}

// fp32 -> bf16 rounding to nearest even, NaN made quiet: lane by lane tcpu_f32_to_bf16.
inline uint16x4_t ToBf16(float32x4_t f) {
  const uint32x4_t bits = vreinterpretq_u32_f32(f);
  const uint32x4_t lsb = vandq_u32(vshrq_n_u32(bits, 16), vdupq_n_u32(1));
  const uint32x4_t rounded = vaddq_u32(bits, vaddq_u32(lsb, vdupq_n_u32(0x7fff)));
  const uint32x4_t quiet_nan = vorrq_u32(bits, vdupq_n_u32(0x00400000));
  return vshrn_n_u32(vbslq_u32(vceqq_f32(f, f), rounded, quiet_nan), 16);
}

}  // namespace tcpu::simd

#endif  // TCPU_RUNTIME_BF16_NEON_H_
