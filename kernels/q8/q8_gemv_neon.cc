// Block-Q8 GEMV for Armv8.0 NEON (-march=armv8-a; no SDOT). Per row quad, units u and u + 4
// (k 4u.. and 16 + 4u..) are multiplied by their x quads (broadcast with DUP by element) and
// summed in int16 (SMULL + SMLAL: |q| <= 127 and |x| <= 128, so two products stay within
// 32,512), then SADALP widens pairs into int32 and ADDP finishes each row; FCVTL widens the
// fp16 scales. The fallback of a53 and a64fx.
#include <arm_neon.h>

#include "kernels/q8/q8_kernels.h"

namespace tcpu::q8 {
namespace {

template <int u>
inline int8x16_t Quad(int8x16_t x) {
  return vreinterpretq_s8_s32(vdupq_laneq_s32(vreinterpretq_s32_s8(x), u));
}

// Row quad `quad` of units u and u + 4: adds its 4 rows' products to acc01 (rows 0, 1) and
// acc23.
template <int u>
inline void UnitPair(const uint8_t* group, int quad, int8x16_t xa, int8x16_t xb, int32x4_t& acc01,
                     int32x4_t& acc23) {
  const int8x16_t lo =
      vld1q_s8(reinterpret_cast<const int8_t*>(group + u * kUnitBytes) + 16 * quad);
  const int8x16_t hi =
      vld1q_s8(reinterpret_cast<const int8_t*>(group + (u + 4) * kUnitBytes) + 16 * quad);
  const int8x16_t xl = Quad<u>(xa), xh = Quad<u>(xb);
  int16x8_t p01 = vmull_s8(vget_low_s8(lo), vget_low_s8(xl));
  p01 = vmlal_s8(p01, vget_low_s8(hi), vget_low_s8(xh));
  int16x8_t p23 = vmull_high_s8(lo, xl);
  p23 = vmlal_high_s8(p23, hi, xh);
  acc01 = vpadalq_s16(acc01, p01);  // [r0 e01, r0 e23, r1 e01, r1 e23]
  acc23 = vpadalq_s16(acc23, p23);
}

}  // namespace

void GemvTilesNeon(const Q8GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t groups = a.w.layout.groups;
  for (int64_t t = begin; t < end; ++t) {
    for (int quad = 0; quad < 4; ++quad) {
      const uint8_t* group = a.w.Tile(t);
      const int8_t* x = a.x;
      float32x4_t f = vdupq_n_f32(0.0f);
      for (int64_t g = 0; g < groups; ++g, group += kTileGroupBytes, x += kGroup) {
        TCPU_Q8_MCA_LOOP("q8_gemv_neon");
        const int8x16_t xa = vld1q_s8(x), xb = vld1q_s8(x + 16);
        int32x4_t acc01 = vdupq_n_s32(0), acc23 = vdupq_n_s32(0);
        UnitPair<0>(group, quad, xa, xb, acc01, acc23);
        UnitPair<1>(group, quad, xa, xb, acc01, acc23);
        UnitPair<2>(group, quad, xa, xb, acc01, acc23);
        UnitPair<3>(group, quad, xa, xb, acc01, acc23);
        const int32x4_t acc = vpaddq_s32(acc01, acc23);  // [r0, r1, r2, r3]
        const float32x4_t s = vcvt_f32_f16(              // FCVTL: the quad's 4 fp16 scales, exactly
            vreinterpret_f16_u16(vld1_u16(
                reinterpret_cast<const uint16_t*>(group + kUnits * kUnitBytes) + 4 * quad)));
        f = vfmaq_f32(f, vcvtq_f32_s32(acc), s);
      }
      float y[4];
      vst1q_f32(y, vmulq_n_f32(f, a.x_scale));
      StoreRows(a.y, t * kTileRows + 4 * quad, a.w.layout.n, y);
    }
  }
}

}  // namespace tcpu::q8
