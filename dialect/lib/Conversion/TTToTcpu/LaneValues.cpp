// One lane of a Triton tensor as a scalar (LaneValues.h): the tensor's defining chain, each op
// applied to the lane's scalars. Positions map through broadcast (a broadcast dimension reads
// position 0) and expand_dims (the new dimension is dropped); a range yields start + position.
#include "LaneValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tt/TTOps.h"

namespace mlir::tt {
namespace {

// Chains deeper than this are left to the vector code (they are not index arithmetic).
constexpr int kMaxDepth = 32;

bool IsElementwise(Operation* op) {
  return op->getNumRegions() == 0 && op->hasTrait<OpTrait::Elementwise>() && isPure(op) &&
         (isa<arith::ArithDialect>(op->getDialect()) || isa<AddPtrOp>(op));
}

bool Analysable(Value value, int depth) {
  if (!isa<RankedTensorType>(value.getType())) return true;  // a scalar operand
  Operation* op = value.getDefiningOp();
  if (!op || depth > kMaxDepth) return false;
  if (isa<MakeRangeOp, SplatOp>(op)) return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    return isa<DenseElementsAttr>(constant.getValue());
  }
  if (isa<BroadcastOp, ExpandDimsOp>(op)) return Analysable(op->getOperand(0), depth + 1);
  if (!IsElementwise(op)) return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value operand) { return Analysable(operand, depth + 1); });
}

class LaneBuilder {
 public:
  LaneBuilder(OpBuilder& b, Location loc) : b_(b), loc_(loc) {}

  Value Build(Value value, SmallVector<Value> position) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type) return value;
    Operation* op = value.getDefiningOp();
    if (auto range = dyn_cast<MakeRangeOp>(op)) {
      Value start = b_.create<arith::ConstantIntOp>(loc_, range.getStart(), 32);
      return b_.create<arith::AddIOp>(loc_, start, position[0]);
    }
    if (auto splat = dyn_cast<SplatOp>(op)) return splat.getSrc();
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      auto source = cast<RankedTensorType>(broadcast.getSrc().getType());
      for (int64_t d = 0; d < source.getRank(); ++d) {
        if (source.getDimSize(d) == 1) position[d] = b_.create<arith::ConstantIntOp>(loc_, 0, 32);
      }
      return Build(broadcast.getSrc(), position);
    }
    if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      position.erase(position.begin() + expand.getAxis());
      return Build(expand.getSrc(), position);
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) return Element(constant, position);
    IRMapping operands;
    for (Value operand : op->getOperands()) {
      Value lane = Build(operand, position);
      if (!lane) return {};
      operands.map(operand, lane);
    }
    Operation* scalar = b_.clone(*op, operands);
    scalar->getResult(0).setType(type.getElementType());
    return scalar->getResult(0);
  }

 private:
  Value Element(arith::ConstantOp constant, ArrayRef<Value> position) {
    auto elements = cast<DenseElementsAttr>(constant.getValue());
    Type element = elements.getElementType();
    if (elements.isSplat()) {
      return b_.create<arith::ConstantOp>(loc_, element, elements.getSplatValue<TypedAttr>());
    }
    ArrayRef<int64_t> shape = elements.getType().getShape();
    int64_t flat = 0;
    for (auto [coordinate, size] : llvm::zip(position, shape)) {
      APInt value;
      if (!matchPattern(coordinate, m_ConstantInt(&value))) return {};
      flat = flat * size + value.getSExtValue();
    }
    auto values = elements.getValues<Attribute>();
    return b_.create<arith::ConstantOp>(loc_, element, cast<TypedAttr>(values[flat]));
  }

  OpBuilder& b_;
  Location loc_;
};

}  // namespace

bool hasLaneValues(Value tensor) { return tensor && Analysable(tensor, 0); }

Value buildLaneValue(OpBuilder& b, Location loc, Value tensor, ArrayRef<Value> position) {
  return LaneBuilder(b, loc).Build(tensor, SmallVector<Value>(position));
}

}  // namespace mlir::tt
