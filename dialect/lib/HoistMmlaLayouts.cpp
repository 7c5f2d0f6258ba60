// --tcpu-hoist-mmla-layouts: an scf.for accumulator that every iteration rearranges into SMMLA
// blocks (tcpu.to_mmla_blocks) and back (tcpu.from_mmla_blocks at the yield) is carried in
// blocks instead; the two conversions run once, before and after the loop. Inner loops go
// first, so a K loop nested in another loop hands its blocks outwards.
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
// of the argument converts it to blocks with one stride, and the yield converts back.
struct LoopLayout {
  SmallVector<ToMmlaBlocksOp> to_blocks;
  FromMmlaBlocksOp from_blocks;
};

std::optional<LoopLayout> FindLoopLayout(scf::ForOp loop, unsigned index) {
  BlockArgument argument = loop.getRegionIterArg(index);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto from_blocks = yield.getOperand(index).getDefiningOp<FromMmlaBlocksOp>();
  if (!from_blocks || argument.use_empty()) return std::nullopt;
  LoopLayout layout{{}, from_blocks};
  for (Operation* user : argument.getUsers()) {
    auto to_blocks = dyn_cast<ToMmlaBlocksOp>(user);
    if (!to_blocks || to_blocks.getColumnStride() != from_blocks.getColumnStride() ||
        to_blocks.getResult().getType() != from_blocks.getSource().getType()) {
      return std::nullopt;
    }
    layout.to_blocks.push_back(to_blocks);
  }
  return layout;
}

void CarryBlocks(scf::ForOp loop, unsigned index, LoopLayout layout) {
  IntegerAttr stride = layout.from_blocks.getColumnStrideAttr();
  VectorType blocks = layout.from_blocks.getSource().getType();
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
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  yield->setOperand(index, layout.from_blocks.getSource());
  if (layout.from_blocks->use_empty()) layout.from_blocks->erase();

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
