// W8A8 activation quantization with NEON (armv8-a, so every aarch64 kernel can use it).
// Bit-identical to AbsmaxBf16Ref / QuantizeBf16Ref: the same IEEE operations in the same
// order, lane by lane (FCVTNS rounds like rint in the default rounding mode, then clamps).
#include <arm_neon.h>

#include "kernels/gemv/gemv_kernels.h"

namespace tcpu::gemv {

float AbsmaxBf16Neon(const uint16_t* x, int64_t k) {
  // Non-negative floats order like their bit patterns, so |x| is compared as integers; NaN
  // patterns (above 0x7f80 once the sign is cleared) count as 0, as fmax ignores them.
  const uint16x8_t abs_mask = vdupq_n_u16(0x7fff);
  const uint16x8_t inf = vdupq_n_u16(0x7f80);
  uint16x8_t max0 = vdupq_n_u16(0), max1 = vdupq_n_u16(0);
  int64_t j = 0;
  for (; j + 16 <= k; j += 16) {
    uint16x8_t a0 = vandq_u16(vld1q_u16(x + j), abs_mask);
    uint16x8_t a1 = vandq_u16(vld1q_u16(x + j + 8), abs_mask);
    a0 = vbicq_u16(a0, vcgtq_u16(a0, inf));
    a1 = vbicq_u16(a1, vcgtq_u16(a1, inf));
    max0 = vmaxq_u16(max0, a0);
    max1 = vmaxq_u16(max1, a1);
  }
  uint16_t bits = vmaxvq_u16(vmaxq_u16(max0, max1));
  for (; j < k; ++j) {
    const uint16_t a = x[j] & 0x7fff;
    if (a <= 0x7f80 && a > bits) bits = a;
  }
  return tcpu_bf16_to_f32(bits);
}

void QuantizeBf16Neon(const uint16_t* x, int64_t k, float inv, int8_t* q) {
  const float32x4_t scale = vdupq_n_f32(inv);
  const int32x4_t lo = vdupq_n_s32(-127);
  const int32x4_t hi = vdupq_n_s32(127);
  int64_t j = 0;
  for (; j + 8 <= k; j += 8) {
    const uint16x8_t h = vld1q_u16(x + j);
    const float32x4_t f0 = vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16));
    const float32x4_t f1 = vreinterpretq_f32_u32(vshll_high_n_u16(h, 16));
    // FCVTNS rounds ties to even, saturates and maps NaN to 0; then clamp to +-127.
    const int32x4_t i0 = vminq_s32(vmaxq_s32(vcvtnq_s32_f32(vmulq_f32(f0, scale)), lo), hi);
    const int32x4_t i1 = vminq_s32(vmaxq_s32(vcvtnq_s32_f32(vmulq_f32(f1, scale)), lo), hi);
    vst1_s8(q + j, vmovn_s16(vcombine_s16(vmovn_s32(i0), vmovn_s32(i1))));
  }
  QuantizeBf16Ref(x + j, k - j, inv, q + j);
}

}  // namespace tcpu::gemv
