// Per-row weight quantization on Armv8.0 NEON, bit-identical to QuantizeOne: FDIV is the IEEE
// division, FCVTNS rounds half to even straight to int32, and SQXTN saturation followed by
// a max with -127 is the clamp (|w / scale| <= 127 * (1 + 2^-23) anyway).
#include <arm_neon.h>

#include "kernels/quantize/quantize_kernels.h"

namespace tcpu::quantize {
namespace {

uint16_t AbsmaxBitsNeon(const uint16_t* w, int64_t k) {
  const uint16x8_t abs_mask = vdupq_n_u16(0x7fff);
  uint16x8_t m0 = vdupq_n_u16(0), m1 = m0, m2 = m0, m3 = m0;
  int64_t j = 0;
  for (; j + 32 <= k; j += 32) {
    m0 = vmaxq_u16(m0, vandq_u16(vld1q_u16(w + j), abs_mask));
    m1 = vmaxq_u16(m1, vandq_u16(vld1q_u16(w + j + 8), abs_mask));
    m2 = vmaxq_u16(m2, vandq_u16(vld1q_u16(w + j + 16), abs_mask));
    m3 = vmaxq_u16(m3, vandq_u16(vld1q_u16(w + j + 24), abs_mask));
  }
  for (; j + 8 <= k; j += 8) m0 = vmaxq_u16(m0, vandq_u16(vld1q_u16(w + j), abs_mask));
  uint16_t max_bits = vmaxvq_u16(vmaxq_u16(vmaxq_u16(m0, m1), vmaxq_u16(m2, m3)));
  for (; j < k; ++j) {
    const uint16_t bits = w[j] & 0x7fff;
    if (bits > max_bits) max_bits = bits;
  }
  return max_bits;
}

// 4 quantized values as int32 (round half to even).
inline int32x4_t Quantize4(float32x4_t w, float32x4_t scale) {
  return vcvtnq_s32_f32(vdivq_f32(w, scale));
}

void QuantizeRowNeon(const uint16_t* w, int64_t k, float scale, int8_t* q) {
  const float32x4_t vscale = vdupq_n_f32(scale);
  const int8x16_t lowest = vdupq_n_s8(-127);
  int64_t j = 0;
  for (; j + 16 <= k; j += 16) {
    const uint16x8_t h0 = vld1q_u16(w + j);
    const uint16x8_t h1 = vld1q_u16(w + j + 8);
    const int32x4_t a = Quantize4(vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h0), 16)), vscale);
    const int32x4_t b = Quantize4(vreinterpretq_f32_u32(vshll_high_n_u16(h0, 16)), vscale);
    const int32x4_t c = Quantize4(vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h1), 16)), vscale);
    const int32x4_t d = Quantize4(vreinterpretq_f32_u32(vshll_high_n_u16(h1, 16)), vscale);
    const int16x8_t ab = vqmovn_high_s32(vqmovn_s32(a), b);
    const int16x8_t cd = vqmovn_high_s32(vqmovn_s32(c), d);
    vst1q_s8(q + j, vmaxq_s8(vqmovn_high_s16(vqmovn_s16(ab), cd), lowest));
  }
  for (; j < k; ++j) q[j] = QuantizeOne(w[j], scale);
}

}  // namespace

const QuantizeKernel kQuantizeNeon = {AbsmaxBitsNeon, QuantizeRowNeon};

}  // namespace tcpu::quantize
