// tt-version-masked-loops: an scf.for body whose masked loads and stores have range-versus-
// bound masks runs unmasked when every one of them is on (TTToTcpuPasses.td). The test is
// the memory lowering's scalar whole-mask test (MaskBounds.h), built once per iteration.
#include "MaskBounds.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTVERSIONMASKEDLOOPS
#include "tt/TTToTcpuPasses.h.inc"

namespace {

Value MaskOf(Operation* op) {
  if (auto load = dyn_cast<LoadOp>(op)) return load.getMask();
  if (auto store = dyn_cast<StoreOp>(op)) return store.getMask();
  return {};
}

void Unmask(Operation* op) {
  if (auto load = dyn_cast<LoadOp>(op)) {
    load.getMaskMutable().clear();
    load.getOtherMutable().clear();
  } else {
    cast<StoreOp>(op).getMaskMutable().clear();
  }
}

// The ops of `block` after `first` that compute `masks`, in block order, when all of them are
// pure and none depends on `first` or later effects; nullopt otherwise.
std::optional<SmallVector<Operation*>> MaskComputations(Block* block, Operation* first,
                                                        ArrayRef<Value> masks) {
  SmallVector<Value> work(masks.begin(), masks.end());
  llvm::SetVector<Operation*> slice;
  while (!work.empty()) {
    Operation* definition = work.pop_back_val().getDefiningOp();
    if (!definition || definition->getBlock() != block || definition->isBeforeInBlock(first)) {
      continue;
    }
    if (definition == first || !isPure(definition) || definition->getNumRegions() != 0) {
      return std::nullopt;
    }
    if (!slice.insert(definition)) continue;
    for (Value operand : definition->getOperands()) work.push_back(operand);
  }
  SmallVector<Operation*> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation* a, Operation* b) { return a->isBeforeInBlock(b); });
  return ordered;
}

// Worth a second copy of the body: a dot's K loop, whose masks cost more than anything the two
// versions join. Measured otherwise: layer norm's column loops got 3-15% slower versioned
// (its 256-wide accumulator is spilled where the versions join), softmax's row loop 3.6%
// faster; only dot loops are versioned until the join is handled.
bool WorthVersioning(scf::ForOp loop) {
  bool has_dot = false;
  loop.getBody()->walk([&](DotOp) { has_dot = true; });
  return has_dot;
}

void Version(scf::ForOp loop) {
  if (!WorthVersioning(loop)) return;
  Block* body = loop.getBody();
  SmallVector<Operation*> accesses;
  SmallVector<Value> masks;
  for (Operation& op : body->without_terminator()) {
    Value mask = MaskOf(&op);
    if (!mask || !hasScalarAllOn(mask)) continue;
    accesses.push_back(&op);
    masks.push_back(mask);
  }
  if (accesses.empty()) return;
  Operation* first = accesses.front();
  std::optional<SmallVector<Operation*>> computations = MaskComputations(body, first, masks);
  if (!computations) return;
  for (Operation* op : *computations) op->moveBefore(first);

  Location loc = first->getLoc();
  OpBuilder b(first);
  Value every_mask_on;
  for (Value mask : masks) {
    Value on = buildScalarAllOn(b, loc, mask);
    every_mask_on = every_mask_on ? b.create<arith::AndIOp>(loc, every_mask_on, on) : on;
  }
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Operation*> tail;
  for (Operation* op = first; op != yield.getOperation(); op = op->getNextNode()) {
    tail.push_back(op);
  }
  llvm::SmallPtrSet<Operation*, 8> versioned(accesses.begin(), accesses.end());
  // The if is placed first and filled afterwards: its else block takes the original tail.
  auto branch = b.create<scf::IfOp>(loc, yield.getOperandTypes(), every_mask_on,
                                    /*withElseRegion=*/true);
  // (An if without results comes with empty yields; the ones below replace them.)
  for (Region* region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
    if (!region->front().empty()) region->front().getTerminator()->erase();
  }
  OpBuilder then = OpBuilder::atBlockEnd(&branch.getThenRegion().front());
  IRMapping clones;
  for (Operation* op : tail) {
    Operation* clone = then.clone(*op, clones);
    if (versioned.contains(op)) Unmask(clone);
  }
  SmallVector<Value> results;
  for (Value value : yield.getOperands()) results.push_back(clones.lookupOrDefault(value));
  then.create<scf::YieldOp>(loc, results);
  Block* otherwise = &branch.getElseRegion().front();
  for (Operation* op : tail) op->moveBefore(otherwise, otherwise->end());
  OpBuilder::atBlockEnd(otherwise).create<scf::YieldOp>(loc, yield.getOperands());
  yield->setOperands(branch.getResults());
}

struct TTVersionMaskedLoops : impl::TTVersionMaskedLoopsBase<TTVersionMaskedLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) Version(loop);
  }
};

}  // namespace
}  // namespace mlir::tt
