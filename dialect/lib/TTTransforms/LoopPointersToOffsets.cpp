// tt-loop-pointers-to-offsets: a tensor of pointers carried by scf.for and advanced by a
// uniform step each iteration (tt.addptr %p, splat(%s)) is carried as an i64 element offset
// from its initial value. The body and the loop's users see tt.addptr %p0, splat(%offset):
// the same addresses, a structure the contiguity analysis reads, and one scalar add per
// iteration instead of one per element.
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

// Iteration arguments that are tensors of pointers yielded as tt.addptr of themselves.
SmallVector<unsigned> PointerArguments(scf::ForOp loop) {
  SmallVector<unsigned> indices;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    auto type = dyn_cast<RankedTensorType>(loop.getRegionIterArg(i).getType());
    if (!type || !isa<PointerType>(type.getElementType())) continue;
    auto next = yield.getOperand(i).getDefiningOp<AddPtrOp>();
    if (!next || next.getPtr() != loop.getRegionIterArg(i)) continue;
    auto step = next.getOffset().getDefiningOp();
    if (!step || !(isa<SplatOp>(step) || matchPattern(next.getOffset(), m_Constant()))) continue;
    indices.push_back(i);
  }
  return indices;
}

// tt.addptr %base, splat(%offset) with the base's shape.
Value Advance(OpBuilder& b, Location loc, Value base, Value offset) {
  auto type = cast<RankedTensorType>(base.getType());
  auto offsets = RankedTensorType::get(type.getShape(), offset.getType());
  Value splat = b.create<SplatOp>(loc, offsets, offset);
  return b.create<AddPtrOp>(loc, type, base, splat);
}

void CarryOffsets(scf::ForOp loop, ArrayRef<unsigned> pointers) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value zero = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(0));
  SmallVector<Value> inits(loop.getInitArgs());
  for (unsigned i : pointers) inits[i] = zero;
  auto carried =
      b.create<scf::ForOp>(loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep(), inits);
  Block* body = carried.getBody();
  // A body built with iteration arguments has no terminator yet; the old one moves in.
  if (!body->empty()) body->getTerminator()->erase();

  b.setInsertionPointToStart(body);
  SmallVector<Value> arguments = {carried.getInductionVar()};
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    Value argument = carried.getRegionIterArg(i);
    arguments.push_back(llvm::is_contained(pointers, i)
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
  for (unsigned i : pointers) {
    auto next = yield.getOperand(i).getDefiningOp<AddPtrOp>();
    Value step = UniformStep(next.getOffset(), b);
    if (!step.getType().isInteger(64)) {
      step = b.create<arith::ExtSIOp>(loc, b.getI64Type(), step);
    }
    yield->setOperand(i, b.create<arith::AddIOp>(loc, carried.getRegionIterArg(i), step));
    if (next->use_empty()) next->erase();
  }

  b.setInsertionPointAfter(carried);
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    Value result = carried.getResult(i);
    if (llvm::is_contained(pointers, i)) result = Advance(b, loc, loop.getInitArgs()[i], result);
    loop.getResult(i).replaceAllUsesWith(result);
  }
  loop->erase();
}

struct TTLoopPointersToOffsets : impl::TTLoopPointersToOffsetsBase<TTLoopPointersToOffsets> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      SmallVector<unsigned> pointers = PointerArguments(loop);
      if (!pointers.empty()) CarryOffsets(loop, pointers);
    }
  }
};

}  // namespace
}  // namespace loop_pointers_to_offsets
}  // namespace mlir::tt
