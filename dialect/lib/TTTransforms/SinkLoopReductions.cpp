// tt-sink-loop-reductions: a loop that accumulates whole tiles only to reduce them along an
// outer axis after it,
//
//   %acc = scf.for ... iter_args(%a = splat(c)) { ...; %n = arith.addf %a, %x; scf.yield %n }
//   %s = "tt.reduce"(%acc) <{axis = 0}> ({ arith.addf })
//
// reduces each iteration's tile instead and carries the reduced row:
//
//   %s = scf.for ... iter_args(%r = splat(c')) { ...; %n = arith.addf %r, reduce(%x); ... }
//
// A GPU holds tutorial 05's 256x256 dw and db accumulators in thousands of threads' registers;
// on a CPU two 256 KB tiles lived on the stack, loaded and stored every iteration. Reduced per
// iteration, the loop carries two 256-lane rows and each tile is summed down its columns as it
// is loaded (vertical vector adds). The sums are reassociated (the rows of each tile first),
// as Triton leaves a reduction's order to the compiler. Only reductions along an outer axis
// move: along the last axis, a per-iteration reduction is horizontal and costs what the
// element-wise accumulation did.
//
// The accumulation and the reduction must combine with the same operation: addition (the
// accumulator starting at zero) or max / min (starting anywhere: the start is kept as the
// reduced row's start, which max and min absorb however often it is counted).
#include "dialect/lib/TTTransforms/ReduceCombiners.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTSINKLOOPREDUCTIONS
#include "tt/TTToTcpuPasses.h.inc"

namespace sink_loop_reductions {
namespace {

// The splat start value of an accumulator, if its start allows sinking the reduction: any for
// max and min, zero for addition (a nonzero start would be counted once per reduced row).
std::optional<Attribute> SinkableStart(Value init, CombineKind kind) {
  DenseElementsAttr dense;
  if (!matchPattern(init, m_Constant(&dense)) || !dense.isSplat()) return std::nullopt;
  if (kind == CombineKind::kAdd) {
    Attribute value = dense.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(value); f && !f.getValue().isZero()) return std::nullopt;
    if (auto i = dyn_cast<IntegerAttr>(value); i && !i.getValue().isZero()) return std::nullopt;
  }
  return dense.getSplatValue<Attribute>();
}

// Sinks the reduction of result `index` of `loop` into its body when the pattern above holds.
bool SinkReduction(scf::ForOp loop, unsigned index) {
  Value result = loop.getResult(index);
  if (!result.hasOneUse()) return false;
  auto reduce = dyn_cast<ReduceOp>(*result.getUsers().begin());
  if (!reduce) return false;
  auto tile = cast<RankedTensorType>(result.getType());
  int64_t axis = reduce.getAxis();
  if (tile.getRank() < 2 || axis >= tile.getRank() - 1) return false;
  Operation* combiner = reduceCombinerOf(reduce);
  if (!combiner) return false;

  BlockArgument carried = loop.getRegionIterArg(index);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Operation* update = yield.getOperand(index).getDefiningOp();
  if (!update || update->getBlock() != loop.getBody() || !carried.hasOneUse() ||
      *carried.getUsers().begin() != update || !update->getResult(0).hasOneUse()) {
    return false;
  }
  if (update->getName() != combiner->getName() ||
      update->getAttrDictionary() != combiner->getAttrDictionary()) {
    return false;
  }
  Value tile_in = update->getOperand(0) == carried ? update->getOperand(1) : update->getOperand(0);
  if (tile_in == carried) return false;
  std::optional<Attribute> start = SinkableStart(loop.getInitArgs()[index], combineKindOf(update));
  if (!start) return false;

  auto row = cast<RankedTensorType>(reduce.getResult()[0].getType());
  OpBuilder b(loop);
  Value init = b.create<arith::ConstantOp>(loop.getLoc(), DenseElementsAttr::get(row, *start));
  loop.getInitArgsMutable()[index].assign(init);
  carried.setType(row);
  result.setType(row);

  b.setInsertionPoint(update);
  IRMapping mapping;
  mapping.map(reduce.getSrcs()[0], tile_in);
  Operation* partial = b.clone(*reduce, mapping);
  partial->setLoc(update->getLoc());
  update->setOperands(update->getOperand(0) == carried
                          ? ValueRange{carried, partial->getResult(0)}
                          : ValueRange{partial->getResult(0), carried});
  update->getResult(0).setType(row);

  reduce.getResult()[0].replaceAllUsesWith(result);
  reduce->erase();
  return true;
}

struct TTSinkLoopReductions : impl::TTSinkLoopReductionsBase<TTSinkLoopReductions> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      for (unsigned i = 0; i < loop.getNumResults(); ++i) SinkReduction(loop, i);
    }
  }
};

}  // namespace
}  // namespace sink_loop_reductions
}  // namespace mlir::tt
