// Types of the tt dialect (generated from TTTypes.td) and the type helpers its ops use.
#ifndef TT_TTTYPES_H_
#define TT_TTTYPES_H_

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Types.h"
#include "tt/TTDialect.h"

#define GET_TYPEDEF_CLASSES
#include "tt/TTTypes.h.inc"

namespace mlir::tt {

// What loading through `ptr_like` yields: T for !tt.ptr<T>, tensor<S x T> for a tensor of
// !tt.ptr<T>, the block tensor for a block pointer. Null for anything else.
Type getPointeeType(Type ptr_like);

// i1 of the same shape as `type` (i1 for a scalar).
Type getI1SameShape(Type type);

// !tt.ptr<T> (or a tensor of them) pointing at `type`'s elements.
Type getPointerTypeSameShape(Type type);

// !tt.ptr<T, as> for a block pointer !tt.ptr<tensor<... x T>, as>.
Type getBlockBaseType(Type block_pointer);

// True for !tt.ptr<T> and tensors of them (not block pointers).
bool isPointerLike(Type type);

}  // namespace mlir::tt

#endif  // TT_TTTYPES_H_
