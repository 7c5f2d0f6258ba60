// Portable scalar GEMM over the packed weights, and the x packings the vector kernels read.
#include <cstring>

#include "kernels/gemm/gemm_kernels.h"
#include "runtime/check.h"

namespace tcpu::gemm {
namespace {

void RunTileRef(const GemmArgs& a, int64_t row0, int64_t rows, int64_t block0, int64_t blocks) {
  for (int64_t r = row0; r < row0 + rows && r < a.m; ++r) {
    const int8_t* x = a.x + r * a.k;
    for (int64_t b = block0; b < block0 + blocks; ++b) {
      const int8_t* w = a.w + b * a.chunks * 32;
      // Unsigned sums wrap like the int32 lanes of the vector kernels (no signed overflow).
      uint32_t acc[4] = {0, 0, 0, 0};
      for (int64_t j = 0; j < a.k; ++j) {
        const int8_t* tile = w + (j / 8) * 32 + j % 8;
        for (int i = 0; i < 4; ++i) acc[i] += static_cast<uint32_t>(tile[i * 8] * x[j]);
      }
      const int32_t sums[4] = {static_cast<int32_t>(acc[0]), static_cast<int32_t>(acc[1]),
                               static_cast<int32_t>(acc[2]), static_cast<int32_t>(acc[3])};
      StoreRowClipped(a, r, 4 * b, sums);
    }
  }
}

// Chunk c of row `row` of x (8 bytes, zero past k) into out[0, 8).
inline void CopyChunk(const int8_t* x, int64_t m, int64_t k, int64_t row, int64_t c, int8_t* out) {
  const int64_t col = c * 8;
  if (row < m && col + 8 <= k) {
    std::memcpy(out, x + row * k + col, 8);
    return;
  }
  std::memset(out, 0, 8);
  if (row < m && col < k) std::memcpy(out, x + row * k + col, static_cast<size_t>(k - col));
}

}  // namespace

bool PackedXTilesBytes(int64_t m, int64_t chunks, int64_t* bytes) {
  int64_t tile_chunks = 0;
  return CheckedMul((m + 7) / 8, chunks, &tile_chunks) && CheckedMul(tile_chunks, 64, bytes);
}

void PackXTiles(const int8_t* x, int64_t m, int64_t k, int64_t chunks, int8_t* out) {
  const int64_t tiles = (m + 7) / 8;
  const int64_t whole = k / 8;  // chunks that lie inside k
  for (int64_t t = 0; t < tiles; ++t) {
    int8_t* tile = out + t * chunks * 64;
    for (int64_t r = 0; r < 8; ++r) {
      const int64_t row = 8 * t + r;
      int64_t c = 0;
      if (row < m) {  // Row by row, 8 bytes at a time: a load and a store per chunk.
        const int8_t* src = x + row * k;
        for (; c < whole; ++c) std::memcpy(tile + c * 64 + r * 8, src + c * 8, 8);
      }
      for (; c < chunks; ++c) CopyChunk(x, m, k, row, c, tile + c * 64 + r * 8);
    }
  }
}

bool PackedXDuplicatedBytes(int64_t m, int64_t chunks, int64_t* bytes) {
  int64_t row_chunks = 0;
  return CheckedMul(m, chunks, &row_chunks) && CheckedMul(row_chunks, 16, bytes);
}

void PackXDuplicated(const int8_t* x, int64_t m, int64_t k, int64_t chunks, int8_t* out) {
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < chunks; ++c, out += 16) {
      CopyChunk(x, m, k, r, c, out);
      std::memcpy(out + 8, out, 8);
    }
  }
}

const GemmKernel kGemmRef = {
    /*m_tile=*/4,
    RunTileRef,
    /*packed_x_bytes=*/nullptr,
    /*pack_x=*/nullptr,
};

}  // namespace tcpu::gemm
