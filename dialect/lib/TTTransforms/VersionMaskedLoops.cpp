// tt-version-masked-loops: a K loop, or a loop carrying little (the slices of
// tt-split-wide-loops), whose masked loads and stores have range-versus-bound masks runs its
// iterations unmasked while every mask is on (TTToTcpuPasses.td): as a do-while loop of their
// own before the original loop when the carried tensors fit the registers, else by versioning
// the body per iteration. The test is the memory lowering's scalar whole-mask test
// (MaskBounds.h), built once per iteration; in the unmasked copy the masks are constants.
#include <algorithm>

#include "dialect/lib/TTToTcpu/DotPath.h"
#include "dialect/lib/TTToTcpu/LaneValues.h"
#include "dialect/lib/TTToTcpu/MaskBounds.h"
#include "dialect/lib/TTTransforms/ReduceCombiners.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tt/Analysis/Contiguity.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTVERSIONMASKEDLOOPS
#include "tt/TTToTcpuPasses.h.inc"

namespace version_masked_loops {
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

// The ops of `block` that compute `masks`, in block order, when all of them are pure and
// depend on nothing of the block but the induction variable and the iteration arguments;
// nullopt otherwise.
std::optional<SmallVector<Operation*>> MaskComputations(Block* block, ArrayRef<Value> masks) {
  SmallVector<Value> work(masks.begin(), masks.end());
  llvm::SetVector<Operation*> slice;
  while (!work.empty()) {
    Operation* definition = work.pop_back_val().getDefiningOp();
    if (!definition || definition->getBlock() != block) continue;
    if (!isPure(definition) || definition->getNumRegions() != 0) return std::nullopt;
    if (!slice.insert(definition)) continue;
    for (Value operand : definition->getOperands()) work.push_back(operand);
  }
  SmallVector<Operation*> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation* a, Operation* b) { return a->isBeforeInBlock(b); });
  return ordered;
}

// An accumulator larger than this many 128-bit registers lives in memory whichever way the
// loop is versioned; splitting its loop in two then only adds copies of it (measured: the
// tutorial matmul's 16x32 int32 tile, 128 registers, 15% more instructions split than
// versioned per iteration). The linear layer's 8x8 tile (16 registers) gained 21% split.
constexpr int64_t kSplitMaxCarriedRegisters = 16;

bool CarriesInRegisters(scf::ForOp loop) {
  int64_t bits = 0;
  for (Type type : loop.getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor) continue;
    Type element = tensor.getElementType();
    bits +=
        tensor.getNumElements() * (element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64);
  }
  return bits <= kSplitMaxCarriedRegisters * 128;
}

// A K loop whose int8 or bf16 dot keeps its SMMLA / BFMMLA accumulator in a stack buffer
// (MmlaTiles.h) reads and writes that buffer, 128 registers for the tutorial matmul's 16x32
// tile, in every iteration. Its unmasked iterations run several at a time, as many as make
// kSummedDepth of k: tt-to-tcpu-dot sums their dots into one that deep (each element's
// additions in the loop's order, so floats round as the loop would), whose tiles go through
// the buffer once for all of them, each running its chunks as a loop. The edge iterations and
// the rest of a run are the original loop's, so a K loop of fewer iterations than a run never
// sums. Measured on SMMLA: 256 k at a time (32 instructions' k) made the int8 tutorial matmul
// (BLOCK_K 32, K 2048) 1.49x tcpu_gemm_i8's instructions, 128 k 1.53x; but a split-K matmul's
// programs run 4 steps of 32 (K 512 in 4 splits), which only runs of 128 k sum: its 32x32
// tiles 46,197 instructions a program instead of 50,827 (-9.1%), the tutorial's +2.3%. On
// BFMMLA 128 k (32 instructions' k).
constexpr int64_t kSummedDepth = 128;

// The trip count of `loop` when its bounds are constants.
std::optional<int64_t> TripCount(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0) return std::nullopt;
  return std::max<int64_t>(0, (*upper - *lower + *step - 1) / *step);
}

// How many unmasked iterations of `loop` run at a time: kSummedDepth over the k its in-memory
// SMMLA or BFMMLA dots add per iteration (several dots when tt-strip-mine-tiles chained a
// dot's K chunks), or 1.
int64_t SummedSteps(scf::ForOp loop) {
  int64_t depth = 0;
  for (Operation& op : loop.getBody()->without_terminator()) {
    auto dot = dyn_cast<DotOp>(op);
    if (!dot || !accumulatesMmlaInMemory(dot)) continue;
    depth += cast<RankedTensorType>(dot.getA().getType()).getDimSize(1);
  }
  if (depth == 0) return 1;
  return std::max<int64_t>(1, kSummedDepth / depth);
}

// Whether one of the mask computations reads an iteration argument of `loop`.
bool DependsOnIterationArguments(scf::ForOp loop, ArrayRef<Operation*> computations) {
  for (Operation* op : computations) {
    for (Value operand : op->getOperands()) {
      if (llvm::is_contained(loop.getRegionIterArgs(), operand)) return true;
    }
  }
  return false;
}

// Worth a second copy of the body: a dot's K loop, whose masks cost more than anything the two
// copies share, and a loop whose carried tensors fit the registers (split, the unmasked loop
// carries them in registers). Measured: layer norm's column loops, split into 32-lane slices
// first, 26% fewer instructions (their select on the mask folds away too); softmax's row loop
// 4%. Versioned per iteration, layer norm's 256-wide accumulator spilled where the versions
// joined (3-15% slower), so wide loops without a dot are left alone. A loop around a K loop
// (tt-strip-mine-tiles' chunk loops over a tile, a persistent kernel's tile loop) is not: its
// own masked accesses (a tile's store) cost little beside the K loop, which a second copy of
// the body would duplicate with its versions and summed dots (tutorial 03 at 128x256x64 in
// bf16 compiled twice as long for 0.5% fewer instructions).
bool WorthVersioning(scf::ForOp loop) {
  bool has_dot = false, dot_in_inner_loop = false;
  loop.getBody()->walk([&](DotOp dot) {
    has_dot = true;
    for (Operation* parent = dot->getParentOp(); parent != loop; parent = parent->getParentOp()) {
      if (isa<LoopLikeOpInterface>(parent)) dot_in_inner_loop = true;
    }
  });
  if (dot_in_inner_loop) return false;
  return has_dot || CarriesInRegisters(loop);
}

// Inside `region`, which runs only when every one of `masks` is on and holds the body as
// cloned by `clones`, each use of a mask's clone is replaced by a constant true, so what else
// the body computes from it (an arith.select that zeroes the lanes past the end, say) folds
// away too.
void AssumeMasksOn(OpBuilder& b, Region& region, ArrayRef<Value> masks, const IRMapping& clones) {
  llvm::SetVector<Value> cloned;
  for (Value mask : masks) cloned.insert(clones.lookupOrDefault(mask));
  for (Value mask : cloned) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&region.front());
    Type type = mask.getType();
    TypedAttr on = isa<ShapedType>(type)
                       ? TypedAttr(DenseElementsAttr::get(cast<ShapedType>(type), true))
                       : TypedAttr(b.getBoolAttr(true));
    Value all_on = b.create<arith::ConstantOp>(mask.getLoc(), type, on);
    mask.replaceUsesWithIf(all_on, [&](OpOperand& use) {
      return region.isAncestor(use.getOwner()->getParentRegion());
    });
  }
}

// The body from the first masked access on runs as
// `scf.if %every_mask_on { the same ops, unmasked } else { the original ops }`.
void VersionEachIteration(scf::ForOp loop, ArrayRef<Operation*> accesses, ArrayRef<Value> masks,
                          ArrayRef<Operation*> computations) {
  Block* body = loop.getBody();
  Operation* first = accesses.front();
  Location loc = first->getLoc();
  OpBuilder b(first);
  // The masks' computations (pure) are built again above the first access; CSE merges them.
  IRMapping above;
  for (Operation* op : computations) b.clone(*op, above);
  Value every_mask_on;
  for (Value mask : masks) {
    Value on = buildScalarAllOn(b, loc, above.lookupOrDefault(mask));
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
  AssumeMasksOn(then, branch.getThenRegion(), masks, clones);
  Block* otherwise = &branch.getElseRegion().front();
  for (Operation* op : tail) op->moveBefore(otherwise, otherwise->end());
  OpBuilder::atBlockEnd(otherwise).create<scf::YieldOp>(loc, yield.getOperands());
  yield->setOperands(branch.getResults());
}

// The unmasked iterations run first, as a loop of their own, `steps` at a time (the body of
// `source`, `loop` or a copy of it with the same induction variable and iteration arguments,
// cloned `steps` times; `accesses`, `masks` and `computations` are of that body); `loop`
// finishes the rest. With more than one step, the masks must depend on no iteration argument
// (the test of an iteration ahead computes them from the induction value alone).
void SplitOffUnmaskedIterations(scf::ForOp loop, scf::ForOp source, ArrayRef<Operation*> accesses,
                                ArrayRef<Value> masks, ArrayRef<Operation*> computations,
                                int64_t steps, Value in_range = {}) {
  Block* body = source.getBody();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  SmallVector<Type> types{loop.getInductionVar().getType()};
  SmallVector<Value> inits{loop.getLowerBound()};
  llvm::append_range(types, loop.getResultTypes());
  llvm::append_range(inits, loop.getInitArgs());
  SmallVector<Location> locs(types.size(), loc);
  // The induction value `step` iterations after `iv`.
  auto ahead = [&](Value iv, int64_t step) -> Value {
    if (step == 0) return iv;
    if (step == 1) return b.create<arith::AddIOp>(loc, iv, loop.getStep());
    Value count = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(iv.getType(), step));
    return b.create<arith::AddIOp>(loc, iv,
                                   b.createOrFold<arith::MulIOp>(loc, loop.getStep(), count));
  };
  // Whether the `steps` iterations from `state` (induction value, then iteration arguments)
  // are in range with every mask on.
  auto runs_unmasked = [&](ValueRange state) {
    Value iv = state.front();
    Value on = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iv, loop.getUpperBound());
    if (in_range) on = b.create<arith::AndIOp>(loc, on, in_range);
    if (steps > 1) {
      // The last of them in range, counted without overflow: ub - iv > (steps - 1) * step.
      Type wide = b.getI64Type();
      auto widen = [&](Value v) -> Value {
        if (v.getType() == wide) return v;
        if (v.getType().isIndex()) return b.create<arith::IndexCastOp>(loc, wide, v);
        return b.create<arith::ExtSIOp>(loc, wide, v);
      };
      Value left = b.create<arith::SubIOp>(loc, widen(loop.getUpperBound()), widen(iv));
      Value span =
          b.create<arith::MulIOp>(loc, widen(loop.getStep()),
                                  b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(steps - 1)));
      on = b.create<arith::AndIOp>(
          loc, on, b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, left, span));
    }
    for (int64_t step = 0; step < steps; ++step) {
      IRMapping map;
      map.map(source.getInductionVar(), ahead(iv, step));
      map.map(source.getRegionIterArgs(), state.drop_front());
      for (Operation* op : computations) b.clone(*op, map);
      for (Value mask : masks) {
        on = b.create<arith::AndIOp>(loc, on, buildScalarAllOn(b, loc, map.lookupOrDefault(mask)));
      }
    }
    return on;
  };

  // if (first iteration unmasked) { do { unmasked body } while (next iteration unmasked) }:
  // the body and the test of the next iteration form one block, so the loop's carried values
  // pass through no second block (a 128-register accumulator would be copied there).
  auto guard = b.create<scf::IfOp>(loc, types, runs_unmasked(inits), /*withElseRegion=*/true);
  b.setInsertionPointToStart(&guard.getElseRegion().front());
  b.create<scf::YieldOp>(loc, inits);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  auto unmasked = b.create<scf::WhileOp>(loc, types, inits);
  b.create<scf::YieldOp>(loc, unmasked.getResults());

  Block* body_block = b.createBlock(&unmasked.getBefore(), {}, types, locs);
  llvm::SmallPtrSet<Operation*, 8> versioned(accesses.begin(), accesses.end());
  SmallVector<Value> state(body_block->getArguments());
  for (int64_t step = 0; step < steps; ++step) {
    IRMapping clones;
    clones.map(source.getInductionVar(), ahead(body_block->getArgument(0), step));
    clones.map(source.getRegionIterArgs(), ArrayRef<Value>(state).drop_front());
    for (Operation& op : body->without_terminator()) {
      Operation* clone = b.clone(op, clones);
      if (versioned.contains(&op)) Unmask(clone);
    }
    AssumeMasksOn(b, unmasked.getBefore(), masks, clones);
    state.resize(1);
    for (Value value : body->getTerminator()->getOperands()) {
      state.push_back(clones.lookupOrDefault(value));
    }
  }
  SmallVector<Value> next{ahead(body_block->getArgument(0), steps)};
  llvm::append_range(next, ArrayRef<Value>(state).drop_front());
  b.create<scf::ConditionOp>(loc, runs_unmasked(next), next);
  Block* forward = b.createBlock(&unmasked.getAfter(), {}, types, locs);
  b.create<scf::YieldOp>(loc, forward->getArguments());

  // The original loop finishes from where the unmasked one stopped (the edge iterations).
  loop.getLowerBoundMutable().assign(guard.getResult(0));
  loop.getInitArgsMutable().assign(guard.getResults().drop_front());
}

// The loads and stores of `body` whose masks have a scalar whole-mask test, and those masks;
// with them, the conditions of the body's selects that have such a test and are computed from
// the loop's arguments alone (`tl.where(mask, x, 0.0)`, as layer norm backward zeroes the
// lanes past the row's end, on a copy of the loads' mask that tt-strip-mine-tiles keeps
// apart): the unmasked copy then takes the selected values. Measured on tutorial 05 backward's
// 4096-lane row: its sums loop 15.5 -> 10.5 instructions a vector (static count).
void MaskedAccesses(Block* body, SmallVector<Operation*>& accesses, SmallVector<Value>& masks) {
  for (Operation& op : body->without_terminator()) {
    Value mask = MaskOf(&op);
    if (!mask || !hasScalarAllOn(mask)) continue;
    accesses.push_back(&op);
    masks.push_back(mask);
  }
  if (accesses.empty()) return;
  for (auto select : body->getOps<arith::SelectOp>()) {
    Value condition = select.getCondition();
    // Rows only: a splat condition is one choice for every lane, not a mask, and the tests of
    // 2-D masks (attention's causal and bounds masks on its scores) cost more per iteration
    // than their selects (attention over device descriptors: +0.3%).
    auto type = dyn_cast<RankedTensorType>(condition.getType());
    if (!type || type.getRank() != 1 || condition.getDefiningOp<SplatOp>() ||
        llvm::is_contained(masks, condition) ||
        !hasScalarAllOn(condition) || !MaskComputations(body, condition)) {
      continue;
    }
    masks.push_back(condition);
  }
}

// Index tensors defined before a K loop that wrap a range into bounds,
// `(offs + tl.arange(0, BLOCK)) % M` (tutorial 03's rows of a and columns of b), taken without
// the remainder inside the loop's unmasked copy, which runs only while every wrapped range lies
// in [0, M): the remainder is then the range itself, and the addresses built from it are affine
// along the range, so tt-to-tcpu-memory steps each row's address from the previous row's
// instead of LLVM hoisting every row's address out of the loop and spilling it.
class UnwrappedRanges {
 public:
  UnwrappedRanges(scf::ForOp loop, Block* body)
      : loop_(loop), body_(body), contiguity_(loop->getParentOp()) {}

  // Replaces, inside `body`, each operand defined outside the loop whose index chain holds such
  // a remainder by its chain rebuilt without it at the start of `body`; returns whether every
  // wrapped range lies in its bounds (built before the loop), or null when there is none.
  Value Unwrap() {
    SmallVector<OpOperand*> uses;
    Operation* copy = body_->getParentOp();
    body_->walk([&](Operation* op) {
      for (OpOperand& use : op->getOpOperands()) {
        Operation* definition = use.get().getDefiningOp();
        // Only values from before the loop: their chains, and the test of their lanes built
        // before the loop, use nothing the body defines.
        if (definition && !copy->isAncestor(definition) &&
            isa<RankedTensorType>(use.get().getType())) {
          uses.push_back(&use);
        }
      }
    });
    for (OpOperand* use : uses) {
      if (Value unwrapped = Unwrapped(use->get(), 0); unwrapped != use->get()) use->set(unwrapped);
    }
    return in_range_;
  }

 private:
  // Chains deeper than this are not index arithmetic.
  static constexpr int kMaxDepth = 16;

  Value Unwrapped(Value value, int depth) {
    if (auto known = unwrapped_.find(value); known != unwrapped_.end()) return known->second;
    Value result = value;
    Operation* op = value.getDefiningOp();
    if (op && depth <= kMaxDepth && isa<RankedTensorType>(value.getType()) &&
        op->getNumResults() == 1 && op->getNumRegions() == 0 && isPure(op)) {
      if (auto remainder = dyn_cast<arith::RemSIOp>(op); remainder && InBounds(remainder)) {
        result = remainder.getLhs();
      } else {
        IRMapping operands;
        bool changed = false;
        for (Value operand : op->getOperands()) {
          Value mapped = Unwrapped(operand, depth + 1);
          operands.map(operand, mapped);
          changed |= mapped != operand;
        }
        if (changed) {
          OpBuilder b = OpBuilder::atBlockBegin(body_);
          if (Operation* last = LastClone()) b.setInsertionPointAfter(last);
          Operation* clone = b.clone(*op, operands);
          clones_.push_back(clone);
          result = clone->getResult(0);
        }
      }
    }
    unwrapped_[value] = result;
    return result;
  }

  Operation* LastClone() const { return clones_.empty() ? nullptr : clones_.back(); }

  // For `remainder` = (offs + range) % splat(M) of rank 1: the test that its first lane is at
  // least 0, its last below M, and the first at most the last (no i32 wrap in between), ANDed
  // into in_range_; false for other remainders.
  bool InBounds(arith::RemSIOp remainder) {
    auto type = cast<RankedTensorType>(remainder.getType());
    auto splat = remainder.getRhs().getDefiningOp<SplatOp>();
    // Its lanes consecutive integers (`offs + tl.arange(0, 64)`, strip-mined:
    // `offs + (chunk + tl.arange(0, 64))`).
    if (type.getRank() != 1 || !splat ||
        contiguity_.lastDimContiguity(remainder.getLhs()) != type.getDimSize(0) ||
        !hasLaneValues(remainder.getLhs())) {
      return false;
    }
    OpBuilder b(loop_);
    Location loc = remainder.getLoc();
    auto lane = [&](int64_t position) {
      Value at = b.create<arith::ConstantIntOp>(loc, position, 32);
      return buildLaneValue(b, loc, remainder.getLhs(), ArrayRef<Value>{at});
    };
    Value first = lane(0), last = lane(type.getDimSize(0) - 1);
    if (!first || !last) return false;
    Value zero = b.create<arith::ConstantIntOp>(loc, 0, first.getType());
    Value in_range = b.create<arith::AndIOp>(
        loc, b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, first, zero),
        b.create<arith::AndIOp>(
            loc, b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, last, splat.getSrc()),
            b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, first, last)));
    in_range_ = in_range_ ? b.create<arith::AndIOp>(loc, in_range_, in_range) : in_range;
    return true;
  }

  scf::ForOp loop_;
  Block* body_;
  ContiguityAnalysis contiguity_;
  DenseMap<Value, Value> unwrapped_;
  SmallVector<Operation*> clones_;
  Value in_range_;
};

// A loop over a dot's K chunks (tt-strip-mine-tiles): constant bounds, at most
// kMaxUnrolledChunkTrips iterations, an in-memory SMMLA or BFMMLA dot in its body.
constexpr int64_t kMaxUnrolledChunkTrips = 8;

bool IsDotChunkLoop(scf::ForOp loop) {
  std::optional<int64_t> trips = TripCount(loop);
  if (!trips || *trips > kMaxUnrolledChunkTrips) return false;
  return llvm::any_of(loop.getBody()->without_terminator(), [](Operation& op) {
    auto dot = dyn_cast<DotOp>(op);
    return dot && accumulatesMmlaInMemory(dot);
  });
}

// Replaces `loop` (constant bounds) by its iterations one after another.
void UnrollFully(scf::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  int64_t lower = *getConstantIntValue(loop.getLowerBound());
  int64_t step = *getConstantIntValue(loop.getStep());
  Type index = loop.getInductionVar().getType();
  SmallVector<Value> state(loop.getInitArgs());
  for (int64_t trip = 0; trip < *TripCount(loop); ++trip) {
    IRMapping map;
    map.map(loop.getInductionVar(),
            b.create<arith::ConstantOp>(loc, b.getIntegerAttr(index, lower + trip * step)));
    map.map(loop.getRegionIterArgs(), state);
    for (Operation& op : loop.getBody()->without_terminator()) b.clone(op, map);
    state.clear();
    for (Value value : loop.getBody()->getTerminator()->getOperands()) {
      state.push_back(map.lookupOrDefault(value));
    }
  }
  loop.replaceAllUsesWith(state);
  loop.erase();
}

// A K loop whose dot tt-strip-mine-tiles split into a loop over K chunks
// (`for k { for chunk { loads; dot } }`, the tutorial matmul at 128x256x64) sums its
// unmasked iterations as a K loop with the dot in its body does: the unmasked loop runs a copy
// of the body with the chunk loops unrolled, so every chunk's dot of every step is one chain,
// summed by tt-to-tcpu-dot into one dot kSummedDepth deep. The original loop keeps its
// chunk loops (one dot's code, not one per chunk) for the edge iterations.
void SumChunkLoops(scf::ForOp loop) {
  SmallVector<int64_t> positions;
  for (auto [position, op] : llvm::enumerate(loop.getBody()->without_terminator())) {
    if (auto inner = dyn_cast<scf::ForOp>(op); inner && IsDotChunkLoop(inner)) {
      positions.push_back(position);
    }
  }
  if (positions.empty()) return;
  OpBuilder b(loop);
  auto copy = cast<scf::ForOp>(b.clone(*loop));
  SmallVector<Operation*> ops;
  for (Operation& op : copy.getBody()->without_terminator()) ops.push_back(&op);
  for (int64_t position : positions) UnrollFully(cast<scf::ForOp>(ops[position]));
  SmallVector<Operation*> accesses;
  SmallVector<Value> masks;
  MaskedAccesses(copy.getBody(), accesses, masks);
  std::optional<SmallVector<Operation*>> computations = MaskComputations(copy.getBody(), masks);
  int64_t steps = SummedSteps(copy);
  if (!accesses.empty() && computations && steps > 1 &&
      !DependsOnIterationArguments(copy, *computations)) {
    Value in_range = UnwrappedRanges(loop, copy.getBody()).Unwrap();
    SplitOffUnmaskedIterations(loop, copy, accesses, masks, *computations, steps, in_range);
  }
  copy.erase();
}

// An iteration whose loads are wholly masked off computes its results from their `other`
// values: tutorial 05's dw/db loads a 32-row chunk of partial sums past the rows as zeros and
// adds their column sums to its accumulators. When nothing else in the body has an effect (no
// store, atomic, assert or print) and every load the results depend on has a constant `other`
// and a mask with a scalar test, such an iteration runs
// `scf.if (every such mask off) { the results' ops, each load its other } else { the body }`:
// the same values (a reduction of a constant tile is that constant for max and min, and for
// an addition of zeros), without the loads.
class MaskedOffIterations {
 public:
  // Whether `loop`'s body has that form; its loads' masks are then masks().
  bool Analyse(scf::ForOp loop) {
    loads_.clear();
    constant_reduces_.clear();
    slice_.clear();
    Block* body = loop.getBody();
    SmallVector<Value> work(body->getTerminator()->getOperands());
    llvm::SetVector<Operation*> slice;
    while (!work.empty()) {
      Operation* op = work.pop_back_val().getDefiningOp();
      if (!op || op->getBlock() != body || !slice.insert(op)) continue;
      if (auto load = dyn_cast<LoadOp>(op)) {
        if (!Skippable(load)) return false;
        loads_.push_back(load);
        continue;
      }
      // A dot stays in the body alone: a copy for the masked-off iterations would be as long
      // as the rest (tutorial 03 in f16: +9.6% instructions with its K loop's dot copied).
      if (!isPure(op) || isa<DotOp>(op)) return false;
      for (Value operand : op->getOperands()) work.push_back(operand);
    }
    if (loads_.empty()) return false;
    for (Operation& op : body->without_terminator()) {
      if (isa<LoadOp>(op)) continue;
      if (!isPure(&op) || !(op.getNumRegions() == 0 || SelfContainedReduce(&op))) return false;
    }
    for (Operation* op : slice) {
      auto reduce = dyn_cast<ReduceOp>(op);
      if (reduce && reduce.getSrcs().size() == 1) {
        auto load = reduce.getSrcs()[0].getDefiningOp<LoadOp>();
        if (load && llvm::is_contained(loads_, load) && ReducesToItsElement(reduce, load)) {
          constant_reduces_.push_back(reduce);
        }
      }
    }
    slice_.assign(slice.begin(), slice.end());
    llvm::sort(slice_, [](Operation* a, Operation* b) { return a->isBeforeInBlock(b); });
    return true;
  }

  SmallVector<Value> masks() const {
    SmallVector<Value> masks;
    for (LoadOp load : loads_) masks.push_back(load.getMask());
    return masks;
  }

  // Wraps the body of the analysed `loop`: the masks' `computations` (which depend only on the
  // induction variable and the iteration arguments) are cloned before the test.
  void Skip(scf::ForOp loop, ArrayRef<Operation*> computations) {
    Block* body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    OpBuilder b(&body->front());
    Location loc = loop.getLoc();
    IRMapping clones;
    for (Operation* op : computations) b.clone(*op, clones);
    Value off;
    for (Value mask : masks()) {
      Value this_off = buildScalarAllOff(b, loc, clones.lookupOrDefault(mask));
      off = off ? b.create<arith::AndIOp>(loc, off, this_off).getResult() : this_off;
    }
    auto branch = b.create<scf::IfOp>(loc, loop.getResultTypes(), off, /*withElseRegion=*/true);
    OpBuilder then = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
    IRMapping others;
    for (LoadOp load : loads_) others.map(load.getResult(), Splat(then, loc, load, load.getType()));
    for (ReduceOp reduce : constant_reduces_) {
      auto load = reduce.getSrcs()[0].getDefiningOp<LoadOp>();
      others.map(reduce->getResult(0), Splat(then, loc, load, reduce->getResult(0).getType()));
    }
    for (Operation* op : slice_) {
      if (isa<LoadOp>(op) || others.contains(op->getResult(0))) continue;
      then.clone(*op, others);
    }
    SmallVector<Value> results;
    for (Value value : yield.getOperands()) results.push_back(others.lookupOrDefault(value));
    then.create<scf::YieldOp>(loc, results);
    Block& otherwise = branch.getElseRegion().front();
    otherwise.getOperations().splice(otherwise.end(), body->getOperations(),
                                     std::next(Block::iterator(branch)), Block::iterator(yield));
    OpBuilder::atBlockEnd(&otherwise).create<scf::YieldOp>(loc, yield.getOperands());
    yield->setOperands(branch.getResults());
  }

 private:
  // A tt.reduce whose combine region uses nothing from outside it (so cloning the op carries
  // everything it reads through its operands).
  static bool SelfContainedReduce(Operation* op) {
    if (!isa<ReduceOp>(op)) return false;
    WalkResult walk = op->walk([&](Operation* inner) {
      for (Value operand : inner->getOperands()) {
        Operation* owner = isa<BlockArgument>(operand)
                               ? cast<BlockArgument>(operand).getOwner()->getParentOp()
                               : operand.getDefiningOp();
        if (inner != op && (!owner || (owner != op && !op->isProperAncestor(owner)))) {
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return !walk.wasInterrupted();
  }

  static bool Skippable(LoadOp load) {
    DenseElementsAttr other;
    return load.getMask() && load.getOther() && hasScalarAllOn(load.getMask()) &&
           matchPattern(load.getOther(), m_Constant(&other)) && other.isSplat();
  }

  // Whether `reduce` of a tile every element of which is `load`'s other value gives that value:
  // max and min do, an addition does for zeros.
  static bool ReducesToItsElement(ReduceOp reduce, LoadOp load) {
    Operation* combiner = reduceCombinerOf(reduce);
    if (!combiner) return false;
    if (combineKindOf(combiner) == CombineKind::kIdempotent) return true;
    DenseElementsAttr other;
    matchPattern(load.getOther(), m_Constant(&other));
    Attribute element = other.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(element)) return f.getValue().isZero();
    auto i = dyn_cast<IntegerAttr>(element);
    return i && i.getValue().isZero();
  }

  // `load`'s other value as a constant of `type` (a scalar or a tensor).
  static Value Splat(OpBuilder& b, Location loc, LoadOp load, Type type) {
    DenseElementsAttr other;
    matchPattern(load.getOther(), m_Constant(&other));
    Attribute element = other.getSplatValue<Attribute>();
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      return b.create<arith::ConstantOp>(loc, DenseElementsAttr::get(tensor, element));
    }
    return b.create<arith::ConstantOp>(loc, cast<TypedAttr>(element));
  }

  SmallVector<LoadOp> loads_;
  SmallVector<ReduceOp> constant_reduces_;
  SmallVector<Operation*> slice_;
};

void Version(scf::ForOp loop) {
  if (!WorthVersioning(loop)) return;
  Block* body = loop.getBody();
  SmallVector<Operation*> accesses;
  SmallVector<Value> masks;
  MaskedAccesses(body, accesses, masks);
  if (accesses.empty()) return;
  std::optional<SmallVector<Operation*>> computations = MaskComputations(body, masks);
  if (!computations) return;
  if (CarriesInRegisters(loop)) {
    // Only a loop over a tile's chunks (constant bounds) has iterations wholly masked off: in
    // `for off in range(0, N, BLOCK)` masked by `off + arange < N` none is, and the test's
    // invariant part, hoisted before the loop, cost layer norm's slice loops 0.5%.
    const bool chunk_loop = TripCount(loop).has_value();
    SplitOffUnmaskedIterations(loop, loop, accesses, masks, *computations, /*steps=*/1);
    MaskedOffIterations masked_off;
    if (chunk_loop && masked_off.Analyse(loop)) {
      if (std::optional<SmallVector<Operation*>> computed =
              MaskComputations(loop.getBody(), masked_off.masks())) {
        masked_off.Skip(loop, *computed);
      }
    }
    return;
  }
  int64_t steps = SummedSteps(loop);
  std::optional<int64_t> trips = TripCount(loop);
  if (steps > 1 && (!trips || *trips >= steps) &&
      !DependsOnIterationArguments(loop, *computations)) {
    SplitOffUnmaskedIterations(loop, loop, accesses, masks, *computations, steps);
  }
  VersionEachIteration(loop, accesses, masks, *computations);
}

struct TTVersionMaskedLoops : impl::TTVersionMaskedLoopsBase<TTVersionMaskedLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    // The chunk loops' dots are summed from copies of their K loops' bodies made before
    // anything is versioned.
    for (scf::ForOp loop : loops) SumChunkLoops(loop);
    for (scf::ForOp loop : loops) Version(loop);
  }
};

}  // namespace
}  // namespace version_masked_loops
}  // namespace mlir::tt
