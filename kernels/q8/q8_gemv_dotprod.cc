// Block-Q8 GEMV with SDOT by element (-march=armv8.2-a+dotprod). A tile's groups are one
// stream (q8_packed.h): per group, 8 units of 64 bytes and 16 fp16 scales, eight
// post-incremented 64-byte loads and one of 32 bytes. A unit's 4 row quads are [4 rows x 4 k]
// tiles, each one SDOT by element against the unit's quad of x, so every lane accumulates one
// row and the group's fp32 step needs no reduction. Per tile and group: 32 SDOTs, 4 zeroed
// accumulators, 4 SCVTF, 4 FCVTL widening the scales, 4 FMLA and 9 loads (57); 4 tiles per
// iteration share one 32-byte load of x and the loop's compare and branch.
#include <arm_neon.h>

#include "kernels/q8/q8_kernels.h"

namespace tcpu::q8 {
namespace {

// The next 64 bytes of the stream. The empty asm makes the advance opaque, so clang keeps one
// pointer and folds each advance into its load (post-increment) instead of computing offsets.
__attribute__((always_inline)) inline int8x16x4_t Next(const uint8_t*& w) {
  const int8x16x4_t v = vld1q_s8_x4(reinterpret_cast<const int8_t*>(w));
  w += kUnitBytes;
  __asm__("" : "+r"(w));
  return v;
}

// The next 32 bytes: a group's 16 fp16 scales, row quad q's 4 in register q (one LD1 of four
// 64-bit registers), so each widens with one FCVTL (exact).
__attribute__((always_inline)) inline uint16x4x4_t NextScales(const uint8_t*& w) {
  const uint16x4x4_t v = vld1_u16_x4(reinterpret_cast<const uint16_t*>(w));
  w += kScaleBytes;
  __asm__("" : "+r"(w));
  return v;
}

// Unit u's 4 row quads against x quad `lane` of xv.
template <int lane>
__attribute__((always_inline)) inline void Unit(int8x16x4_t w, int8x16_t xv, int32x4_t (&acc)[4]) {
#pragma clang loop unroll(full)
  for (int q = 0; q < 4; ++q) acc[q] = vdotq_laneq_s32(acc[q], w.val[q], xv, lane);
}

// One group: x quads in xa (k 0..15) and xb (k 16..31).
__attribute__((always_inline)) inline void Group(const uint8_t*& w, int8x16_t xa, int8x16_t xb,
                                                 float32x4_t (&f)[4]) {
  int32x4_t acc[4];
#pragma clang loop unroll(full)
  for (int q = 0; q < 4; ++q) acc[q] = vdupq_n_s32(0);
  Unit<0>(Next(w), xa, acc);
  Unit<1>(Next(w), xa, acc);
  Unit<2>(Next(w), xa, acc);
  Unit<3>(Next(w), xa, acc);
  Unit<0>(Next(w), xb, acc);
  Unit<1>(Next(w), xb, acc);
  Unit<2>(Next(w), xb, acc);
  Unit<3>(Next(w), xb, acc);
  const uint16x4x4_t s = NextScales(w);
#pragma clang loop unroll(full)
  for (int q = 0; q < 4; ++q) {
    const float32x4_t scale = vcvt_f32_f16(vreinterpret_f16_u16(s.val[q]));
    f[q] = vfmaq_f32(f[q], vcvtq_f32_s32(acc[q]), scale);
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

// Tiles t .. t + kTiles - 1 (kTiles = 4 or 1), one group per iteration: each load of x and the
// loop's compare and branch are shared by kTiles tile groups.
template <int kTiles>
void RunTiles(const Q8GemvArgs& a, int64_t t) {
  const uint8_t* w[kTiles];
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) w[i] = a.w.Tile(t + i);
  float32x4_t f[kTiles][4];
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) {
#pragma clang loop unroll(full)
    for (int q = 0; q < 4; ++q) f[i][q] = vdupq_n_f32(0.0f);
  }
  // Ends on the x pointer, which advances anyway: the loop costs one compare and one branch.
  const int8_t* x = a.x;
  for (const int8_t* x_end = x + a.w.layout.groups * kGroup; x != x_end; x += kGroup) {
    if constexpr (kTiles == 4) TCPU_Q8_MCA_LOOP("q8_gemv_dotprod");
    const int8x16x2_t xv = vld1q_s8_x2(x);
#pragma clang loop unroll(full)
    for (int i = 0; i < kTiles; ++i) Group(w[i], xv.val[0], xv.val[1], f[i]);
  }
#pragma clang loop unroll(full)
  for (int i = 0; i < kTiles; ++i) StoreTile(a.y, a.w.layout.n, a.x_scale, t + i, f[i]);
}

}  // namespace

void GemvTilesDotprod(const Q8GemvArgs& a, int64_t begin, int64_t end) {
  int64_t t = begin;
  for (; t + 4 <= end; t += 4) RunTiles<4>(a, t);
  for (; t < end; ++t) RunTiles<1>(a, t);
}

}  // namespace tcpu::q8
