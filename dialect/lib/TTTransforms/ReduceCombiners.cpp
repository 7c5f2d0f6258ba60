// The operation a tt.reduce combines with (ReduceCombiners.h).
#include "dialect/lib/TTTransforms/ReduceCombiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::tt {

CombineKind combineKindOf(Operation* op) {
  if (isa<arith::AddFOp, arith::AddIOp>(op)) return CombineKind::kAdd;
  if (isa<arith::MaxNumFOp, arith::MinNumFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(op)) {
    return CombineKind::kIdempotent;
  }
  return CombineKind::kNone;
}

TypedAttr combineIdentity(Operation* op, Type element) {
  if (op->getNumResults() != 1 || getElementTypeOrSelf(op->getResult(0).getType()) != element) {
    return {};
  }
  if (auto type = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics& semantics = type.getFloatSemantics();
    if (isa<arith::AddFOp>(op)) return FloatAttr::get(type, APFloat::getZero(semantics, true));
    if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op)) {
      return FloatAttr::get(type, APFloat::getQNaN(semantics));
    }
    if (isa<arith::MaximumFOp>(op)) return FloatAttr::get(type, APFloat::getInf(semantics, true));
    if (isa<arith::MinimumFOp>(op)) return FloatAttr::get(type, APFloat::getInf(semantics));
    return {};
  }
  auto type = dyn_cast<IntegerType>(element);
  if (!type) return {};
  unsigned bits = type.getWidth();
  if (isa<arith::AddIOp, arith::MaxUIOp>(op)) return IntegerAttr::get(type, APInt::getZero(bits));
  if (isa<arith::MinUIOp>(op)) return IntegerAttr::get(type, APInt::getMaxValue(bits));
  if (isa<arith::MaxSIOp>(op)) return IntegerAttr::get(type, APInt::getSignedMinValue(bits));
  if (isa<arith::MinSIOp>(op)) return IntegerAttr::get(type, APInt::getSignedMaxValue(bits));
  return {};
}

Operation* reduceCombinerOf(ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1) return nullptr;
  Block& body = reduce.getCombineOp().front();
  if (body.getOperations().size() != 2) return nullptr;
  Operation* op = &body.front();
  auto ret = dyn_cast<ReduceReturnOp>(body.getTerminator());
  if (!ret || ret->getNumOperands() != 1 || ret->getOperand(0) != op->getResult(0)) return nullptr;
  if (op->getNumOperands() != 2 || op->getNumResults() != 1) return nullptr;
  if (!llvm::is_contained(op->getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(op->getOperands(), body.getArgument(1))) {
    return nullptr;
  }
  return combineKindOf(op) == CombineKind::kNone ? nullptr : op;
}

}  // namespace mlir::tt
