// SDOT GEMM (-march=armv8.2-a+dotprod). As the dotprod GEMV: a 16-byte load of the packed
// weights holds 2 rows x 8 k, and x is packed per call with each 8-byte chunk duplicated, so
// SDOT leaves [r:k0-3, r:k4-7, r+1:k0-3, r+1:k4-7] and one pairwise add per tile finishes.
// The micro-tile is 4 x rows x 8 w rows (2 blocks): 16 accumulators, and per chunk 8 loads
// feed 16 SDOTs (256 MACs).
#include <arm_neon.h>

#include "kernels/gemm/gemm_kernels.h"
#include "kernels/gemm/gemm_store_neon.h"

namespace tcpu::gemm {
namespace {

// R rows of x (1..4) by B blocks (1..2), from x row row0 and block block0.
template <int R, int B>
void Tile(const GemmArgs& a, int64_t row0, int64_t block0) {
  const int64_t chunks = a.chunks;
  const int8_t* x = a.x_packed + row0 * chunks * 16;
  const int8_t* w = a.w + block0 * chunks * 32;
  int32x4_t acc[R][2 * B];
  for (int r = 0; r < R; ++r) {
    for (int q = 0; q < 2 * B; ++q) acc[r][q] = vdupq_n_s32(0);
  }
  for (int64_t c = 0; c < chunks; ++c) {
    if constexpr (R == 4 && B == 2) TCPU_MCA_LOOP("gemm_dotprod");
    int8x16_t xv[R];
    int8x16_t wv[2 * B];
    for (int r = 0; r < R; ++r) xv[r] = vld1q_s8(x + r * chunks * 16);
    for (int b = 0; b < B; ++b) {
      wv[2 * b] = vld1q_s8(w + b * chunks * 32);
      wv[2 * b + 1] = vld1q_s8(w + b * chunks * 32 + 16);
    }
    for (int r = 0; r < R; ++r) {
      for (int q = 0; q < 2 * B; ++q) acc[r][q] = vdotq_s32(acc[r][q], wv[q], xv[r]);
    }
    x += 16;
    w += 32;
  }
  int32x4_t sums[R][B];
  for (int r = 0; r < R; ++r) {
    for (int b = 0; b < B; ++b) sums[r][b] = vpaddq_s32(acc[r][2 * b], acc[r][2 * b + 1]);
  }
  StoreTile<R, B>(a, row0, block0, sums);
}

using TileFn = void (*)(const GemmArgs&, int64_t, int64_t);

constexpr TileFn kTiles[4][2] = {
    {Tile<1, 1>, Tile<1, 2>},
    {Tile<2, 1>, Tile<2, 2>},
    {Tile<3, 1>, Tile<3, 2>},
    {Tile<4, 1>, Tile<4, 2>},
};

void RunTileDotprod(const GemmArgs& a, int64_t row0, int64_t rows, int64_t block0, int64_t blocks) {
  kTiles[rows - 1][blocks - 1](a, row0, block0);
}

}  // namespace

const GemmKernel kGemmDotprod = {
    /*m_tile=*/4,
    RunTileDotprod,
    PackedXDuplicatedBytes,
    PackXDuplicated,
};

}  // namespace tcpu::gemm
