// W4A8 GEMV for Armv8.0 NEON (-march=armv8-a; no SDOT). Per tile, its two pair quads (rows
// 4P .. 4P + 3 in the high nibbles, 8 + 4P .. in the low ones) one after the other: a slot's high
// nibbles sign-extend with one SSHR, its low ones (q + 8) by AND 0x0f and SUB 8, so that two
// products q * x (|.| <= 1024) sum in int16 (SMULL + SMLAL of the slots at k quad u and
// 4 + u), then SADALP widens pairs into int32 and ADDP finishes each row; x quads are broadcast
// with DUP by element; FCVTL widens the fp16 scales. The fallback of a53 and a64fx.
#include <arm_neon.h>

#include "kernels/q4/q4_kernels.h"

namespace tcpu::q4 {
namespace {

template <int u>
inline int8x16_t Quad(int8x16_t x) {
  return vreinterpretq_s8_s32(vdupq_laneq_s32(vreinterpretq_s32_s8(x), u));
}

// Adds the products of 4 rows' q in `lo` (k quad u) and `hi` (k quad 4 + u) with those x quads:
// rows 0, 1 to acc01, rows 2, 3 to acc23, two int32 lanes per row.
inline void Rows(int8x16_t lo, int8x16_t hi, int8x16_t xl, int8x16_t xh, int32x4_t& acc01,
                 int32x4_t& acc23) {
  int16x8_t p01 = vmull_s8(vget_low_s8(lo), vget_low_s8(xl));
  p01 = vmlal_s8(p01, vget_low_s8(hi), vget_low_s8(xh));
  int16x8_t p23 = vmull_high_s8(lo, xl);
  p23 = vmlal_high_s8(p23, hi, xh);
  acc01 = vpadalq_s16(acc01, p01);  // [r0 e01, r0 e23, r1 e01, r1 e23]
  acc23 = vpadalq_s16(acc23, p23);
}

// Unit u of pair quad `quad`: rows a (high nibbles) into a01/a23, rows b into b01/b23.
template <int u>
inline void Unit(const uint8_t* group, int quad, int8x16_t xa, int8x16_t xb, int32x4_t (&a)[2],
                 int32x4_t (&b)[2]) {
  const uint8_t* unit = group + u * kUnitBytes + quad * kSlotBytes;
  const uint8x16_t raw_lo = vld1q_u8(unit), raw_hi = vld1q_u8(unit + 2 * kSlotBytes);
  const uint8x16_t low_mask = vdupq_n_u8(0x0f);
  const int8x16_t eight = vdupq_n_s8(8);
  const int8x16_t xl = Quad<u>(xa), xh = Quad<u>(xb);
  Rows(vshrq_n_s8(vreinterpretq_s8_u8(raw_lo), 4), vshrq_n_s8(vreinterpretq_s8_u8(raw_hi), 4), xl,
       xh, a[0], a[1]);
  Rows(vsubq_s8(vreinterpretq_s8_u8(vandq_u8(raw_lo, low_mask)), eight),
       vsubq_s8(vreinterpretq_s8_u8(vandq_u8(raw_hi, low_mask)), eight), xl, xh, b[0], b[1]);
}

// f += (float)acc * the 4 fp16 scales at `scales` (FCVTL: exact), acc the 4 rows' pair sums.
inline float32x4_t Step(float32x4_t f, const int32x4_t (&acc)[2], const uint8_t* scales) {
  const float32x4_t s =
      vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(reinterpret_cast<const uint16_t*>(scales))));
  return vfmaq_f32(f, vcvtq_f32_s32(vpaddq_s32(acc[0], acc[1])), s);  // [r0, r1, r2, r3]
}

}  // namespace

void GroupBiases(const int8_t* x, int64_t groups, int32_t* bias) {
  for (int64_t g = 0; g < groups; ++g, x += kGroup) {
    const int8x16x2_t v = vld1q_s8_x2(x);
    const int32_t sum = static_cast<int32_t>(vaddlvq_s8(v.val[0])) + vaddlvq_s8(v.val[1]);
    vst1q_s32(bias + kBiasCopies * g, vdupq_n_s32(-8 * sum));
  }
}

void GemvTilesNeon(const W4GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t groups = a.w.layout.groups;
  for (int64_t t = begin; t < end; ++t) {
    for (int quad = 0; quad < 2; ++quad) {
      const uint8_t* group = a.w.Tile(t);
      const int8_t* x = a.x;
      float32x4_t fa = vdupq_n_f32(0.0f), fb = vdupq_n_f32(0.0f);
      for (int64_t g = 0; g < groups; ++g, group += kTileGroupBytes, x += kGroup) {
        TCPU_Q4_MCA_LOOP("q4_gemv_neon");
        const int8x16_t xa = vld1q_s8(x), xb = vld1q_s8(x + 16);
        int32x4_t acc_a[2] = {vdupq_n_s32(0), vdupq_n_s32(0)};
        int32x4_t acc_b[2] = {vdupq_n_s32(0), vdupq_n_s32(0)};
        Unit<0>(group, quad, xa, xb, acc_a, acc_b);
        Unit<1>(group, quad, xa, xb, acc_a, acc_b);
        Unit<2>(group, quad, xa, xb, acc_a, acc_b);
        Unit<3>(group, quad, xa, xb, acc_a, acc_b);
        const uint8_t* scales = group + kUnits * kUnitBytes + 2 * 4 * quad;
        fa = Step(fa, acc_a, scales);
        fb = Step(fb, acc_b, scales + 2 * kPairs);
      }
      float y[4];
      vst1q_f32(y, vmulq_n_f32(fa, a.x_scale));
      StoreRows(a.y, t * kTileRows + 4 * quad, a.w.layout.n, y);
      vst1q_f32(y, vmulq_n_f32(fb, a.x_scale));
      StoreRows(a.y, t * kTileRows + kPairs + 4 * quad, a.w.layout.n, y);
    }
  }
}

}  // namespace tcpu::q4
