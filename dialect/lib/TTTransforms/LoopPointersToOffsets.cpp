// tt-loop-pointers-to-offsets: a tensor of pointers carried by scf.for and advanced by a
// uniform step each iteration (tt.addptr %p, splat(%s)) is carried as an i64 element offset
// from its initial value. The body and the loop's users see tt.addptr %p0, splat(%offset):
// the same addresses, a structure the contiguity analysis reads, and one scalar add per
// iteration instead of one per element.
//
// A tensor of integers advanced the same way (arith.addi %t, splat(%s): flex attention's
// `offs_n += BLOCK_N`) is carried as a scalar of its element type, %t = %t0 + splat(%offset)
// (integer addition wraps, so the sums are the same). Carried whole, it tied its lanes to the
// loop: tt-strip-mine-tiles could not cut the key axis its mask compares with, and the
// attention's 8x128 score tiles stayed straight-line code.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTLOOPPOINTERSTOOFFSETS
#include "tt/TTToTcpuPasses.h.inc"

namespace loop_pointers_to_offsets {
namespace {

// The scalar of a splat offset tensor, or null: tt.splat %s, or a splat constant (built as a
// scalar constant before `before`).
Value UniformStep(Value step, OpBuilder& b) {
  if (auto splat = step.getDefiningOp<SplatOp>()) return splat.getSrc();
  DenseIntElementsAttr dense;
  if (matchPattern(step, m_Constant(&dense)) && dense.isSplat()) {
    return b.create<arith::ConstantOp>(step.getLoc(), dense.getSplatValue<IntegerAttr>());
  }
  return {};
}

// The uniform step by which iteration argument `argument` is advanced in `next`, the value
// yielded for it: tt.addptr %argument, splat for pointers, arith.addi of %argument and a splat
// for integers. Null otherwise.
Value StepOf(Value argument, Value next) {
  if (auto advance = next.getDefiningOp<AddPtrOp>()) {
    return advance.getPtr() == argument ? advance.getOffset() : Value();
  }
  if (auto add = next.getDefiningOp<arith::AddIOp>()) {
    if (add.getLhs() == argument) return add.getRhs();
    if (add.getRhs() == argument) return add.getLhs();
  }
  return {};
}

bool IsPointerTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<PointerType>(tensor.getElementType());
}

// Iteration arguments that are tensors of pointers or integers advanced by a uniform step.
SmallVector<unsigned> UniformInductions(scf::ForOp loop) {
  SmallVector<unsigned> indices;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    auto type = dyn_cast<RankedTensorType>(loop.getRegionIterArg(i).getType());
    if (!type || !(isa<PointerType>(type.getElementType()) || type.getElementType().isInteger()))
      continue;
    Value step = StepOf(loop.getRegionIterArg(i), yield.getOperand(i));
    if (!step) continue;
    if (!step.getDefiningOp<SplatOp>() && !matchPattern(step, m_Constant())) continue;
    indices.push_back(i);
  }
  return indices;
}

// The scalar type an induction of `type` is carried as: i64 element offsets for pointers, the
// element type for integers.
Type OffsetType(Type type, OpBuilder& b) {
  return IsPointerTensor(type) ? b.getI64Type() : cast<RankedTensorType>(type).getElementType();
}

// %base advanced by splat(%offset): tt.addptr for pointers, arith.addi for integers.
Value Advance(OpBuilder& b, Location loc, Value base, Value offset) {
  auto type = cast<RankedTensorType>(base.getType());
  auto offsets = RankedTensorType::get(type.getShape(), offset.getType());
  Value splat = b.create<SplatOp>(loc, offsets, offset);
  if (IsPointerTensor(type)) return b.create<AddPtrOp>(loc, type, base, splat);
  return b.create<arith::AddIOp>(loc, base, splat);
}

void CarryOffsets(scf::ForOp loop, ArrayRef<unsigned> inductions) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  SmallVector<Value> inits(loop.getInitArgs());
  DenseMap<Type, Value> zeros;  // one per offset type
  for (unsigned i : inductions) {
    Type type = OffsetType(inits[i].getType(), b);
    Value& zero = zeros[type];
    if (!zero) zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, 0));
    inits[i] = zero;
  }
  auto carried =
      b.create<scf::ForOp>(loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), inits);
  Block* body = carried.getBody();
  // A body built with iteration arguments has no terminator yet; the old one moves in.
  if (!body->empty()) body->getTerminator()->erase();

  b.setInsertionPointToStart(body);
  SmallVector<Value> arguments = {carried.getInductionVar()};
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    Value argument = carried.getRegionIterArg(i);
    arguments.push_back(llvm::is_contained(inductions, i)
                            ? Advance(b, loc, loop.getInitArgs()[i], argument)
                            : argument);
  }
  Block* old_body = loop.getBody();
  for (auto [old_argument, value] : llvm::zip(old_body->getArguments(), arguments)) {
    old_argument.replaceAllUsesWith(value);
  }
  body->getOperations().splice(body->end(), old_body->getOperations());

  auto yield = cast<scf::YieldOp>(body->getTerminator());
  b.setInsertionPoint(yield);
  for (unsigned i : inductions) {
    Operation* next = yield.getOperand(i).getDefiningOp();
    Value argument = arguments[i + 1];  // the advanced initial value the body now uses
    Value step = UniformStep(StepOf(argument, yield.getOperand(i)), b);
    Type offset = carried.getRegionIterArg(i).getType();
    if (step.getType() != offset) step = b.create<arith::ExtSIOp>(loc, offset, step);
    yield->setOperand(i, b.create<arith::AddIOp>(loc, carried.getRegionIterArg(i), step));
    if (next->use_empty()) next->erase();
  }

  b.setInsertionPointAfter(carried);
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    Value result = carried.getResult(i);
    if (llvm::is_contained(inductions, i)) result = Advance(b, loc, loop.getInitArgs()[i], result);
    loop.getResult(i).replaceAllUsesWith(result);
  }
  loop->erase();
}

struct TTLoopPointersToOffsets : impl::TTLoopPointersToOffsetsBase<TTLoopPointersToOffsets> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      SmallVector<unsigned> inductions = UniformInductions(loop);
      if (!inductions.empty()) CarryOffsets(loop, inductions);
    }
  }
};

}  // namespace
}  // namespace loop_pointers_to_offsets
}  // namespace mlir::tt
