// --tcpu-hoist-mmla-layouts: a loop accumulator that every iteration rearranges into SMMLA
// blocks (tcpu.to_mmla_blocks) and back (tcpu.from_mmla_blocks at the yield) is carried in
// blocks instead; the two conversions run once, before and after the loop. Inner loops go
// first, so a K loop nested in another loop hands its blocks outwards. Loops are scf.for (its
// body possibly versioned per iteration by tt-version-masked-loops: both branches of the
// scf.if convert back) and the do-while scf.while of unmasked iterations that the same pass
// puts before a K loop. A conversion of an scf.if's result moves into its branches, so that
// the accumulator the unmasked loop hands to the loop that finishes stays in blocks.
#include "LoopCarried.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {

#define GEN_PASS_DEF_TCPUHOISTMMLALAYOUTS
#include "tcpu/TcpuPasses.h.inc"

namespace hoist_mmla_layouts {
namespace {

// The conversions of `value` when they can move out of its loop: every use in the body
// converts it to blocks with one stride, the yield converts back (itself, or in both branches
// of the scf.if whose result it yields: a body versioned per iteration), and (scf.while) the
// other region only forwards it.
struct Layout {
  SmallVector<ToMmlaBlocksOp> to_blocks;
  SmallVector<FromMmlaBlocksOp> from_blocks;
  scf::IfOp branch;  // the if whose result `branch_result` is yielded, or null
  unsigned branch_result = 0;
};

std::optional<Layout> FindLayout(const Carried& value) {
  Layout layout;
  Value yielded = value.yielded->get();
  if (auto from_blocks = yielded.getDefiningOp<FromMmlaBlocksOp>()) {
    layout.from_blocks.push_back(from_blocks);
  } else if (auto branch = yielded.getDefiningOp<scf::IfOp>()) {
    unsigned result = cast<OpResult>(yielded).getResultNumber();
    for (Region* region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
      if (region->empty()) return std::nullopt;
      Value branch_yielded = region->front().getTerminator()->getOperand(result);
      auto from_blocks = branch_yielded.getDefiningOp<FromMmlaBlocksOp>();
      if (!from_blocks) return std::nullopt;
      layout.from_blocks.push_back(from_blocks);
    }
    layout.branch = branch;
    layout.branch_result = result;
  }
  if (layout.from_blocks.empty() || value.argument.use_empty()) return std::nullopt;
  if (value.forwarded && !value.forwarded->hasOneUse()) return std::nullopt;
  FromMmlaBlocksOp model = layout.from_blocks.front();
  for (FromMmlaBlocksOp from_blocks : layout.from_blocks) {
    if (from_blocks.getColumnStride() != model.getColumnStride() ||
        from_blocks.getSource().getType() != model.getSource().getType()) {
      return std::nullopt;
    }
  }
  for (Operation* user : value.argument.getUsers()) {
    auto to_blocks = dyn_cast<ToMmlaBlocksOp>(user);
    if (!to_blocks || to_blocks.getColumnStride() != model.getColumnStride() ||
        to_blocks.getResult().getType() != model.getSource().getType()) {
      return std::nullopt;
    }
    layout.to_blocks.push_back(to_blocks);
  }
  return layout;
}

void CarryBlocks(Operation* loop, Carried value, const Layout& layout) {
  FromMmlaBlocksOp model = layout.from_blocks.front();
  IntegerAttr stride = model.getColumnStrideAttr();
  VectorType blocks = model.getSource().getType();
  Location loc = loop->getLoc();

  OpBuilder before(loop);
  value.init->set(before.create<ToMmlaBlocksOp>(loc, blocks, value.init->get(), stride));
  value.argument.setType(blocks);
  if (value.forwarded) value.forwarded->setType(blocks);
  for (ToMmlaBlocksOp to_blocks : layout.to_blocks) {
    to_blocks.getResult().replaceAllUsesWith(value.argument);
    to_blocks->erase();
  }
  // The blocks themselves are yielded (by the branches, and the if's result is blocks).
  for (FromMmlaBlocksOp from_blocks : layout.from_blocks) {
    for (OpOperand& operand : from_blocks->getBlock()->getTerminator()->getOpOperands()) {
      if (operand.get() == from_blocks.getResult()) operand.set(from_blocks.getSource());
    }
  }
  if (layout.branch) layout.branch->getResult(layout.branch_result).setType(blocks);
  for (FromMmlaBlocksOp from_blocks : layout.from_blocks) {
    if (from_blocks->use_empty()) from_blocks->erase();
  }

  Type rows = value.result.getType();
  value.result.setType(blocks);
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(loop);
  auto back = after.create<FromMmlaBlocksOp>(loc, rows, value.result, stride);
  value.result.replaceAllUsesExcept(back, back);
}

void HoistLayouts(Operation* loop, ArrayRef<Carried> values) {
  for (Carried value : values) {
    if (std::optional<Layout> layout = FindLayout(value)) CarryBlocks(loop, value, *layout);
  }
}

// `to_blocks` of an scf.if result that nothing else uses converts in each branch instead, where
// a branch that converted from blocks last (the unmasked loop of a K loop split in two, handing
// its accumulator to the loop that finishes) folds the pair away. Only for tiled blocks, the
// accumulators kept in a stack buffer (for blocks in registers LLVM allocated the unmasked
// loop worse: 12% more instructions in the linear layer's).
void ConvertInBranches(ToMmlaBlocksOp to_blocks) {
  if (to_blocks.getType().getRank() != 4) return;
  auto result = dyn_cast<OpResult>(to_blocks.getSource());
  auto branch = result ? dyn_cast<scf::IfOp>(result.getOwner()) : nullptr;
  if (!branch || branch.getElseRegion().empty() || !result.hasOneUse()) return;
  unsigned i = result.getResultNumber();
  for (Region* region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
    Operation* yield = region->front().getTerminator();
    OpBuilder b(yield);
    // (Folded as it is built: the pair goes before tcpu-carry-in-buffers looks at the yield.)
    yield->setOperand(
        i, b.createOrFold<ToMmlaBlocksOp>(to_blocks.getLoc(), to_blocks.getType(),
                                          yield->getOperand(i), to_blocks.getColumnStrideAttr()));
  }
  result.setType(to_blocks.getType());
  to_blocks.getResult().replaceAllUsesWith(result);
  to_blocks->erase();
}

class HoistMmlaLayoutsPass : public impl::TcpuHoistMmlaLayoutsBase<HoistMmlaLayoutsPass> {
 public:
  void runOnOperation() override {
    // walk() visits nested loops before the loops holding them.
    getOperation().walk([](Operation* op) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) HoistLayouts(loop, CarriedValues(loop));
      if (auto loop = dyn_cast<scf::WhileOp>(op)) HoistLayouts(loop, CarriedValues(loop));
    });
    SmallVector<ToMmlaBlocksOp> conversions;
    getOperation().walk([&](ToMmlaBlocksOp op) { conversions.push_back(op); });
    for (ToMmlaBlocksOp op : conversions) ConvertInBranches(op);
  }
};

}  // namespace
}  // namespace hoist_mmla_layouts
}  // namespace mlir::tcpu
