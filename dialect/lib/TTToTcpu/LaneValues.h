// One lane of a Triton tensor as a scalar. Triton programs build index, pointer and mask
// tensors from tt.make_range and splats of scalars, through expand_dims, broadcast and
// elementwise arithmetic; the value such a tensor holds at one position is the same chain of
// ops on scalars: `offs + tl.arange(0, 256)` at lane 8 is `offs + 8`. The memory lowering
// takes a run's first address this way (two scalar instructions, where extracting it from the
// address vector builds the vector first) and, on a partial tile, each lane's mask bit.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_LANEVALUES_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_LANEVALUES_H_

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::tt {

// True when `tensor` (TTIR, before the conversion) is built only from ranges, splats,
// broadcasts, expand_dims, constants and elementwise arith and tt.addptr ops.
bool hasLaneValues(Value tensor);

// hasLaneValues, and buildLaneValue succeeds at any position, constant or not (no non-splat
// constant in the chain): a loop's induction variables may be the position.
bool hasLaneValuesAtAnyPosition(Value tensor);

// The element of `tensor` (hasLaneValues must hold) at `position`, one i32 per dimension
// (a non-splat constant needs constant positions; null is returned otherwise), built at `b`'s
// insertion point in the TTIR types: a tensor of pointers gives a !tt.ptr.
Value buildLaneValue(OpBuilder& b, Location loc, Value tensor, ArrayRef<Value> position);

// How much `tensor`'s element changes from `position` to the next position along `dim` when it
// changes by the same amount all along that dimension (the tensor is affine in it), else null:
// `offs_m[:, None] * stride + offs_k[None, :]` steps by `stride` along dimension 0. Integer
// tensors step in their element type, tensors of pointers in i64 bytes. Built at `b`'s
// insertion point, folded as it is built.
Value buildLaneStep(OpBuilder& b, Location loc, Value tensor, ArrayRef<Value> position,
                    int64_t dim);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_LANEVALUES_H_
