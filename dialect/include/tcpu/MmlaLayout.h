// The SMMLA tile layout (tcpu.to_mmla_blocks / tcpu.from_mmla_blocks): which element of a
// row-major accumulator c[M, N] each lane of the blocks holds.
#ifndef TCPU_MMLALAYOUT_H_
#define TCPU_MMLALAYOUT_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tcpu {

// Column j (0 or 1) of block column t: columns come in groups of 2 * stride, t = stride * g + i
// pairs 2 * stride * g + i with 2 * stride * g + i + stride.
inline int64_t MmlaBlockColumn(int64_t t, int64_t j, int64_t stride) {
  return 2 * stride * (t / stride) + t % stride + j * stride;
}

// Where block (p, t) of an accumulator with N columns lies in its blocks of shape `blocks`:
// [p, t] in vector<(M/2)x(N/2)x4>; [tile, p % R, t % C] in the tiled vector<TxRxCx4>, whose
// tiles of R x C blocks come in row-major order (tile (p / R) * (N/2/C) + t / C), so that a
// tile is one contiguous run of memory when the blocks live in a buffer.
inline llvm::SmallVector<int64_t, 3> MmlaBlockPosition(llvm::ArrayRef<int64_t> blocks, int64_t n,
                                                       int64_t p, int64_t t) {
  if (blocks.size() == 3) return {p, t};
  int64_t rows = blocks[1], cols = blocks[2];
  return {p / rows * (n / 2 / cols) + t / cols, p % rows, t % cols};
}

// For each lane of the flattened blocks vector<(M/2)x(N/2)x4>, its index in the flattened
// row-major c[M, N]. Lane 4 * (p * N/2 + t) + 2 * r + j is c[2p + r, MmlaBlockColumn(t, j)].
inline llvm::SmallVector<int64_t> MmlaBlockLanes(int64_t m, int64_t n, int64_t stride) {
  llvm::SmallVector<int64_t> lanes;
  lanes.reserve(m * n);
  for (int64_t p = 0; p < m / 2; ++p) {
    for (int64_t t = 0; t < n / 2; ++t) {
      for (int64_t r = 0; r < 2; ++r) {
        for (int64_t j = 0; j < 2; ++j) {
          lanes.push_back((2 * p + r) * n + MmlaBlockColumn(t, j, stride));
        }
      }
    }
  }
  return lanes;
}

}  // namespace mlir::tcpu

#endif  // TCPU_MMLALAYOUT_H_
