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
namespace lane_values {
namespace {

// Chains deeper than this are left to the vector code (they are not index arithmetic).
constexpr int kMaxDepth = 32;

bool IsElementwise(Operation* op) {
  return op->getNumRegions() == 0 && op->hasTrait<OpTrait::Elementwise>() && isPure(op) &&
         (isa<arith::ArithDialect>(op->getDialect()) || isa<AddPtrOp>(op));
}

// `splat_constants_only`: a non-splat constant (which needs constant positions) is refused.
bool Analysable(Value value, int depth, bool splat_constants_only) {
  if (!isa<RankedTensorType>(value.getType())) return true;  // a scalar operand
  Operation* op = value.getDefiningOp();
  if (!op || depth > kMaxDepth) return false;
  if (isa<MakeRangeOp, SplatOp>(op)) return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    return elements && (!splat_constants_only || elements.isSplat());
  }
  if (isa<BroadcastOp, ExpandDimsOp>(op)) {
    return Analysable(op->getOperand(0), depth + 1, splat_constants_only);
  }
  if (!IsElementwise(op)) return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return Analysable(operand, depth + 1, splat_constants_only);
  });
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

// The step of a tensor along one dimension (buildLaneStep), op by op: a range steps by 1
// along its dimension, a splat or constant by 0, a broadcast or expand_dims by 0 along the
// dimensions they add, a sum by the sum of its operands' steps, a product by one operand's step
// times the other operand when that one does not change along the dimension (a step of 0), a
// tt.addptr by the pointer's step plus the offset's in bytes. Any other op: null.
class StepBuilder {
 public:
  StepBuilder(OpBuilder& b, Location loc) : b_(b), loc_(loc) {}

  // Pointers step in i64 bytes, integers in their own type. Steps of 0 and factors of 1 are
  // folded as they are built, so a plain row stride comes out as the stride itself.
  Value Build(Value value, SmallVector<Value> position, int64_t dim) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type) return Zero(value.getType());  // a scalar operand
    Operation* op = value.getDefiningOp();
    if (!op) return {};
    Type element = type.getElementType();
    if (isa<MakeRangeOp>(op)) return b_.create<arith::ConstantIntOp>(loc_, dim == 0 ? 1 : 0, 32);
    if (isa<SplatOp>(op)) return Zero(element);
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
      return elements && elements.isSplat() ? Zero(element) : Value();
    }
    if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
      auto source = cast<RankedTensorType>(broadcast.getSrc().getType());
      if (source.getDimSize(dim) == 1 && type.getDimSize(dim) != 1) return Zero(element);
      for (int64_t d = 0; d < source.getRank(); ++d) {
        if (source.getDimSize(d) == 1) position[d] = b_.create<arith::ConstantIntOp>(loc_, 0, 32);
      }
      return Build(broadcast.getSrc(), position, dim);
    }
    if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      int64_t axis = expand.getAxis();
      if (axis == dim) return Zero(element);
      position.erase(position.begin() + axis);
      return Build(expand.getSrc(), position, dim > axis ? dim - 1 : dim);
    }
    if (auto addptr = dyn_cast<AddPtrOp>(op)) {
      Value pointer = Build(addptr.getPtr(), position, dim);
      Value offset = Build(addptr.getOffset(), position, dim);
      Type pointee = getPointeeType(element);
      if (!pointer || !offset || !pointee.isIntOrFloat()) return {};
      if (!offset.getType().isInteger(64)) {
        offset = b_.createOrFold<arith::ExtSIOp>(loc_, b_.getI64Type(), offset);
      }
      int64_t bytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
      return Add(Mul(offset, b_.create<arith::ConstantIntOp>(loc_, bytes, 64)), pointer);
    }
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      Value lhs = Build(op->getOperand(0), position, dim);
      Value rhs = Build(op->getOperand(1), position, dim);
      if (!lhs || !rhs) return {};
      if (isa<arith::AddIOp>(op)) return Add(lhs, rhs);
      if (matchPattern(rhs, m_Zero())) return lhs;
      return b_.create<arith::SubIOp>(loc_, lhs, rhs);
    }
    if (isa<arith::MulIOp>(op)) {
      Value lhs = Build(op->getOperand(0), position, dim);
      Value rhs = Build(op->getOperand(1), position, dim);
      if (!lhs || !rhs) return {};
      // (x + i s) * y = x y + i (s y) when y does not change along dim.
      if (matchPattern(rhs, m_Zero())) {
        Value factor = buildLaneValue(b_, loc_, op->getOperand(1), position);
        return factor ? Mul(factor, lhs) : Value();
      }
      if (matchPattern(lhs, m_Zero())) {
        Value factor = buildLaneValue(b_, loc_, op->getOperand(0), position);
        return factor ? Mul(factor, rhs) : Value();
      }
      return {};
    }
    if (isa<arith::ExtSIOp>(op)) {
      Value step = Build(op->getOperand(0), position, dim);
      return step ? b_.createOrFold<arith::ExtSIOp>(loc_, element, step) : Value();
    }
    return {};
  }

 private:
  Value Add(Value x, Value y) {
    if (matchPattern(x, m_Zero())) return y;
    if (matchPattern(y, m_Zero())) return x;
    return b_.createOrFold<arith::AddIOp>(loc_, x, y);
  }

  Value Mul(Value x, Value y) {
    if (matchPattern(x, m_One()) || matchPattern(y, m_Zero())) return y;
    if (matchPattern(y, m_One()) || matchPattern(x, m_Zero())) return x;
    return b_.createOrFold<arith::MulIOp>(loc_, x, y);
  }

  Value Zero(Type type) {
    if (isa<PointerType>(type)) type = b_.getI64Type();
    if (!type.isIntOrIndex()) return {};
    return b_.create<arith::ConstantOp>(loc_, type, b_.getZeroAttr(type));
  }

  OpBuilder& b_;
  Location loc_;
};

}  // namespace
}  // namespace lane_values

bool hasLaneValues(Value tensor) { return tensor && lane_values::Analysable(tensor, 0, false); }

bool hasLaneValuesAtAnyPosition(Value tensor) {
  return tensor && lane_values::Analysable(tensor, 0, true);
}

Value buildLaneValue(OpBuilder& b, Location loc, Value tensor, ArrayRef<Value> position) {
  return lane_values::LaneBuilder(b, loc).Build(tensor, SmallVector<Value>(position));
}

Value buildLaneStep(OpBuilder& b, Location loc, Value tensor, ArrayRef<Value> position,
                    int64_t dim) {
  if (!hasLaneValues(tensor)) return {};
  return lane_values::StepBuilder(b, loc).Build(tensor, SmallVector<Value>(position), dim);
}

}  // namespace mlir::tt
