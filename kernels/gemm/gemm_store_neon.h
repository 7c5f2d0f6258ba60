// Storing a GEMM tile's int32 sums for the NEON-family variants (neon, dotprod, i8mm): as they
// are, or through the W8A8 epilogue (gemm_kernels.h: Output) while they are still in registers,
// four columns of a row per vector. Rows at or past m and columns past n are never written.
#ifndef TCPU_KERNELS_GEMM_GEMM_STORE_NEON_H_
#define TCPU_KERNELS_GEMM_GEMM_STORE_NEON_H_

#include <arm_neon.h>

#include "kernels/gemm/gemm_kernels.h"

namespace tcpu::gemm {

// The bf16 bits of f, tcpu_f32_to_bf16 lane by lane for every value the epilogue produces:
// round to nearest even, (bits + 0x7fff + lsb) >> 16, and a NaN truncated, bits >> 16. A NaN
// here is always quiet (it comes out of a multiply or an add, which quiet a signaling input),
// and for a quiet NaN tcpu_f32_to_bf16's (bits >> 16) | 0x40 is the truncation: a masked
// addend and one ADDHN, six instructions per four values (runtime/bf16_neon.h's ToBf16, which
// must also handle a signaling NaN, takes eight).
inline uint32x4_t RoundingAddend(float32x4_t f) {
  const uint32x4_t bits = vreinterpretq_u32_f32(f);
  const uint32x4_t lsb = vandq_u32(vshrq_n_u32(bits, 16), vdupq_n_u32(1));
  const uint32x4_t addend = vaddq_u32(lsb, vdupq_n_u32(0x7fff));
  return vandq_u32(addend, vceqq_f32(f, f));  // 0 for a NaN
}
inline uint16x8_t QuietToBf16(float32x4_t lo, float32x4_t hi) {
  const uint16x4_t low = vaddhn_u32(vreinterpretq_u32_f32(lo), RoundingAddend(lo));
  return vaddhn_high_u32(low, vreinterpretq_u32_f32(hi), RoundingAddend(hi));
}
inline uint16x4_t QuietToBf16(float32x4_t f) {
  return vaddhn_u32(vreinterpretq_u32_f32(f), RoundingAddend(f));
}

// The W8A8 epilogue of a whole tile: y row r = (float)v[r] * x_scales[r] * w_scales (two
// roundings, separate multiplies: no FMA), then for bf16 + bias (kBias: a separate add) and
// rounded. Every input is read before the first store (y could alias them as far as the
// compiler knows), and the rows are unrolled: the sums stay in registers.
template <int R, int B, Output kOutput, bool kBias>
[[gnu::always_inline]] inline void StoreTileScaled(const GemmArgs& a, int64_t row0, int64_t col0,
                                                   int64_t rows, const int32x4_t (&v)[R][B]) {
  const int64_t n = a.n;
  float x_scales[R];
  for (int r = 0; r < R; ++r) x_scales[r] = r < rows ? a.x_scales[row0 + r] : 0.0f;
  float32x4_t w_scales[B], bias[B];
  for (int b = 0; b < B; ++b) {
    w_scales[b] = vld1q_f32(a.w_scales + col0 + 4 * b);
    if constexpr (kBias) bias[b] = vld1q_f32(a.bias + col0 + 4 * b);
  }
  float* y_f32 = a.y_f32 + row0 * n + col0;
  uint16_t* y_bf16 = a.y_bf16 + row0 * n + col0;
#pragma clang loop unroll(full)
  for (int r = 0; r < R; ++r) {
    if (r == rows) break;
    float32x4_t f[B];
    for (int b = 0; b < B; ++b) {
      f[b] = vmulq_f32(vmulq_n_f32(vcvtq_f32_s32(v[r][b]), x_scales[r]), w_scales[b]);
      if constexpr (kBias) f[b] = vaddq_f32(f[b], bias[b]);
    }
    if constexpr (kOutput == Output::kF32) {
      for (int b = 0; b < B; ++b) vst1q_f32(y_f32 + r * n + 4 * b, f[b]);
    } else if constexpr (B == 2) {
      vst1q_u16(y_bf16 + r * n, QuietToBf16(f[0], f[1]));
    } else {
      vst1_u16(y_bf16 + r * n, QuietToBf16(f[0]));
    }
  }
}

// A tile that reaches past n, element by element: lanes[r][b] holds row row0 + r, columns
// col0 + 4 * b .. + 3 (out of line: it is at most one tile column of a call, and keeping it out
// of the kernels keeps their sums in registers).
template <int R, int B>
[[gnu::noinline]] void StoreTileClipped(const GemmArgs& a, int64_t row0, int64_t col0,
                                        const int32_t (*lanes)[B][4]) {
  for (int r = 0; r < R; ++r) {
    for (int b = 0; b < B; ++b) StoreRowClipped(a, row0 + r, col0 + 4 * b, lanes[r][b]);
  }
}

// StoreTileScaled for a whole tile (rows == R: the row checks fold away) or its first rows.
template <int R, int B, Output kOutput, bool kBias>
[[gnu::always_inline]] inline void StoreTileScaledRows(const GemmArgs& a, int64_t row0,
                                                       int64_t col0, int64_t rows,
                                                       const int32x4_t (&v)[R][B]) {
  if (rows == R) {
    StoreTileScaled<R, B, kOutput, kBias>(a, row0, col0, R, v);
  } else {
    StoreTileScaled<R, B, kOutput, kBias>(a, row0, col0, rows, v);
  }
}

// Stores the sums of rows [row0, row0 + R) x columns [4 * block0, 4 * (block0 + B)), clipped
// to y: v[r][b] holds row row0 + r, columns 4 * (block0 + b) .. + 3. Lane by lane
// StoreElement's arithmetic.
template <int R, int B>
[[gnu::always_inline]] inline void StoreTile(const GemmArgs& a, int64_t row0, int64_t block0,
                                             const int32x4_t (&v)[R][B]) {
  const int64_t col0 = 4 * block0;
  if (col0 + 4 * B > a.n) {
    int32_t lanes[R][B][4];
    for (int r = 0; r < R; ++r) {
      for (int b = 0; b < B; ++b) vst1q_s32(lanes[r][b], v[r][b]);
    }
    StoreTileClipped<R, B>(a, row0, col0, lanes);
    return;
  }
  const int64_t rows = a.m - row0 < R ? a.m - row0 : R;  // rows past m are not written
  switch (a.output) {
    case Output::kInt32: {
      const int64_t n = a.n;
      int32_t* y = a.y + row0 * n + col0;
#pragma clang loop unroll(full)
      for (int r = 0; r < R; ++r) {
        if (r == rows) break;
        for (int b = 0; b < B; ++b) vst1q_s32(y + r * n + 4 * b, v[r][b]);
      }
      return;
    }
    case Output::kF32:
      StoreTileScaledRows<R, B, Output::kF32, false>(a, row0, col0, rows, v);
      return;
    case Output::kBf16:
      if (a.bias != nullptr) {
        StoreTileScaledRows<R, B, Output::kBf16, true>(a, row0, col0, rows, v);
      } else {
        StoreTileScaledRows<R, B, Output::kBf16, false>(a, row0, col0, rows, v);
      }
      return;
  }
}

}  // namespace tcpu::gemm

#endif  // TCPU_KERNELS_GEMM_GEMM_STORE_NEON_H_
