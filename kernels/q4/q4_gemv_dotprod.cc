// W4A8 GEMV with SDOT by element (-march=armv8.2-a+dotprod). A tile's groups are one stream
// (q4_packed.h): per group, 4 units of 64 bytes and 16 fp16 scales, four post-incremented
// 64-byte loads and one of 32 bytes. A unit's 4 slots are [4 row pairs x 4 k] tiles; each is
// two SDOTs by element against one x quad, the raw bytes (16 * qa + qb + 8) into `raw` and the
// low nibbles (AND 0x0f: qb + 8) into `low`, both started at the group's -8 * sum(x): `low`
// ends at row b's exact sum and raw - low at 16 times row a's, so each lane is one row and the
// fp32 step needs no reduction. Per tile and group: 16 unpacks, 32 SDOTs, one LD4R setting the
// 4 accumulators from a bias table made once per call (4 copies per group), 2 SUB, 4 SCVTF (#4
// for 16 * acc: exact), 4 FCVTL widening the scales, 4 FMLA and 5 loads (68); 4 tiles share
// each group's x, 2 groups per iteration the loop's compare and branch.
#include <arm_neon.h>

#include "kernels/q4/q4_kernels.h"

namespace tcpu::q4 {
namespace {

// The next 64 bytes of the stream. The empty asm makes the advance opaque, so clang keeps one
// pointer and folds each advance into its load (post-increment) instead of computing offsets.
__attribute__((always_inline)) inline uint8x16x4_t Next(const uint8_t*& w) {
  const uint8x16x4_t v = vld1q_u8_x4(w);
  w += 64;
  __asm__("" : "+r"(w));
  return v;
}

// The next 32 bytes: a group's 16 fp16 scales, rows 4v .. 4v + 3 in the low half of register v
// (one LD1 of four 64-bit registers), so each widens with one FCVTL (exact).
__attribute__((always_inline)) inline uint16x4x4_t NextScales(const uint8_t*& w) {
  const uint16x4x4_t v = vld1_u16_x4(reinterpret_cast<const uint16_t*>(w));
  w += kScaleBytes;
  __asm__("" : "+r"(w));
  return v;
}

// The 4 slots of unit u: slots 0 and 1 (pairs 0-3, 4-7) against quad u of xa (k 0..15), slots
// 2 and 3 against quad u of xb (k 16..31).
template <int u>
__attribute__((always_inline)) inline void Unit(uint8x16x4_t w, int8x16_t xa, int8x16_t xb,
                                                uint8x16_t low_mask, int32x4_t (&raw)[2],
                                                int32x4_t (&low)[2]) {
#pragma clang loop unroll(full)
  for (int s = 0; s < 4; ++s) {
    const int8x16_t x = s < 2 ? xa : xb;
    raw[s % 2] = vdotq_laneq_s32(raw[s % 2], vreinterpretq_s8_u8(w.val[s]), x, u);
    low[s % 2] =
        vdotq_laneq_s32(low[s % 2], vreinterpretq_s8_u8(vandq_u8(w.val[s], low_mask)), x, u);
  }
}

// One group: x quads in xa (k 0..15) and xb (k 16..31); bias: 4 copies of -8 * their sum,
// which one LD4R puts in every lane of the 4 accumulators (no copies).
__attribute__((always_inline)) inline void Group(const uint8_t*& w, int8x16_t xa, int8x16_t xb,
                                                 const int32_t*& bias, uint8x16_t low_mask,
                                                 float32x4_t (&f)[4]) {
  const int32x4x4_t start = vld4q_dup_s32(bias);
  bias += kBiasCopies;  // post-incremented, as Next
  __asm__("" : "+r"(bias));
  int32x4_t raw[2] = {start.val[0], start.val[1]}, low[2] = {start.val[2], start.val[3]};
  Unit<0>(Next(w), xa, xb, low_mask, raw, low);
  Unit<1>(Next(w), xa, xb, low_mask, raw, low);
  Unit<2>(Next(w), xa, xb, low_mask, raw, low);
  Unit<3>(Next(w), xa, xb, low_mask, raw, low);
  const uint16x4x4_t s = NextScales(w);
  // f[0], f[1]: rows 0-7 (the pairs' high nibbles); f[2], f[3]: rows 8-15 (low nibbles).
#pragma clang loop unroll(full)
  for (int h = 0; h < 2; ++h) {
    const float32x4_t scale_a = vcvt_f32_f16(vreinterpret_f16_u16(s.val[h]));
    const float32x4_t scale_b = vcvt_f32_f16(vreinterpret_f16_u16(s.val[2 + h]));
    f[h] = vfmaq_f32(f[h], vcvtq_n_f32_s32(vsubq_s32(raw[h], low[h]), 4), scale_a);
    f[2 + h] = vfmaq_f32(f[2 + h], vcvtq_f32_s32(low[h]), scale_b);
  }
}

// Stores tile t's 16 rows of y (n rows in all), each f * x_scale.
inline void StoreTile(float* y, int64_t n, float x_scale, int64_t t, const float32x4_t (&f)[4]) {
  const int64_t row0 = t * kTileRows;
  if (row0 + kTileRows <= n) {
#pragma clang loop unroll(full)
    for (int q = 0; q < 4; ++q) vst1q_f32(y + row0 + 4 * q, vmulq_n_f32(f[q], x_scale));
  } else {
    for (int q = 0; q < 4; ++q) {
      float rows[4];
      vst1q_f32(rows, vmulq_n_f32(f[q], x_scale));
      StoreRows(y, row0 + 4 * q, n, rows);
    }
  }
}

// Tiles t .. t + kTiles - 1 (kTiles = 4 or 1), two groups per iteration: each 64-byte load of x
// and the loop's compare and branch are shared by 8 tile groups.
template <int kTiles>
void RunTiles(const W4GemvArgs& a, const int32_t* bias, int64_t t) {
  const int64_t groups = a.w.layout.groups, n = a.w.layout.n;
  float* const y = a.y;
  const float x_scale = a.x_scale;
  const uint8_t* w[kTiles];
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) w[i] = a.w.Tile(t + i);
  const int8_t* x = a.x;
  const uint8x16_t low_mask = vdupq_n_u8(0x0f);
  float32x4_t f[kTiles][4];
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) {
#pragma clang loop unroll(full)
    for (int q = 0; q < 4; ++q) f[i][q] = vdupq_n_f32(0.0f);
  }
  // Ends on the x pointer, which advances anyway: the loop costs one compare and one branch.
  // Every tile steps through the bias table with its own pointer, made opaque once here: one
  // post-incremented LD4R per tile and group (with one pointer, clang loads once and copies).
  const int32_t* b[kTiles];
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) {
    b[i] = bias;
    __asm__ volatile("" : "+r"(b[i]));
  }
  // x is loaded per group (LD1 of 32 bytes): fewer live registers.
  for (const int8_t* x_end = x + groups / 2 * 2 * kGroup; x != x_end;) {
    if constexpr (kTiles == 4) TCPU_Q4_MCA_LOOP("q4_gemv_dotprod");
#pragma clang loop unroll(full)
    for (int h = 0; h < 2; ++h) {
      const int8x16x2_t xv = vld1q_s8_x2(x);
      x += kGroup;
#pragma clang loop unroll(full)
      for (int i = 0; i < kTiles; ++i) Group(w[i], xv.val[0], xv.val[1], b[i], low_mask, f[i]);
    }
  }
  if (groups % 2 != 0) {
    const int8x16x2_t xv = vld1q_s8_x2(x);
#pragma clang loop unroll(full)
    for (int i = 0; i < kTiles; ++i) Group(w[i], xv.val[0], xv.val[1], b[i], low_mask, f[i]);
  }
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) StoreTile(y, n, x_scale, t + i, f[i]);
}

}  // namespace

void GemvTilesDotprod(const W4GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t groups = a.w.layout.groups;
  if (groups > kMaxBiasGroups) return GemvTilesNeon(a, begin, end);
  int32_t bias[kBiasCopies * kMaxBiasGroups];
  GroupBiases(a.x, groups, bias);
  int64_t t = begin;
  for (; t + 4 <= end; t += 4) RunTiles<4>(a, bias, t);
  for (; t < end; ++t) RunTiles<1>(a, bias, t);
}

}  // namespace tcpu::q4
