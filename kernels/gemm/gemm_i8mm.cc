// SMMLA GEMM (-march=armv8.6-a+i8mm). SMMLA multiplies a 2x8 int8 tile by the transpose of
// another into a 2x2 int32 tile. The packed weights already hold 2 rows x 8 k per 16 bytes,
// and x is packed per call into the same interleave (rows 2p, 2p+1) with the 4 pairs of an
// 8-row tile side by side per chunk (PackXTiles), so every operand comes from a multi-vector
// load. The micro-tile is 8 x rows (4 pairs) x 8 w rows (2 blocks): 16 accumulators, all of
// them in registers, and each weight byte is loaded once for the 8 rows. The loop takes two
// 8-byte k chunks at a time: two 64-byte LD1s of x and one 64-byte LD1 of each block (its two
// chunks are adjacent) feed 32 SMMLAs (1024 MACs): 38 instructions with the loop, 0.037 per
// MAC (SMMLA alone: 0.031). The sums go through StoreTile (the W8A8 epilogue) in registers.
#include <arm_neon.h>

#include "kernels/gemm/gemm_kernels.h"
#include "kernels/gemm/gemm_store_neon.h"

namespace tcpu::gemm {
namespace {

// acc[p][q] += x pair p (of xv) times w row pair q (of wv), P pairs by B blocks (2 row pairs
// each).
template <int P, int B>
inline void Accumulate(int32x4_t (&acc)[P][2 * B], const int8x16_t (&xv)[P],
                       const int8x16_t (&wv)[2 * B]) {
  for (int p = 0; p < P; ++p) {
    for (int q = 0; q < 2 * B; ++q) acc[p][q] = vmmlaq_s32(acc[p][q], xv[p], wv[q]);
  }
}

// The P pairs of x chunk at x (64 bytes; P < 4 reads only the pairs it needs).
template <int P>
inline void LoadX(const int8_t* x, int8x16_t (&xv)[P]) {
  if constexpr (P == 4) {
    const int8x16x4_t x4 = vld1q_s8_x4(x);
    for (int p = 0; p < 4; ++p) xv[p] = x4.val[p];
  } else {
    for (int p = 0; p < P; ++p) xv[p] = vld1q_s8(x + p * 16);
  }
}

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
  // Counted down, every pointer stepped after its load: the loads post-increment.
  for (int64_t pairs = chunks / 2; pairs != 0; --pairs) {
    if constexpr (P == 4 && B == 2) TCPU_MCA_LOOP("gemm_i8mm");
    int8x16_t w0[2 * B], w1[2 * B];  // two adjacent chunks
    for (int b = 0; b < B; ++b) {
      const int8x16x4_t w4 = vld1q_s8_x4(w[b]);
      w0[2 * b] = w4.val[0];
      w0[2 * b + 1] = w4.val[1];
      w1[2 * b] = w4.val[2];
      w1[2 * b + 1] = w4.val[3];
      w[b] += 64;
    }
    int8x16_t xv[P];
    LoadX<P>(x, xv);
    x += 64;
    // An empty asm hides that x advances by 128 per iteration: without it clang copies x to
    // address the second load, two instructions more per iteration.
    __asm__("" : "+r"(x));
    Accumulate<P, B>(acc, xv, w0);
    LoadX<P>(x, xv);
    x += 64;
    Accumulate<P, B>(acc, xv, w1);
  }
  if (chunks % 2 != 0) {  // an odd last chunk
    int8x16_t wv[2 * B];
    for (int b = 0; b < B; ++b) {
      const int8x16x2_t w2 = vld1q_s8_x2(w[b]);
      wv[2 * b] = w2.val[0];
      wv[2 * b + 1] = w2.val[1];
    }
    int8x16_t xv[P];
    LoadX<P>(x, xv);
    Accumulate<P, B>(acc, xv, wv);
  }
  // acc[p][2b + h] = [x2p.w(2h), x2p.w(2h+1), x2p+1.w(2h), x2p+1.w(2h+1)] of block b: the
  // low halves of h = 0, 1 are y row 2p, the high halves y row 2p + 1.
  int32x4_t sums[2 * P][B];
  for (int p = 0; p < P; ++p) {
    for (int b = 0; b < B; ++b) {
      const int64x2_t lo = vreinterpretq_s64_s32(acc[p][2 * b]);
      const int64x2_t hi = vreinterpretq_s64_s32(acc[p][2 * b + 1]);
      sums[2 * p][b] = vreinterpretq_s32_s64(vzip1q_s64(lo, hi));
      sums[2 * p + 1][b] = vreinterpretq_s32_s64(vzip2q_s64(lo, hi));
    }
  }
  StoreTile<2 * P, B>(a, 8 * tile, block0, sums);
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
