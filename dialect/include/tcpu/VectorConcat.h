// Concatenating 1-D vectors with vector.shuffle, as a balanced tree, and taking a 2-D vector
// apart into rows (the lowerings that build SMMLA/SDOT operands and rearrange accumulator tiles
// share them).
#ifndef TCPU_VECTORCONCAT_H_
#define TCPU_VECTORCONCAT_H_

#include <numeric>

#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcpu {

// The 1-D vectors `parts` (one element type, at least one) one after the other.
inline Value ConcatVectors(OpBuilder& b, Location loc, ArrayRef<Value> parts) {
  if (parts.size() == 1) return parts[0];
  size_t half = parts.size() / 2;
  Value low = ConcatVectors(b, loc, parts.take_front(half));
  Value high = ConcatVectors(b, loc, parts.drop_front(half));
  int64_t size = cast<VectorType>(low.getType()).getDimSize(0) +
                 cast<VectorType>(high.getType()).getDimSize(0);
  SmallVector<int64_t> lanes(size);
  std::iota(lanes.begin(), lanes.end(), 0);
  return b.create<vector::ShuffleOp>(loc, low, high, lanes);
}

// The rows of a 2-D vector.
inline SmallVector<Value> VectorRows(OpBuilder& b, Location loc, Value matrix) {
  SmallVector<Value> rows;
  for (int64_t i = 0; i < cast<VectorType>(matrix.getType()).getDimSize(0); ++i) {
    rows.push_back(b.create<vector::ExtractOp>(loc, matrix, i));
  }
  return rows;
}

}  // namespace mlir::tcpu

#endif  // TCPU_VECTORCONCAT_H_
