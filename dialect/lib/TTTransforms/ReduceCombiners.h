// The operation a tt.reduce combines with, for the tt -> tt passes that reason about what a
// reduction computes (tt-sink-loop-reductions, tt-version-masked-loops).
#ifndef TCPU_DIALECT_LIB_TTTRANSFORMS_REDUCECOMBINERS_H_
#define TCPU_DIALECT_LIB_TTTRANSFORMS_REDUCECOMBINERS_H_

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "tt/TTOps.h"

namespace mlir::tt {

enum class CombineKind { kNone, kAdd, kIdempotent };

// How `op`, an operation of two operands and one result, combines: addition (addf, addi), an
// idempotent operation (the float and integer max and min), or neither.
CombineKind combineKindOf(Operation* op);

// The value `op` (a combiner combineKindOf knows) leaves every `element` unchanged with: -0.0
// for addf (x + -0.0 is x, -0.0 included), 0 for addi, NaN for maxnumf and minnumf, an infinity
// for maximumf and minimumf, the type's extreme for the integer max and min; null for any
// other op or a mismatched type.
TypedAttr combineIdentity(Operation* op, Type element);

// The one operation of a single-operand reduction's combine region when it combines the
// region's two arguments, is returned, and is of a kind combineKindOf knows; null otherwise.
Operation* reduceCombinerOf(ReduceOp reduce);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTRANSFORMS_REDUCECOMBINERS_H_
