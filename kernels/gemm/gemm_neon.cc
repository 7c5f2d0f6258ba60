// Armv8.0 NEON GEMM (-march=armv8-a), for cores without SDOT or SMMLA. As the NEON GEMV:
// SMULL/SMULL2 give exact int16 products (|-128 * -128| = 16384 fits) and SADALP adds
// adjacent ones into int32, against x packed per call with each 8-byte chunk duplicated.
// The micro-tile is 2 x rows x 8 w rows: 16 accumulators.
#include <arm_neon.h>

#include "kernels/gemm/gemm_kernels.h"
#include "kernels/gemm/gemm_store_neon.h"

namespace tcpu::gemm {
namespace {

// R rows of x (1..2) by B blocks (1..2): acc[r][4b + i] sums x row r with w row 4b + i.
template <int R, int B>
void Tile(const GemmArgs& a, int64_t row0, int64_t block0) {
  const int64_t chunks = a.chunks;
  const int8_t* x = a.x_packed + row0 * chunks * 16;
  const int8_t* w = a.w + block0 * chunks * 32;
  int32x4_t acc[R][4 * B];
  for (int r = 0; r < R; ++r) {
    for (int i = 0; i < 4 * B; ++i) acc[r][i] = vdupq_n_s32(0);
  }
  for (int64_t c = 0; c < chunks; ++c) {
    if constexpr (R == 2 && B == 2) TCPU_MCA_LOOP("gemm_neon");
    int8x16_t xv[R];
    int8x16_t wv[2 * B];
    for (int r = 0; r < R; ++r) xv[r] = vld1q_s8(x + r * chunks * 16);
    for (int b = 0; b < B; ++b) {
      wv[2 * b] = vld1q_s8(w + b * chunks * 32);
      wv[2 * b + 1] = vld1q_s8(w + b * chunks * 32 + 16);
    }
    for (int r = 0; r < R; ++r) {
      for (int q = 0; q < 2 * B; ++q) {
        acc[r][2 * q] =
            vpadalq_s16(acc[r][2 * q], vmull_s8(vget_low_s8(wv[q]), vget_low_s8(xv[r])));
        acc[r][2 * q + 1] = vpadalq_s16(acc[r][2 * q + 1], vmull_high_s8(wv[q], xv[r]));
      }
    }
    x += 16;
    w += 32;
  }
  int32x4_t sums[R][B];
  for (int r = 0; r < R; ++r) {
    for (int b = 0; b < B; ++b) {
      const int32x4_t* s = &acc[r][4 * b];
      sums[r][b] = vpaddq_s32(vpaddq_s32(s[0], s[1]), vpaddq_s32(s[2], s[3]));
    }
  }
  StoreTile<R, B>(a, row0, block0, sums);
}

using TileFn = void (*)(const GemmArgs&, int64_t, int64_t);

constexpr TileFn kTiles[2][2] = {
    {Tile<1, 1>, Tile<1, 2>},
    {Tile<2, 1>, Tile<2, 2>},
};

void RunTileNeon(const GemmArgs& a, int64_t row0, int64_t rows, int64_t block0, int64_t blocks) {
  kTiles[rows - 1][blocks - 1](a, row0, block0);
}

}  // namespace

const GemmKernel kGemmNeon = {
    /*m_tile=*/2,
    RunTileNeon,
    PackedXDuplicatedBytes,
    PackXDuplicated,
};

}  // namespace tcpu::gemm
