// tt-split-wide-loops: an scf.for over 1-D tensors wider than the registers, whose body works
// lane by lane, becomes one loop per slice of lanes (TTToTcpuPasses.td). Layer norm's
// `_mean += tl.load(...)` over a 256-wide block carries 64 NEON registers: the backend spilled
// half of them and reloaded and stored them again in every iteration; its output loop, which
// carries nothing, was split op by op with the whole row live. In slices of 32 lanes each
// loop's rows stay in registers.
//
// Each lane computes exactly what it did: the same ops on the same values, in the same order
// within the lane. Only the order across lanes changes (slice 0's iterations, then slice 1's),
// which Triton leaves unordered (a GPU runs the lanes on different threads); volatile loads
// and any other effect keep a loop whole. The loop's results may only feed tt.reduce ops,
// which reduce each slice and then combine the slices' results with their combine region.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTSPLITWIDELOOPS
#include "tt/TTToTcpuPasses.h.inc"

namespace split_wide_loops {
namespace {

constexpr int64_t kRegisterBits = 128;

// Bits a lane of `type` holds; 0 for element types the pass leaves alone.
unsigned ElementBits(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (isa<PointerType>(element) || element.isIndex()) return 64;
  return element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
}

// A 1-D tensor of `width` lanes.
bool IsRow(Type type, int64_t width) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 1 && tensor.getDimSize(0) == width;
}

// Tensors in the op are rows of `width` lanes; scalars are the same in every lane.
bool TypesFit(Operation* op, int64_t width) {
  auto fits = [&](Type type) { return !isa<ShapedType>(type) || IsRow(type, width); };
  return llvm::all_of(op->getOperandTypes(), fits) && llvm::all_of(op->getResultTypes(), fits);
}

// An op whose lane k of every result depends only on lane k of its operands (and scalars), with
// no effect but reading (non-volatile) or writing its lanes' own memory.
bool IsLaneWise(Operation* op, int64_t width) {
  if (op->getNumRegions() != 0 || !TypesFit(op, width)) return false;
  if (auto load = dyn_cast<LoadOp>(op)) {
    return !load.getIsVolatile() && isa<RankedTensorType>(load.getPtr().getType());
  }
  if (auto store = dyn_cast<StoreOp>(op)) return isa<RankedTensorType>(store.getPtr().getType());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    return !isa<ShapedType>(constant.getType()) || isa<DenseElementsAttr>(constant.getValue());
  }
  if (isa<MakeRangeOp, SplatOp>(op)) return true;
  // Pure elementwise ops, and pure ops on scalars alone (the same in every slice).
  auto scalar = [](Type type) { return !isa<ShapedType>(type); };
  return isPure(op) &&
         (op->hasTrait<OpTrait::Elementwise>() || (llvm::all_of(op->getOperandTypes(), scalar) &&
                                                   llvm::all_of(op->getResultTypes(), scalar)));
}

// A value defined outside the loop that a slice can rebuild: scalars as they are, rows from
// ranges, splats, constants and lane-wise pure ops on such rows.
bool Rebuildable(Value value, int64_t width) {
  if (!isa<ShapedType>(value.getType())) return true;
  Operation* op = value.getDefiningOp();
  if (!op || isa<LoadOp>(op) || !IsLaneWise(op, width)) return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value operand) { return Rebuildable(operand, width); });
}

Type SliceType(Type type, int64_t lanes) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) return type;
  return RankedTensorType::get({lanes}, tensor.getElementType(), tensor.getEncoding());
}

// Clones lane-wise `op` for lanes [first, first + lanes) of its rows, operands through `map`.
Operation* CloneSlice(OpBuilder& b, Operation* op, IRMapping& map, int64_t first, int64_t lanes) {
  Location loc = op->getLoc();
  Operation* clone = nullptr;
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    int64_t start = range.getStart() + first;
    clone = b.create<MakeRangeOp>(loc, SliceType(range.getType(), lanes), start, start + lanes);
  } else if (auto constant = dyn_cast<arith::ConstantOp>(op);
             constant && isa<ShapedType>(constant.getType())) {
    auto elements = cast<DenseElementsAttr>(constant.getValue());
    auto type = cast<ShapedType>(SliceType(constant.getType(), lanes));
    DenseElementsAttr sliced;
    if (elements.isSplat()) {
      sliced = elements.resizeSplat(type);
    } else {
      auto values = llvm::to_vector(elements.getValues<Attribute>());
      sliced = DenseElementsAttr::get(
          type, ArrayRef<Attribute>(values).slice(static_cast<size_t>(first), lanes));
    }
    clone = b.create<arith::ConstantOp>(loc, type, sliced);
  } else {
    clone = b.clone(*op, map);
    for (OpResult result : clone->getResults()) {
      result.setType(SliceType(result.getType(), lanes));
    }
  }
  map.map(op->getResults(), clone->getResults());
  return clone;
}

// The slice [first, first + lanes) of a rebuildable value from outside the loop, built at `b`.
Value RebuildSlice(OpBuilder& b, Value value, IRMapping& map, int64_t first, int64_t lanes) {
  if (!isa<ShapedType>(value.getType()) || map.contains(value)) {
    return map.lookupOrDefault(value);
  }
  Operation* op = value.getDefiningOp();
  for (Value operand : op->getOperands()) RebuildSlice(b, operand, map, first, lanes);
  CloneSlice(b, op, map, first, lanes);
  return map.lookup(value);
}

// The reductions the loop's results feed, when those are their only users and every operand
// of each reduction is a result of the loop.
std::optional<SmallVector<ReduceOp>> ResultReductions(scf::ForOp loop) {
  SmallVector<ReduceOp> reductions;
  for (Value result : loop.getResults()) {
    for (Operation* user : result.getUsers()) {
      auto reduce = dyn_cast<ReduceOp>(user);
      if (!reduce || reduce.getAxis() != 0) return std::nullopt;
      bool from_loop = llvm::all_of(reduce.getSrcs(), [&](Value source) {
        return source.getDefiningOp() == loop.getOperation();
      });
      if (!from_loop) return std::nullopt;
      if (!llvm::is_contained(reductions, reduce)) reductions.push_back(reduce);
    }
  }
  return reductions;
}

// The width of the loop's rows: its carried rows', or the first row its body computes.
std::optional<int64_t> RowWidth(scf::ForOp loop) {
  Type row;
  if (!loop.getInitArgs().empty()) {
    row = loop.getInitArgs()[0].getType();
  } else {
    for (Operation& op : loop.getBody()->without_terminator()) {
      for (Type type : op.getResultTypes()) {
        if (!row && isa<ShapedType>(type)) row = type;
      }
    }
  }
  auto tensor = dyn_cast_or_null<RankedTensorType>(row);
  if (!tensor || tensor.getRank() != 1) return std::nullopt;
  return tensor.getDimSize(0);
}

struct Slicing {
  int64_t width;  // lanes of every row
  int64_t lanes;  // lanes per slice
};

class LoopSplitter {
 public:
  explicit LoopSplitter(int64_t budget_bits) : budget_bits_(budget_bits) {}

  void Split(scf::ForOp loop) {
    std::optional<Slicing> slicing = Plan(loop);
    if (!slicing) return;
    std::optional<SmallVector<ReduceOp>> reductions = ResultReductions(loop);
    if (!reductions) return;
    OpBuilder b(loop);
    // Each slice is reduced right after its loop, so its rows die there.
    SmallVector<SmallVector<Value>> combined(reductions->size());
    for (int64_t first = 0; first < slicing->width; first += slicing->lanes) {
      scf::ForOp slice = SliceLoop(b, loop, first, slicing->lanes);
      for (auto [reduce, partial] : llvm::zip(*reductions, combined)) {
        partial = CombineSlice(b, reduce, loop, slice, partial);
      }
    }
    for (auto [reduce, total] : llvm::zip(*reductions, combined)) {
      reduce.replaceAllUsesWith(total);
      reduce.erase();
    }
    loop.erase();
  }

 private:
  // How `loop` is split: its rows' width and the lanes per slice, the widest power-of-two part
  // of the rows whose carried values (in a loop carrying nothing, whose widest row) fit
  // `budget_bits_` and still fill a register; nullopt when the loop is not split.
  std::optional<Slicing> Plan(scf::ForOp loop) {
    std::optional<int64_t> width = RowWidth(loop);
    if (!width) return std::nullopt;
    int64_t bits_per_lane = 0;
    unsigned narrowest = 64;
    for (Value init : loop.getInitArgs()) {
      if (!IsRow(init.getType(), *width) || !Rebuildable(init, *width) ||
          ElementBits(init.getType()) == 0) {
        return std::nullopt;
      }
      bits_per_lane += ElementBits(init.getType());
      narrowest = std::min(narrowest, ElementBits(init.getType()));
    }
    bool carries = bits_per_lane > 0;
    for (Operation& op : loop.getBody()->without_terminator()) {
      if (!IsLaneWise(&op, *width)) return std::nullopt;
      for (Value operand : op.getOperands()) {
        if (operand.getParentRegion() != &loop.getRegion() && !Rebuildable(operand, *width)) {
          return std::nullopt;
        }
      }
      if (carries) continue;
      // Addresses (rows of pointers) mostly fold into one scalar per run; values count.
      for (Type type : op.getResultTypes()) {
        if (!isa<ShapedType>(type) || isa<PointerType>(getElementTypeOrSelf(type))) continue;
        bits_per_lane = std::max<int64_t>(bits_per_lane, ElementBits(type));
      }
    }
    if (!carries) narrowest = static_cast<unsigned>(bits_per_lane);
    if (bits_per_lane == 0 || *width * bits_per_lane <= budget_bits_) return std::nullopt;
    int64_t lanes = *width;
    while (lanes % 2 == 0 && lanes * bits_per_lane > budget_bits_ &&
           (lanes / 2) * narrowest >= kRegisterBits) {
      lanes /= 2;
    }
    if (lanes == *width) return std::nullopt;
    return Slicing{*width, lanes};
  }

  // A copy of `loop` for lanes [first, first + lanes), placed at `b`.
  static scf::ForOp SliceLoop(OpBuilder& b, scf::ForOp loop, int64_t first, int64_t lanes) {
    // Rows from outside are rebuilt in front of the slice's loop, not in its body.
    IRMapping outside;
    SmallVector<Value> inits;
    for (Value init : loop.getInitArgs()) {
      inits.push_back(RebuildSlice(b, init, outside, first, lanes));
    }
    for (Operation& op : loop.getBody()->without_terminator()) {
      for (Value operand : op.getOperands()) {
        if (operand.getParentRegion() != &loop.getRegion()) {
          RebuildSlice(b, operand, outside, first, lanes);
        }
      }
    }
    auto slice = b.create<scf::ForOp>(loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
                                      loop.getStep(), inits);
    OpBuilder body = OpBuilder::atBlockBegin(slice.getBody());
    IRMapping map = outside;
    map.map(loop.getInductionVar(), slice.getInductionVar());
    map.map(loop.getRegionIterArgs(), slice.getRegionIterArgs());
    for (Operation& op : loop.getBody()->without_terminator()) {
      CloneSlice(body, &op, map, first, lanes);
    }
    SmallVector<Value> yielded;
    for (Value value : loop.getYieldedValues()) yielded.push_back(map.lookupOrDefault(value));
    if (!slice.getBody()->empty() && isa<scf::YieldOp>(slice.getBody()->back())) {
      slice.getBody()->back().erase();
    }
    body.setInsertionPointToEnd(slice.getBody());
    body.create<scf::YieldOp>(loop.getLoc(), yielded);
    return slice;
  }

  // `reduce` of `slice`'s rows, combined with `partial` (the slices before it, in lane order)
  // by the reduction's own combine region.
  static SmallVector<Value> CombineSlice(OpBuilder& b, ReduceOp reduce, scf::ForOp loop,
                                         scf::ForOp slice, ArrayRef<Value> partial) {
    IRMapping sources;
    sources.map(loop.getResults(), slice.getResults());
    Operation* part = b.clone(*reduce, sources);
    if (partial.empty()) return SmallVector<Value>(part->getResults());
    Block& combine = reduce.getCombineOp().front();
    IRMapping arguments;
    for (auto [i, value] : llvm::enumerate(partial)) {
      arguments.map(combine.getArgument(i), value);
      arguments.map(combine.getArgument(partial.size() + i), part->getResult(i));
    }
    for (Operation& op : combine.without_terminator()) b.clone(op, arguments);
    SmallVector<Value> combined;
    for (Value value : combine.getTerminator()->getOperands()) {
      combined.push_back(arguments.lookupOrDefault(value));
    }
    return combined;
  }

  int64_t budget_bits_;
};

struct TTSplitWideLoops : impl::TTSplitWideLoopsBase<TTSplitWideLoops> {
  using TTSplitWideLoopsBase::TTSplitWideLoopsBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    LoopSplitter splitter(carriedRegisters * kRegisterBits);
    for (scf::ForOp loop : loops) splitter.Split(loop);
  }
};

}  // namespace
}  // namespace split_wide_loops
}  // namespace mlir::tt
