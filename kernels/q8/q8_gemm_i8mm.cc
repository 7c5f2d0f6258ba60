// Block-Q8 GEMM with SMMLA (-march=armv8.6-a+i8mm): per row quad and group, the 16 bytes of
// units 2c and 2c + 1 (k 8c .. 8c + 7) ZIP1/ZIP2 of 32-bit lanes into the [2 rows x 8 k]
// operands SMMLA takes (rows 0-1 and rows 2-3). Built once, they serve up to 8 pairs of x rows
// (16 fp32 accumulators, 8 weight operands and one x load fill the 32 registers); each pair
// accumulates [x0.w0, x0.w1, x1.w0, x1.w1] in int32 per group, then SCVTF and FMLA with the
// row scales (fp16, widened by FCVTL) as every variant does.
#include <arm_neon.h>

#include "kernels/q8/q8_kernels.h"

namespace tcpu::q8 {
namespace {

// Row quad `quad` of tile t (rows 16t + 4quad ..) for x row pairs pair0 .. pair0 + kPairs - 1.
template <int kPairs>
void RunQuad(const Q8GemmArgs& a, int64_t t, int64_t quad, int64_t pair0) {
  const int64_t groups = a.w.layout.groups;
  const uint8_t* w = a.w.Tile(t) + 16 * quad;
  float32x4_t f01[kPairs], f23[kPairs];
#pragma clang loop unroll(full)
  for (int p = 0; p < kPairs; ++p) f01[p] = f23[p] = vdupq_n_f32(0.0f);
  const int8_t* x = a.x_pairs + pair0 * groups * 4 * 16;
  for (int64_t g = 0; g < groups; ++g, w += kTileGroupBytes, x += 64) {
    if constexpr (kPairs == 8) TCPU_Q8_MCA_LOOP("q8_gemm_i8mm");
    int8x16_t b01[4], b23[4];
#pragma clang loop unroll(full)
    for (int c = 0; c < 4; ++c) {
      const int32x4_t even = vreinterpretq_s32_u8(vld1q_u8(w + 2 * c * kUnitBytes));
      const int32x4_t odd = vreinterpretq_s32_u8(vld1q_u8(w + (2 * c + 1) * kUnitBytes));
      b01[c] = vreinterpretq_s8_s32(vzip1q_s32(even, odd));
      b23[c] = vreinterpretq_s8_s32(vzip2q_s32(even, odd));
    }
    // The quad's 4 fp16 scales (8 bytes at 8 * quad in the group's scales; w is 16 * quad in).
    const float64x2_t s = vreinterpretq_f64_f32(
        vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(w - 16 * quad + kUnits * kUnitBytes + 8 * quad))));
    const float32x4_t s01 = vreinterpretq_f32_f64(vdupq_laneq_f64(s, 0));  // [s0 s1 s0 s1]
    const float32x4_t s23 = vreinterpretq_f32_f64(vdupq_laneq_f64(s, 1));  // [s2 s3 s2 s3]
#pragma clang loop unroll(full)
    for (int p = 0; p < kPairs; ++p) {
      const int8x16x4_t xv = vld1q_s8_x4(x + p * groups * 64);
      int32x4_t a01 = vdupq_n_s32(0), a23 = vdupq_n_s32(0);
#pragma clang loop unroll(full)
      for (int c = 0; c < 4; ++c) {
        a01 = vmmlaq_s32(a01, xv.val[c], b01[c]);
        a23 = vmmlaq_s32(a23, xv.val[c], b23[c]);
      }
      f01[p] = vfmaq_f32(f01[p], vcvtq_f32_s32(a01), s01);
      f23[p] = vfmaq_f32(f23[p], vcvtq_f32_s32(a23), s23);
    }
  }
  const int64_t n = a.w.layout.n;
  const int64_t col = t * kTileRows + 4 * quad;
#pragma clang loop unroll(full)
  for (int p = 0; p < kPairs; ++p) {
    const float64x2_t r01 = vreinterpretq_f64_f32(f01[p]), r23 = vreinterpretq_f64_f32(f23[p]);
    for (int64_t half = 0; half < 2; ++half) {
      const int64_t row = 2 * (pair0 + p) + half;
      if (row >= a.m) break;
      const float32x4_t f =
          vreinterpretq_f32_f64(half == 0 ? vzip1q_f64(r01, r23) : vzip2q_f64(r01, r23));
      const float32x4_t y = vmulq_n_f32(f, a.x_scales[row]);
      if (col + 4 <= n) {
        vst1q_f32(a.y + row * n + col, y);
      } else {
        float v[4];
        vst1q_f32(v, y);
        StoreRows(a.y + row * n, col, n, v);
      }
    }
  }
}

}  // namespace

void GemmTilesI8mm(const Q8GemmArgs& a, int64_t begin, int64_t end) {
  const int64_t pairs = (a.m + 1) / 2;
  for (int64_t t = begin; t < end; ++t) {
    for (int64_t quad = 0; quad < 4 && t * kTileRows + 4 * quad < a.w.layout.n; ++quad) {
      int64_t p = 0;
      for (; p + 8 <= pairs; p += 8) RunQuad<8>(a, t, quad, p);
      for (; p + 4 <= pairs; p += 4) RunQuad<4>(a, t, quad, p);
      switch (pairs - p) {
        case 3:
          RunQuad<3>(a, t, quad, p);
          break;
        case 2:
          RunQuad<2>(a, t, quad, p);
          break;
        case 1:
          RunQuad<1>(a, t, quad, p);
          break;
        default:
          break;
      }
    }
  }
}

}  // namespace tcpu::q8
