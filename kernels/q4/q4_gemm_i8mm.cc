// W4A8 GEMM with SMMLA (-march=armv8.6-a+i8mm): per row quad and group (rows 0-3 and 4-7 the
// high nibbles of pair quads 0 and 1, rows 8-11 and 12-15 their low nibbles, q4_packed.h), the
// 8 slots of its pair quad unpack to [4 rows x 4 k] tiles of 16 * q (high: AND 0xf0; low, q + 8:
// shift left by 4 and flip the sign bit), and ZIP1/ZIP2 of 32-bit lanes turn pairs of them into
// the [2 rows x 8 k] operands SMMLA takes (rows 0-1 and rows 2-3, 4 chunks of 8 k). Unpacked
// once, they serve up to 8 pairs of x rows (the most whose 16 fp32 accumulators, 8 weight
// operands and one x load fit the 32 registers); each pair accumulates [x0.w0, x0.w1, x1.w0,
// x1.w1] in int32 per group, then SCVTF (#4: exact) and FMLA with the row scales (fp16,
// widened by FCVTL) as every variant does. The per-group step (a zeroed accumulator, SCVTF
// and FMLA per 4 SMMLA) bounds this arithmetic at ~0.055 instructions per MAC.
#include <arm_neon.h>

#include "kernels/q4/q4_kernels.h"

namespace tcpu::q4 {
namespace {

// Row quad `quad` of tile t (rows 16t + 4quad ..) for x row pairs pair0 .. pair0 + kPairs - 1;
// kLowNibbles: quads 2 and 3.
template <int kPairs, bool kLowNibbles>
void RunQuad(const GemmArgs& a, int64_t t, int64_t quad, int64_t pair0) {
  const int64_t groups = a.w.layout.groups;
  const int64_t pair_quad = quad % 2;
  // At slot pair_quad of unit 0 of each group; post-incremented by its 4 unit loads, then past
  // the scales (which sit at 8 * quad - 16 * pair_quad from there).
  const uint8_t* w = a.w.Tile(t) + pair_quad * kSlotBytes;
  const int64_t scales_offset = 8 * quad - pair_quad * kSlotBytes;
  const uint8x16_t high = vdupq_n_u8(0xf0), sign = vdupq_n_u8(0x80);
  float32x4_t f01[kPairs], f23[kPairs];
#pragma clang loop unroll(full)
  for (int p = 0; p < kPairs; ++p) f01[p] = f23[p] = vdupq_n_f32(0.0f);
  // One pointer per x pair, each post-incremented by its loads (no address arithmetic).
  const int8_t* x[kPairs];
#pragma clang loop unroll(full)
  for (int p = 0; p < kPairs; ++p) x[p] = a.x_pairs + (pair0 + p) * groups * 4 * 16;
  for (int64_t g = 0; g < groups; ++g, w += kScaleBytes) {
    if constexpr (kPairs == 8 && !kLowNibbles) TCPU_Q4_MCA_LOOP("q4_gemm_i8mm");
    int32x4_t lo[4], hi[4];  // k quads u and 4 + u: slots pair_quad and 2 + pair_quad of unit u
#pragma clang loop unroll(full)
    for (int u = 0; u < 4; ++u) {
      // Slots pair_quad .. pair_quad + 3 in one LD1 post-incremented by 64 (only the first and
      // third used; the last 16 bytes of pair quad 1's are the next unit's or the scales).
      const uint8x16x4_t slots = vld1q_u8_x4(w);
      w += kUnitBytes;
      __asm__("" : "+r"(w));
      const uint8x16_t raw_lo = slots.val[0], raw_hi = slots.val[2];
      if constexpr (kLowNibbles) {
        lo[u] = vreinterpretq_s32_u8(veorq_u8(vshlq_n_u8(raw_lo, 4), sign));
        hi[u] = vreinterpretq_s32_u8(veorq_u8(vshlq_n_u8(raw_hi, 4), sign));
      } else {
        lo[u] = vreinterpretq_s32_u8(vandq_u8(raw_lo, high));
        hi[u] = vreinterpretq_s32_u8(vandq_u8(raw_hi, high));
      }
    }
    // Chunk c covers k 8c .. 8c + 7 of the group: quads (0,1), (2,3) low, (4,5), (6,7) high.
    const int8x16_t b01[4] = {vreinterpretq_s8_s32(vzip1q_s32(lo[0], lo[1])),
                              vreinterpretq_s8_s32(vzip1q_s32(lo[2], lo[3])),
                              vreinterpretq_s8_s32(vzip1q_s32(hi[0], hi[1])),
                              vreinterpretq_s8_s32(vzip1q_s32(hi[2], hi[3]))};
    const int8x16_t b23[4] = {vreinterpretq_s8_s32(vzip2q_s32(lo[0], lo[1])),
                              vreinterpretq_s8_s32(vzip2q_s32(lo[2], lo[3])),
                              vreinterpretq_s8_s32(vzip2q_s32(hi[0], hi[1])),
                              vreinterpretq_s8_s32(vzip2q_s32(hi[2], hi[3]))};
    // The quad's 4 fp16 scales (8 bytes at 8 * quad in the group's scales).
    const float64x2_t s =
        vreinterpretq_f64_f32(vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(w + scales_offset))));
    const float32x4_t s01 = vreinterpretq_f32_f64(vdupq_laneq_f64(s, 0));  // [s0 s1 s0 s1]
    const float32x4_t s23 = vreinterpretq_f32_f64(vdupq_laneq_f64(s, 1));  // [s2 s3 s2 s3]
#pragma clang loop unroll(full)
    for (int p = 0; p < kPairs; ++p) {
      const int8x16x4_t xv = vld1q_s8_x4(x[p]);
      x[p] += 64;
      __asm__("" : "+r"(x[p]));
      // Zeroed by MOVI: one LD2R of zeros saves an instruction per pair but makes the loop
      // load-bound (llvm-mca Neoverse V2: 33.5 instead of 29.5 cycles per 2048 MACs).
      int32x4_t a01 = vdupq_n_s32(0), a23 = vdupq_n_s32(0);
#pragma clang loop unroll(full)
      for (int c = 0; c < 4; ++c) {
        a01 = vmmlaq_s32(a01, xv.val[c], b01[c]);
        a23 = vmmlaq_s32(a23, xv.val[c], b23[c]);
      }
      f01[p] = vfmaq_f32(f01[p], vcvtq_n_f32_s32(a01, 4), s01);
      f23[p] = vfmaq_f32(f23[p], vcvtq_n_f32_s32(a23, 4), s23);
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

// Row quad `quad` of tile t for all x row pairs, 8 at a time while there are 8.
template <bool kLowNibbles>
void RunQuadPairs(const GemmArgs& a, int64_t t, int64_t quad) {
  const int64_t pairs = (a.m + 1) / 2;
  int64_t p = 0;
  for (; p + 8 <= pairs; p += 8) RunQuad<8, kLowNibbles>(a, t, quad, p);
  for (; p + 4 <= pairs; p += 4) RunQuad<4, kLowNibbles>(a, t, quad, p);
  switch (pairs - p) {
    case 3:
      RunQuad<3, kLowNibbles>(a, t, quad, p);
      break;
    case 2:
      RunQuad<2, kLowNibbles>(a, t, quad, p);
      break;
    case 1:
      RunQuad<1, kLowNibbles>(a, t, quad, p);
      break;
    default:
      break;
  }
}

}  // namespace

void GemmTilesI8mm(const GemmArgs& a, int64_t begin, int64_t end) {
  for (int64_t t = begin; t < end; ++t) {
    for (int64_t quad = 0; quad < 4 && t * kTileRows + 4 * quad < a.w.layout.n; ++quad) {
      if (quad < 2) {
        RunQuadPairs<false>(a, t, quad);
      } else {
        RunQuadPairs<true>(a, t, quad);
      }
    }
  }
}

}  // namespace tcpu::q4
