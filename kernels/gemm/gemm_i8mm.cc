// SMMLA GEMM (-march=armv8.6-a+i8mm). SMMLA multiplies a 2x8 int8 tile by the transpose of
// another into a 2x2 int32 tile. The packed weights already hold 2 rows x 8 k per 16 bytes,
// and x is packed per call into the same interleave (rows 2p, 2p+1) with the 4 pairs of an
// 8-row tile side by side per chunk (PackXTiles), so every operand comes from a multi-vector
// load. The micro-tile is 8 x rows (4 pairs) x 8 w rows (2 blocks): 16 accumulators; per
// 8-byte k chunk one 64-byte LD1 of x and two 32-byte LD1s of w feed 16 SMMLAs (512 MACs):
// 21 instructions with the loop, 0.041 per MAC (SMMLA alone: 0.031).
#include <arm_neon.h>

#include "kernels/gemm/gemm_kernels.h"
#include "kernels/gemm/gemm_store_neon.h"

namespace tcpu::gemm {
namespace {

// P pairs of x rows (1..4) by B blocks (1..2), from x tile `tile` and block block0.
template <int P, int B>
void Tile(const GemmArgs& a, int64_t tile, int64_t block0) {
  const int64_t chunks = a.chunks;
  const int8_t* x = a.x_packed + tile * chunks * 64;
  const int8_t* w[B];
  for (int b = 0; b < B; ++b) w[b] = a.w + (block0 + b) * chunks * 32;
  int32x4_t acc[P][2 * B];
  for (int p = 0; p < P; ++p) {
    for (int q = 0; q < 2 * B; ++q) acc[p][q] = vdupq_n_s32(0);
  }
  for (int64_t c = 0; c < chunks; ++c) {
    if constexpr (P == 4 && B == 2) TCPU_MCA_LOOP("gemm_i8mm");
    int8x16_t xv[P];
    if constexpr (P == 4) {
      const int8x16x4_t x4 = vld1q_s8_x4(x);
      for (int p = 0; p < 4; ++p) xv[p] = x4.val[p];
    } else {
      for (int p = 0; p < P; ++p) xv[p] = vld1q_s8(x + p * 16);
    }
    int8x16_t wv[2 * B];
    for (int b = 0; b < B; ++b) {
      const int8x16x2_t w2 = vld1q_s8_x2(w[b]);
      wv[2 * b] = w2.val[0];
      wv[2 * b + 1] = w2.val[1];
      w[b] += 32;
    }
    for (int p = 0; p < P; ++p) {
      for (int q = 0; q < 2 * B; ++q) acc[p][q] = vmmlaq_s32(acc[p][q], xv[p], wv[q]);
    }
    x += 64;
  }
  // acc[p][2b + h] = [x2p.w(2h), x2p.w(2h+1), x2p+1.w(2h), x2p+1.w(2h+1)] of block b: the
  // low halves of h = 0, 1 are y row 2p, the high halves y row 2p + 1.
  for (int p = 0; p < P; ++p) {
    const int64_t row = 8 * tile + 2 * p;
    for (int b = 0; b < B; ++b) {
      const int64x2_t lo = vreinterpretq_s64_s32(acc[p][2 * b]);
      const int64x2_t hi = vreinterpretq_s64_s32(acc[p][2 * b + 1]);
      const int64_t col0 = 4 * (block0 + b);
      StoreRow(a, row, col0, vreinterpretq_s32_s64(vzip1q_s64(lo, hi)));
      StoreRow(a, row + 1, col0, vreinterpretq_s32_s64(vzip2q_s64(lo, hi)));
    }
  }
}

using TileFn = void (*)(const GemmArgs&, int64_t, int64_t);

constexpr TileFn kTiles[4][2] = {
    {Tile<1, 1>, Tile<1, 2>},
    {Tile<2, 1>, Tile<2, 2>},
    {Tile<3, 1>, Tile<3, 2>},
    {Tile<4, 1>, Tile<4, 2>},
};

void RunTileI8mm(const GemmArgs& a, int64_t row0, int64_t rows, int64_t block0, int64_t blocks) {
  // row0 is a multiple of the 8-row tile; an odd last row pairs with a zero row of x_packed.
  const int64_t pairs = (rows + 1) / 2;
  kTiles[pairs - 1][blocks - 1](a, row0 / 8, block0);
}

}  // namespace

const GemmKernel kGemmI8mm = {
    /*m_tile=*/8,
    RunTileI8mm,
    PackedXTilesBytes,
    PackXTiles,
};

}  // namespace tcpu::gemm
