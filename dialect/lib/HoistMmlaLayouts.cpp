// --tcpu-hoist-mmla-layouts: an scf.for accumulator that every iteration rearranges into SMMLA
// blocks (tcpu.to_mmla_blocks) and back (tcpu.from_mmla_blocks at the yield) is carried in
// blocks instead; the two conversions run once, before and after the loop. Inner loops go
// first, so a K loop nested in another loop hands its blocks outwards. A loop body versioned
// by tt-version-masked-loops yields the blocks from both branches of its scf.if.
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {

#define GEN_PASS_DEF_TCPUHOISTMMLALAYOUTS
#include "tcpu/TcpuPasses.h.inc"

namespace {

// The conversions of iteration argument `index` when they can move out of `loop`: every use
// of the argument converts it to blocks with one stride, and the yield converts back, itself
// or in both branches of the scf.if that yields the value (a versioned loop body).
struct LoopLayout {
  SmallVector<ToMmlaBlocksOp> to_blocks;
  SmallVector<FromMmlaBlocksOp> from_blocks;
  scf::IfOp branch;  // the if whose result `branch_result` the loop yields, or null
  unsigned branch_result = 0;
};

std::optional<LoopLayout> FindLoopLayout(scf::ForOp loop, unsigned index) {
  BlockArgument argument = loop.getRegionIterArg(index);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value yielded = yield.getOperand(index);
  LoopLayout layout;
  if (auto from_blocks = yielded.getDefiningOp<FromMmlaBlocksOp>()) {
    layout.from_blocks.push_back(from_blocks);
  } else if (auto branch = yielded.getDefiningOp<scf::IfOp>()) {
    unsigned result = cast<OpResult>(yielded).getResultNumber();
    for (Region* region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
      if (region->empty()) return std::nullopt;
      auto branch_yield = cast<scf::YieldOp>(region->front().getTerminator());
      auto from_blocks = branch_yield.getOperand(result).getDefiningOp<FromMmlaBlocksOp>();
      if (!from_blocks) return std::nullopt;
      layout.from_blocks.push_back(from_blocks);
    }
    layout.branch = branch;
    layout.branch_result = result;
  }
  if (layout.from_blocks.empty() || argument.use_empty()) return std::nullopt;
  FromMmlaBlocksOp model = layout.from_blocks.front();
  for (FromMmlaBlocksOp from_blocks : layout.from_blocks) {
    if (from_blocks.getColumnStride() != model.getColumnStride() ||
        from_blocks.getSource().getType() != model.getSource().getType()) {
      return std::nullopt;
    }
  }
  for (Operation* user : argument.getUsers()) {
    auto to_blocks = dyn_cast<ToMmlaBlocksOp>(user);
    if (!to_blocks || to_blocks.getColumnStride() != model.getColumnStride() ||
        to_blocks.getResult().getType() != model.getSource().getType()) {
      return std::nullopt;
    }
    layout.to_blocks.push_back(to_blocks);
  }
  return layout;
}

void CarryBlocks(scf::ForOp loop, unsigned index, LoopLayout layout) {
  FromMmlaBlocksOp model = layout.from_blocks.front();
  IntegerAttr stride = model.getColumnStrideAttr();
  VectorType blocks = model.getSource().getType();
  Location loc = loop.getLoc();

  OpBuilder before(loop);
  OpOperand& init = loop.getInitArgsMutable()[index];
  init.set(before.create<ToMmlaBlocksOp>(loc, blocks, init.get(), stride));

  BlockArgument argument = loop.getRegionIterArg(index);
  argument.setType(blocks);
  for (ToMmlaBlocksOp to_blocks : layout.to_blocks) {
    to_blocks.getResult().replaceAllUsesWith(argument);
    to_blocks->erase();
  }
  // The blocks themselves are yielded (by the branches, and the if's result is blocks).
  for (FromMmlaBlocksOp from_blocks : layout.from_blocks) {
    Operation* yield = from_blocks->getBlock()->getTerminator();
    for (OpOperand& operand : yield->getOpOperands()) {
      if (operand.get() == from_blocks.getResult()) operand.set(from_blocks.getSource());
    }
  }
  if (layout.branch) layout.branch->getResult(layout.branch_result).setType(blocks);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (!layout.branch) yield->setOperand(index, model.getSource());
  for (FromMmlaBlocksOp from_blocks : layout.from_blocks) {
    if (from_blocks->use_empty()) from_blocks->erase();
  }

  Value result = loop.getResult(index);
  Type rows = result.getType();
  result.setType(blocks);
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(loop);
  auto back = after.create<FromMmlaBlocksOp>(loc, rows, result, stride);
  result.replaceAllUsesExcept(back, back);
}

class HoistMmlaLayoutsPass : public impl::TcpuHoistMmlaLayoutsBase<HoistMmlaLayoutsPass> {
 public:
  void runOnOperation() override {
    // walk() visits nested loops before the loops holding them.
    getOperation().walk([](scf::ForOp loop) {
      for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index) {
        if (std::optional<LoopLayout> layout = FindLoopLayout(loop, index)) {
          CarryBlocks(loop, index, *layout);
        }
      }
    });
  }
};

}  // namespace
}  // namespace mlir::tcpu
