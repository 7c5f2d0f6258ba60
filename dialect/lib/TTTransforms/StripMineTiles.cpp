// tt-strip-mine-tiles: a program whose tiles are larger than the registers hold runs as a loop
// over register-sized chunks of one tile axis at a time (TTToTcpuPasses.td). The conversion
// turns a tile into straight-line vector code, so Triton's GPU configurations (tutorial 03's
// matmul at 128x256x64: a 32768-element accumulator) made compile time and code size grow
// with BLOCK_* (minutes, megabytes). After this pass every tile fits a small budget and the
// code grows with the program instead.
//
// The axes of a program are found by unifying the dimensions of its tensors (`Axes`): a dot's
// M, N and K, a load's dimensions with its pointers', a loop's carried values with their
// yields, a reshape's dimensions that keep their lanes (8x128 -> 512x2x1 keeps the 8 rows as
// the leading dimension, 64 lanes a row: the axis is chunked there in units of 64). An axis
// that no op mixes with another (a reshape's other dimensions, cat, scan, histogram... fix it)
// is strip-mined: every op whose result has the axis is re-typed to a chunk of it and cloned
// into an scf.for over chunks, make_range offset by the chunk. The ops that consume the axis
// without producing it are the sinks: stores (each chunk stores its own lanes), a tt.reduce
// along the axis (a row's sum, max or min carried as a row of partials that each chunk
// combines into lane by lane, reduced once after the loop; any other reduction reduced per
// chunk and the chunks combined in order with the combine region), a tt.dot contracting it
// (the chunks' dots chained through the accumulator, in the same k order as one dot), and a
// loop or branch whose body uses the axis (cloned per chunk, or, when its body reduces along
// the axis, strip-mined inside). Consecutive sinks share one chunk loop; a sink that needs
// another's result starts the next loop, so softmax is three passes over its row (max, sum,
// normalize), each reloading what it needs.
//
// Each lane computes what it did, with its loads and stores in the same order; only accesses
// of different lanes are reordered, which Triton leaves unordered (a GPU runs them on
// different threads). A load recomputed after a store of an earlier chunk loop could read
// what the program wrote: an earlier chunk loop that loaded it before the store copies each
// chunk to a stack buffer, which the later loop reads back (tutorial 05 backward's x and dy,
// needed again under the lock after dx is stored). Without such a loop the plan is refused
// and the axis left whole, as is anything outside the ops this pass knows. A dot that a later
// loop needs again is read back the same way rather than computed again (attention's Q K^T:
// the max pass stores its chunks, the exp, sum and P V pass loads them).
#include "dialect/lib/TTToTcpu/DotPath.h"
#include "dialect/lib/TTTransforms/ReduceCombiners.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTSTRIPMINETILES
#include "tt/TTToTcpuPasses.h.inc"

namespace strip_mine_tiles {
namespace {

// Whether `op` stores to a stack copy that an earlier round made (CopyPointers): memory only
// its own chunk loops read back, in order, so no plan has to keep other accesses around it.
bool StoresToCopy(Operation* op) {
  auto store = dyn_cast<StoreOp>(op);
  if (!store) return false;
  auto pointers = store.getPtr().getDefiningOp<AddPtrOp>();
  auto splat = pointers ? pointers.getPtr().getDefiningOp<SplatOp>() : SplatOp();
  auto base = splat ? splat.getSrc().getDefiningOp<IntToPtrOp>() : IntToPtrOp();
  auto address = base ? base.getSrc().getDefiningOp<LLVM::PtrToIntOp>() : LLVM::PtrToIntOp();
  return address && address.getArg().getDefiningOp<LLVM::AllocaOp>();
}

// Whether `op` or an op inside it may write memory (a stack copy's stores aside).
bool Writes(Operation* op) {
  bool writes = false;
  op->walk([&](Operation* inner) {
    if (StoresToCopy(inner)) return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
    if (effects ? effects.hasEffect<MemoryEffects::Write>()
                : !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
                      !isa<scf::YieldOp, ReduceReturnOp, ScanReturnOp>(inner)) {
      writes = true;
    }
  });
  return writes;
}

// What a program does with an axis, which decides how its chunks combine.
enum class AxisUse { kParallel, kReduced, kContracted };

// The axes of one function: classes of (tensor value, dimension) that must be chunked
// together. Unknown ops and ops that mix an axis with others fix it (never chunked).
class Axes {
 public:
  explicit Axes(Operation* root) { root->walk([&](Operation* op) { Visit(op); }); }

  // The axis of dimension `dim` of `value`, or -1 (not a tensor).
  int AxisOf(Value value, unsigned dim) {
    auto it = node_.find({value, dim});
    return it == node_.end() ? -1 : Find(it->second);
  }
  // The lanes of dimension `dim` of `value` per lane of its axis: 1, or the factor by which a
  // reshape merged the axis with finer lanes (Inductor's sort views its 8x128 tile as
  // 512x2x1: each of the 8 rows is 64 lanes of the leading dimension).
  int64_t Unit(Value value, unsigned dim) {
    auto it = node_.find({value, dim});
    if (it == node_.end()) return 1;
    Find(it->second);
    return unit_[it->second];
  }
  bool HasAxis(Value value, int axis) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor) return false;
    for (unsigned d = 0; d < tensor.getRank(); ++d) {
      if (AxisOf(value, d) == axis) return true;
    }
    return false;
  }
  int64_t Size(int axis) { return size_[axis]; }
  // Fixed by an op, or both contracted and produced by one dot (a square product of a tile
  // with itself): that dot would be its own sink. An axis contracted by one dot and produced by
  // another, or reduced elsewhere, is strip-mined around each in turn.
  bool Fixed(int axis) {
    if (fixed_[axis]) return true;
    for (const auto& [k, outputs] : dots_) {
      if (Find(k) == axis && llvm::any_of(outputs, [&](int n) { return Find(n) == axis; })) {
        return true;
      }
    }
    return false;
  }
  // The last dimension of some n-D tensor: its chunks are the rows of vectors.
  bool Innermost(int axis) { return innermost_[Find(axis)]; }
  AxisUse Use(int axis) {
    if (contracted_[axis]) return AxisUse::kContracted;
    return reduced_[axis] ? AxisUse::kReduced : AxisUse::kParallel;
  }
  // Reduced, and only ever as a loop's results: the partials an Inductor reduction loop
  // (`triton_red_*`) carries lane by lane and reduces once after it. Its chunks each run the
  // loop and reduce their own lanes; nothing is loaded twice.
  bool ReducedPastLoops(int axis) {
    return Use(axis) == AxisUse::kReduced && !reduced_in_place_[axis];
  }
  // Every axis (class root) of a tensor dimension larger than 1.
  SmallVector<int> Roots() {
    SmallVector<int> roots;
    for (int n = 0; n < static_cast<int>(parent_.size()); ++n) {
      if (Find(n) == n && size_[n] > 1) roots.push_back(n);
    }
    return roots;
  }

 private:
  int Node(Value value, unsigned dim) {
    auto [it, inserted] = node_.try_emplace({value, dim}, static_cast<int>(parent_.size()));
    if (inserted) {
      parent_.push_back(it->second);
      unit_.push_back(1);
      auto tensor = cast<RankedTensorType>(value.getType());
      size_.push_back(tensor.getDimSize(dim));
      innermost_.push_back(dim + 1 == tensor.getRank() && tensor.getRank() > 1);
      fixed_.push_back(false);
      contracted_.push_back(false);
      reduced_.push_back(false);
      reduced_in_place_.push_back(false);
    }
    return it->second;
  }
  // The class of dimension `dim` of `value`, made if new.
  int Root(Value value, unsigned dim) { return Find(Node(value, dim)); }
  // The root of `n`'s class; unit_[n] becomes its lanes per lane of the root. A root is
  // the coarsest dimension of its class (every unit is a whole number).
  int Find(int n) {
    SmallVector<int, 8> path;
    for (; parent_[n] != n; n = parent_[n]) path.push_back(n);
    // From the root's child outwards, each parent already points at the root.
    for (int node : llvm::reverse(path)) {
      if (parent_[node] != n) unit_[node] *= unit_[parent_[node]];
      parent_[node] = n;
    }
    return n;
  }
  void Union(int a, int b) { Link(a, b, 1); }
  // One axis in dimensions `coarse` and `fine`, whose lane i * factor + j (j < factor) is
  // lane i of `coarse`. Where the units cannot be whole numbers or the sizes disagree, the
  // axis is fixed.
  void Link(int coarse, int fine, int64_t factor) {
    int a = Find(coarse), b = Find(fine);
    const int64_t ua = unit_[coarse] * factor, ub = unit_[fine];  // in a's and b's lanes
    if (a == b) {
      if (ua != ub) fixed_[a] = true;
      return;
    }
    int parent = a, child = b;
    int64_t weight;
    if (ua % ub == 0) {
      weight = ua / ub;  // b's lanes per lane of a
    } else if (ub % ua == 0) {
      std::swap(parent, child);
      weight = ub / ua;
    } else {
      fixed_[a] = fixed_[b] = true;
      return;
    }
    parent_[child] = parent;
    unit_[child] = weight;
    fixed_[parent] = fixed_[parent] || fixed_[child] || size_[child] != size_[parent] * weight;
    contracted_[parent] = contracted_[parent] || contracted_[child];
    reduced_[parent] = reduced_[parent] || reduced_[child];
    reduced_in_place_[parent] = reduced_in_place_[parent] || reduced_in_place_[child];
    innermost_[parent] = innermost_[parent] || innermost_[child];
  }
  static int64_t Rank(Value value) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    return tensor ? tensor.getRank() : -1;
  }
  void UnifyDims(Value a, unsigned da, Value b, unsigned db) { Union(Node(a, da), Node(b, db)); }
  // Same-shaped tensors, dimension by dimension; scalars are skipped.
  void UnifyAll(ValueRange values) {
    Value first;
    for (Value value : values) {
      if (Rank(value) < 0) continue;
      if (!first) {
        first = value;
        for (unsigned d = 0; d < Rank(value); ++d) Node(value, d);
      } else if (Rank(value) != Rank(first)) {
        FixAll(value);
        FixAll(first);
      } else {
        for (unsigned d = 0; d < Rank(value); ++d) UnifyDims(first, d, value, d);
      }
    }
  }
  // A loop or branch runs whole per chunk: its results of one shape (layer norm backward's dW
  // and dB accumulators, only tied by the index computations that were copied apart) share
  // their axes, so that an axis of one is never the other's passenger.
  void UnifySameShapes(ValueRange results) {
    for (Value a : results) {
      for (Value b : results) {
        if (a != b && isa<RankedTensorType>(a.getType()) && isa<RankedTensorType>(b.getType()) &&
            cast<RankedTensorType>(a.getType()).getShape() ==
                cast<RankedTensorType>(b.getType()).getShape()) {
          UnifyAll({a, b});
        }
      }
    }
  }
  void FixAll(Value value) {
    for (int64_t d = 0; d < Rank(value); ++d) fixed_[Root(value, d)] = true;
  }
  void FixOperandsAndResults(Operation* op) {
    for (Value value : op->getOperands()) FixAll(value);
    for (Value value : op->getResults()) FixAll(value);
  }
  void Visit(Operation* op);
  void VisitReshape(ReshapeOp reshape);

  DenseMap<std::pair<Value, unsigned>, int> node_;
  SmallVector<int> parent_;
  SmallVector<int64_t> size_, unit_;
  // reduced_in_place_: reduced where it was computed, not as a loop's results.
  SmallVector<bool> fixed_, contracted_, reduced_, reduced_in_place_, innermost_;
  SmallVector<std::pair<int, SmallVector<int>>> dots_;  // each dot's K and output dimensions
};

void Axes::Visit(Operation* op) {
  // Values whose dimensions are free (the same in every lane) unify only through their uses.
  if (isa<MakeRangeOp, SplatOp, scf::YieldOp, scf::ConditionOp, ReduceReturnOp,
          ScanReturnOp>(op)) {
    for (Value result : op->getResults()) UnifyAll(result);
    return;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (isa<RankedTensorType>(constant.getType()) && !(elements && elements.isSplat())) {
      FixAll(constant);
    }
    return;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    auto from = cast<RankedTensorType>(broadcast.getSrc().getType());
    auto to = cast<RankedTensorType>(broadcast.getType());
    for (unsigned d = 0; d < from.getRank(); ++d) {
      if (from.getDimSize(d) == to.getDimSize(d)) UnifyDims(broadcast.getSrc(), d, broadcast, d);
    }
    return;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    unsigned axis = expand.getAxis();
    for (unsigned d = 0; d < Rank(expand.getSrc()); ++d) {
      UnifyDims(expand.getSrc(), d, expand, d < axis ? d : d + 1);
    }
    return;
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    for (auto [d, from] : llvm::enumerate(trans.getOrder())) {
      UnifyDims(trans.getSrc(), from, trans, d);
    }
    return;
  }
  if (auto join = dyn_cast<JoinOp>(op)) {
    UnifyAll({join.getLhs(), join.getRhs()});
    for (unsigned d = 0; d < Rank(join.getLhs()); ++d) UnifyDims(join.getLhs(), d, join, d);
    return;
  }
  if (auto split = dyn_cast<SplitOp>(op)) {
    UnifyAll({split.getOutLHS(), split.getOutRHS()});
    for (unsigned d = 0; d < Rank(split.getOutLHS()); ++d) {
      UnifyDims(split.getSrc(), d, split.getOutLHS(), d);
    }
    return;
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    UnifyAll(reduce.getSrcs());
    Value src = reduce.getSrcs().front();
    unsigned axis = reduce.getAxis();
    for (Value result : reduce.getResults()) {
      for (unsigned d = 0; d < Rank(result); ++d) UnifyDims(src, d < axis ? d : d + 1, result, d);
    }
    reduced_[Root(src, axis)] = true;
    if (!llvm::all_of(reduce.getSrcs(),
                      [](Value value) { return value.getDefiningOp<scf::ForOp>(); })) {
      reduced_in_place_[Root(src, axis)] = true;
    }
    return;
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    SmallVector<Value> values(scan.getSrcs());
    llvm::append_range(values, scan.getResults());
    UnifyAll(values);
    fixed_[Root(scan.getSrcs().front(), scan.getAxis())] = true;
    return;
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    UnifyAll({dot.getC(), dot.getD()});
    int64_t rank = Rank(dot.getA());
    for (int64_t d = 0; d + 2 < rank; ++d) {  // batch dimensions
      UnifyDims(dot.getA(), d, dot.getD(), d);
      UnifyDims(dot.getB(), d, dot.getD(), d);
    }
    UnifyDims(dot.getA(), rank - 2, dot.getD(), rank - 2);
    UnifyDims(dot.getB(), rank - 1, dot.getD(), rank - 1);
    UnifyDims(dot.getA(), rank - 1, dot.getB(), rank - 2);
    contracted_[Root(dot.getA(), rank - 1)] = true;
    SmallVector<int> outputs;
    for (int64_t d = 0; d < rank; ++d) outputs.push_back(Node(dot.getD(), d));
    dots_.push_back({Node(dot.getA(), rank - 1), outputs});
    return;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0; i < loop.getNumResults(); ++i) {
      UnifyAll({loop.getInitArgs()[i], loop.getRegionIterArgs()[i], yield.getOperand(i),
                loop.getResult(i)});
    }
    UnifySameShapes(loop.getResults());
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (unsigned i = 0; i < branch.getNumResults(); ++i) {
      SmallVector<Value> values = {branch.getResult(i), branch.thenYield().getOperand(i)};
      if (!branch.getElseRegion().empty()) values.push_back(branch.elseYield().getOperand(i));
      UnifyAll(values);
    }
    UnifySameShapes(branch.getResults());
    return;
  }
  if (auto check = dyn_cast<AssertOp>(op)) {
    UnifyAll(check.getCondition());  // each chunk checks its own lanes
    return;
  }
  if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op)) {
    SmallVector<Value> values(op->getOperands());
    llvm::append_range(values, op->getResults());
    UnifyAll(values);
    // An atomic's old values would be recomputed by every sink that needs them.
    if (isa<AtomicRMWOp, AtomicCASOp>(op) && !op->use_empty()) FixOperandsAndResults(op);
    return;
  }
  if (op->getNumRegions() == 0 && isPure(op) &&
      (op->hasTrait<OpTrait::Elementwise>() ||
       op->hasTrait<OpTrait::SameOperandsAndResultShape>())) {
    SmallVector<Value> values(op->getOperands());
    llvm::append_range(values, op->getResults());
    UnifyAll(values);
    return;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    VisitReshape(reshape);
    return;
  }
  // Anything else (cat, histogram, gather, calls, print, ...) keeps its tensors whole.
  FixOperandsAndResults(op);
  for (Region& region : op->getRegions()) {
    for (Block& block : region) {
      for (BlockArgument arg : block.getArguments()) FixAll(arg);
    }
  }
}

// A row-major reshape keeps an axis where a dimension of one side spans the same lanes as a
// dimension of the other (their sizes times strides agree) and is the coarse part of it (its
// stride a multiple of the other's): 8x128 -> 512x2x1 keeps the 8 rows as the leading 512,
// 64 lanes a row. Every other dimension is mixed with others and fixed.
void Axes::VisitReshape(ReshapeOp reshape) {
  auto strides = [](RankedTensorType type) {
    SmallVector<int64_t> strides(type.getRank(), 1);
    for (int64_t d = type.getRank() - 2; d >= 0; --d) {
      strides[d] = strides[d + 1] * type.getDimSize(d + 1);
    }
    return strides;
  };
  Value src = reshape.getSrc(), dst = reshape.getResult();
  auto from = cast<RankedTensorType>(src.getType()), to = cast<RankedTensorType>(dst.getType());
  SmallVector<int64_t> s = strides(from), t = strides(to);
  SmallVector<bool> srcKept(from.getRank(), false), dstKept(to.getRank(), false);
  for (unsigned i = 0; i < from.getRank(); ++i) {
    for (unsigned j = 0; j < to.getRank(); ++j) {
      if (from.getDimSize(i) == 1 || to.getDimSize(j) == 1 ||
          from.getDimSize(i) * s[i] != to.getDimSize(j) * t[j]) {
        continue;
      }
      if (s[i] % t[j] == 0) {
        Link(Node(src, i), Node(dst, j), s[i] / t[j]);
      } else if (t[j] % s[i] == 0) {
        Link(Node(dst, j), Node(src, i), t[j] / s[i]);
      } else {
        continue;
      }
      srcKept[i] = dstKept[j] = true;
    }
  }
  for (unsigned i = 0; i < from.getRank(); ++i) {
    if (!srcKept[i]) fixed_[Root(src, i)] = true;
  }
  for (unsigned j = 0; j < to.getRank(); ++j) {
    if (!dstKept[j]) fixed_[Root(dst, j)] = true;
  }
}

// Budgets: a tile of at most this many elements, the dots of one block at most this many
// multiply-adds (16x32 by 32: the tiles of kernels/triton's matmuls, whose straight-line code
// compiles in a second or two).
constexpr int64_t kMaxTileElements = 1024;
// A row (a 1-D tile) of a function over the budgets is cut to 256 lanes, 64 NEON registers of
// f32: its chunk loop is one long elementwise chain, which the backend compiles in time that
// grows faster than the chain (tutorial 05 backward's 4096-lane row in chunks of 1024: 19 s
// and 414 KB with the optimized tcpu-compile; in chunks of 256: under 2 s and 90 KB).
constexpr int64_t kMaxRowElements = 256;
constexpr int64_t kMaxDotMacs = 16 * 32 * 32;
// How many times less a dot's multiply-adds count against kMaxDotMacs: 2 on SMMLA, whose one
// instruction does 32 of them (twice BFMMLA's), and whose straight-line code, the packing of a
// and b, grows with their bytes. The int8 split-K matmul's 64x64x32 blocks run as 32x32 tiles
// over the whole K step of 32 instead of 16-deep chunks: each tile's pass over its SMMLA
// accumulator loads and stores it once a K step instead of twice (per 64 SMMLA 98 instructions
// instead of 112; 56,766 -> 52,236 per program, 2.4 s to compile).
int64_t DotMacWeight(DotOp dot) {
  FailureOr<DotPath> path = chooseDotPath(dot, /*diagnose=*/false);
  return succeeded(path) && *path == DotPath::kSmmla ? 2 : 1;
}
// The accumulator of an FMLAL or outer-product dot's block: 16 of the 32 NEON registers. Its
// tile lives in registers across the block's K steps; over the registers, every step spills
// and reloads it. Tutorial 03 in f16 on FMLAL (16x32 tiles before, 64 registers): 0.612 ->
// 0.311 instructions per MAC at 8x8, and 7 s -> 1.4 s to compile with the optimized
// tcpu-compile (its 4,096 FMLALs in one block made CodeGenPrepare quadratic); with an f16
// accumulator 0.389 -> 0.194; tutorial 06's attention 1.42 -> 1.26. SMMLA and BFMMLA tiles
// (MmlaTiles.h) and SDOT keep their own budgets.
constexpr int64_t kMaxAccumulatorBits = 16 * 128;
constexpr int64_t kMinChunk = 8;
// The straight-line work of a function whose tiles are within kMaxTileElements: the elements
// of every tile an op computes, a math function (expanded to a polynomial later) or a
// division counting kCostlyOpWeight times. Over this, its rows are cut to kMaxRowElements
// too: a GPU pointwise kernel of 1024 lanes computing cos, sin and pow of every lane (a
// rotary embedding as Inductor writes it) was 13 s and 481 KB as one straight chain. Tutorial
// 02's softmax over 1024 lanes (about 38 K) stays whole: cut, it reloads its row for each of
// max, sum and normalize, 72% more instructions.
constexpr int64_t kMaxStraightLineWork = 64 * 1024;
constexpr int64_t kCostlyOpWeight = 16;
// What an op costs per row of a tile at least (a row narrower than this many lanes costs as
// many).
constexpr int64_t kMinRowWork = 4;
// The fewest elements TileBudget cuts an n-D tile to.
constexpr int64_t kMinTileChunk = 32;
// The most ops (counted with repeats) an index computation SeparateSharedSources copies apart
// per use may have.
constexpr int64_t kMaxSharedSourceOps = 32;
// The fewest lanes RowBudget cuts a row to.
constexpr int64_t kMinRowChunk = 32;
// A function within the budgets that computes a math function expanded to a polynomial
// (exp, log, sin, tanh, erf, ..., libdevice's) over a row wider than kRegisterRowChunk lanes
// has its parallel rows cut to that: the backend computes a straight-line tile op by op, so
// the polynomial's half-dozen live values over a 256-lane row (64 NEON registers each) spill
// every one of them (exp_kernel: 3,600 loads and stores among 7,900 instructions). Rows
// reduced or contracted stay whole (softmax would reload its row for each pass), and short
// chains over wide rows (layer norm's normalization) keep their straight-line code.
constexpr int64_t kRegisterRowChunk = 16;
// A function within the budgets that loads a row wider than this many lanes (16 NEON registers
// of f32) has its parallel rows cut to it: LLVM issues every load of a straight-line row first
// and spills what does not fit (tutorial 01's add over 1024 lanes: 3,966 instructions, most of
// them spills and reloads, for 2 x 256 loads and 256 adds and stores).
constexpr int64_t kRegisterRow = 64;

// The axes of the dots on 2x2 matrix-multiply blocks.
struct MmlaDotAxes {
  // The K axes of the SMMLA and BFMMLA dots, whose K chunks tt-version-masked-loops runs one
  // after another, summed into one dot, when the dot is in a K loop.
  DenseSet<int> summed_k;
  // The M and N axes of the SMMLA and BFMMLA dots, which count kSharedOperandWeight times less.
  DenseSet<int> shared;
};

MmlaDotAxes FindMmlaDotAxes(Operation* root, Axes& axes) {
  MmlaDotAxes found;
  root->walk([&](DotOp dot) {
    FailureOr<DotPath> path = chooseDotPath(dot, /*diagnose=*/false);
    if (failed(path) || (*path != DotPath::kSmmla && *path != DotPath::kBfmmla)) return;
    auto last = [](Value operand) {
      return static_cast<unsigned>(cast<RankedTensorType>(operand.getType()).getRank() - 1);
    };
    found.summed_k.insert(axes.AxisOf(dot.getA(), last(dot.getA())));
    found.shared.insert(axes.AxisOf(dot.getA(), last(dot.getA()) - 1));
    found.shared.insert(axes.AxisOf(dot.getB(), last(dot.getB())));
  });
  return found;
}

// The M and N axes of SMMLA and BFMMLA dots count this many times less against the budgets:
// every packed operand of b serves twice the rows, every packed operand of a twice the columns
// (tutorial 03 in bf16: 64x64 tiles over 16-deep chunks pack a four times per K step and b
// twice, instead of a eight times and b four times at 64x32: 0.1021 -> 0.0964 instructions per
// MAC, 5.5-6.4 s against 3.4-4.5 s to compile with the optimized tcpu-compile, 83 KB; the int8
// split-K matmul's 64x64 block as one tile instead of four of 32x32, each of which packed its
// rows of a and columns of b: 1,390,398 -> 1,287,198 instructions, 1.75 -> 1.97 s to compile
// once its partial tiles of atomic adds stopped building every lane's address as a vector
// first, 15.8 s before). The summed K steps' packing is straight-line code that grows with the
// tile's rows and columns, and the backend's time faster than it: M alone weighted 4 (128x32
// tiles) took 11-14 s to compile (97 KB).
constexpr int64_t kSharedOperandWeight = 2;

// The elements an FMLAL or outer-product dot's accumulator may have (kMaxAccumulatorBits), or
// 0 for a dot on another path (SMMLA, BFMMLA and SDOT keep their own budgets).
int64_t AccumulatorBudget(DotOp dot) {
  FailureOr<DotPath> path = chooseDotPath(dot, /*diagnose=*/false);
  if (failed(path) || (*path != DotPath::kFmlal && *path != DotPath::kOuterProducts)) return 0;
  auto d = cast<RankedTensorType>(dot.getD().getType());
  return kMaxAccumulatorBits / std::max<int64_t>(8, d.getElementTypeBitWidth());
}

// Which axes may shrink: over the budgets any; within them the parallel ones, and where a
// reduction loop computes a polynomial on its carried tile also the axes reduced past loops.
enum class Shrinkable { kAnyAxis, kParallelAxes, kParallelAndCarriedAxes };

// The chunk size of every axis that must shrink for the function's tiles to fit the budgets,
// halving the largest axis of the largest offender first.
DenseMap<int, int64_t> ChooseChunks(Operation* root, Axes& axes, const DenseSet<int>& refused,
                                    int64_t row_budget, int64_t tile_budget,
                                    Shrinkable shrinkable) {
  // Among axes of one size, a summed K axis shrinks first: its chunks are one dot again, while
  // a larger M x N tile shares each packed operand between more blocks (tutorial 03 in bf16:
  // 32x32 tiles over 16-deep chunks instead of 16x32 over 32). Then parallel axes before
  // reduced before contracted ones.
  MmlaDotAxes mmla = FindMmlaDotAxes(root, axes);
  const DenseSet<int>& summed_k = mmla.summed_k;
  const DenseSet<int>& shared = mmla.shared;
  auto order = [&](int axis) {
    return summed_k.contains(axis) ? -1 : static_cast<int>(axes.Use(axis));
  };
  // An outer axis (never a row) of n-D tiles without dots may shrink to one: a loop over
  // rows. The chunks of a dot's axes and of rows stay vectors.
  const bool dots = root->walk([](DotOp) { return WalkResult::interrupt(); }).wasInterrupted();
  const bool tiles = root->walk([](Operation* op) {
                           for (Type type : op->getResultTypes()) {
                             auto tensor = dyn_cast<RankedTensorType>(type);
                             if (tensor && tensor.getRank() > 1) return WalkResult::interrupt();
                           }
                           return WalkResult::advance();
                         }).wasInterrupted();
  DenseMap<int, int64_t> chunk;
  for (int axis : axes.Roots()) chunk[axis] = axes.Size(axis);
  // What a chunk of the axis counts against the budgets.
  auto weighted = [&](int axis) {
    int64_t size = chunk[axis];
    return shared.contains(axis) ? std::max<int64_t>(1, size / kSharedOperandWeight) : size;
  };
  auto splittable = [&](int axis) {
    auto it = chunk.find(axis);
    return it != chunk.end() && !axes.Fixed(axis) && !refused.contains(axis) &&
           (shrinkable == Shrinkable::kAnyAxis || axes.Use(axis) == AxisUse::kParallel ||
            (shrinkable == Shrinkable::kParallelAndCarriedAxes && axes.ReducedPastLoops(axis))) &&
           it->second / 2 >= (!tiles || dots || axes.Innermost(axis) ? kMinChunk : 1) &&
           it->second % 2 == 0;
  };
  // Elements of `value` with the chunks so far; fills `candidates` with its axes that can halve.
  auto elements = [&](Value value, SmallVector<int>& candidates) {
    auto tensor = cast<RankedTensorType>(value.getType());
    int64_t count = 1;
    for (unsigned d = 0; d < tensor.getRank(); ++d) {
      int axis = axes.AxisOf(value, d);
      count *= axis >= 0 && chunk.count(axis) ? weighted(axis) * axes.Unit(value, d)
                                              : tensor.getDimSize(d);
      if (splittable(axis) && !llvm::is_contained(candidates, axis)) candidates.push_back(axis);
    }
    return count;
  };
  for (int round = 0; round < 64; ++round) {
    // The worst offender: the tile or dot furthest over its budget.
    double worst = 1.0;
    SmallVector<int> worstCandidates;
    root->walk([&](Operation* op) {
      SmallVector<int> candidates;
      double over = 0;
      if (auto dot = dyn_cast<DotOp>(op)) {
        // The dots of one block are straight-line code together (attention's Q K^T and P V
        // in one loop body): they share the budget. Each: M x N x K, the accumulator's
        // elements times the chunk of a's last dimension.
        int64_t macs = 0;
        for (DotOp other : dot->getBlock()->getOps<DotOp>()) {
          auto rank = cast<RankedTensorType>(other.getA().getType()).getRank();
          int k = axes.AxisOf(other.getA(), rank - 1);
          int64_t kChunk = (chunk.count(k) ? chunk[k] : axes.Size(k)) *
                           axes.Unit(other.getA(), rank - 1);
          elements(other.getA(), candidates);
          macs += elements(other.getD(), candidates) * kChunk / DotMacWeight(other);
        }
        over = static_cast<double>(macs) / kMaxDotMacs;
        // An FMLAL or outer-product dot's accumulator lives in registers across its K steps.
        if (const int64_t budget = AccumulatorBudget(dot)) {
          SmallVector<int> own;
          double ratio = static_cast<double>(elements(dot.getD(), own)) / budget;
          if (ratio > over) {
            over = ratio;
            candidates = own;
          }
        }
      }
      for (Value result : op->getResults()) {
        if (!isa<RankedTensorType>(result.getType())) continue;
        SmallVector<int> own;
        int64_t budget = cast<RankedTensorType>(result.getType()).getRank() == 1 ? row_budget
                                                                                 : tile_budget;
        double ratio = static_cast<double>(elements(result, own)) / budget;
        if (ratio > over) {
          over = ratio;
          candidates = own;
        }
      }
      if (over > worst && !candidates.empty()) {
        worst = over;
        worstCandidates = candidates;
      }
    });
    if (worstCandidates.empty()) break;
    // The largest chunk, in `order` among equals.
    int best = worstCandidates.front();
    for (int axis : worstCandidates) {
      if (weighted(axis) > weighted(best) ||
          (weighted(axis) == weighted(best) && order(axis) < order(best))) {
        best = axis;
      }
    }
    chunk[best] /= 2;
  }
  DenseMap<int, int64_t> shrunk;
  for (auto [axis, size] : chunk) {
    if (size < axes.Size(axis)) shrunk[axis] = size;
  }
  return shrunk;
}

// The ops of one block that run together in one loop over the axis's chunks: the sinks in
// block order and every op of the block they need (`members`, block order); values from
// enclosing blocks are rebuilt inside the loop.
struct ChunkLoop {
  SmallVector<Operation*> sinks;
  SetVector<Operation*> members;  // sinks and the axis's ops they need, from this block
  SetVector<Operation*> outer;    // axis ops from enclosing blocks they need
  SetVector<Operation*> readBack;  // member loads read from an earlier loop's stack copy
  SmallVector<Operation*> after;   // ops between its sinks computing from their results
};

// Strip-mines one axis of a function: plans every block (refusing what it cannot do), then
// rewrites.
class AxisStripMiner {
 public:
  AxisStripMiner(Axes& axes, int axis, int64_t chunk)
      : axes_(axes), axis_(axis), chunk_(chunk), count_(axes.Size(axis) / chunk) {}

  LogicalResult Plan(Block& block);
  bool Empty() const { return loops_.empty(); }
  void Rewrite();

 private:
  bool HasAxis(Value value) { return axes_.HasAxis(value, axis_); }
  bool ProducesAxis(Operation* op) {
    return llvm::any_of(op->getResults(), [&](Value v) { return HasAxis(v); });
  }
  bool UsesAxis(Operation* op) {
    bool uses = false;
    op->walk([&](Operation* inner) {
      for (Value v : inner->getOperands()) uses = uses || HasAxis(v);
      for (Value v : inner->getResults()) uses = uses || HasAxis(v);
    });
    return uses;
  }
  // `op` is a reduce along the axis or a dot contracting it.
  bool Folds(Operation* op) {
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      return axes_.AxisOf(reduce.getSrcs().front(), reduce.getAxis()) == axis_;
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      return axes_.AxisOf(dot.getA(), cast<RankedTensorType>(dot.getA().getType()).getRank() - 1) ==
             axis_;
    }
    return false;
  }
  // Such an op anywhere in `op`.
  bool FoldsAxis(Operation* op) {
    bool folds = false;
    op->walk([&](Operation* inner) { folds = folds || Folds(inner); });
    return folds;
  }
  // Every value of the axis that an op inside `op` uses is computed inside `op`, or outside
  // it from nothing of the axis (a splat constant, a splat scalar, a range), which the chunk
  // loop rebuilds.
  bool HoldsAxis(Operation* op) {
    auto inside = [&](Value v) {
      Operation* parent = v.getParentBlock()->getParentOp();
      return parent == op || op->isProperAncestor(parent);
    };
    auto leaf = [&](Value v) {
      Operation* def = v.getDefiningOp();
      return def && def->getNumRegions() == 0 && isPure(def) &&
             llvm::none_of(def->getOperands(), [&](Value operand) { return HasAxis(operand); });
    };
    bool holds = true;
    op->walk([&](Operation* inner) {
      for (Value v : inner->getOperands()) holds = holds && (!HasAxis(v) || inside(v) || leaf(v));
    });
    return holds;
  }
  // `op` (a loop or branch computing axis values) writes only the axis's lanes: every write
  // inside it is a store or assert of the axis, so that one copy per chunk writes what `op`
  // wrote (Inductor's reduction loops store a pointwise result beside the sum they carry).
  bool WritesOnlyAxisLanes(Operation* op) {
    if (op->getNumRegions() == 0) return false;
    bool own = true;
    op->walk([&](Operation* inner) {
      if (inner->getNumRegions() == 0 && Writes(inner)) {
        own = own && isa<StoreOp, AssertOp>(inner) && UsesAxis(inner);
      }
    });
    return own;
  }
  static bool Reads(Operation* op) {
    bool reads = false;
    op->walk([&](Operation* inner) { reads = reads || isa<LoadOp>(inner); });
    return reads;
  }
  LogicalResult Need(Value value, Block& block, ChunkLoop& loop);
  LogicalResult NeedOperands(Operation* op, Block& block, ChunkLoop& loop);
  LogicalResult Close(ChunkLoop& loop);
  LogicalResult ReadBack(Operation* member, ChunkLoop& loop);
  bool ReadFromCopy(Operation* op, ChunkLoop& loop);
  bool ReadsBackDot(Operation* def, ChunkLoop& loop);
  bool ReadByLaterLoop(Operation* op) {
    return llvm::any_of(loops_, [&](const ChunkLoop& l) { return l.readBack.contains(op); });
  }
  void RewriteLoop(ChunkLoop& loop, unsigned position);
  TypedAttr LanePartialsIdentity(ReduceOp reduce);
  Type ChunkType(Value original);
  // `first` (a chunk's first lane of the axis) in lanes of a dimension of `unit`.
  static Value Scaled(OpBuilder& b, Location loc, Value first, int64_t unit) {
    if (unit == 1) return first;
    return b.create<arith::MulIOp>(loc, first, b.create<arith::ConstantIntOp>(loc, unit, 32));
  }
  Operation* CloneChunk(OpBuilder& b, Operation* op, IRMapping& map, Value first);
  Value CopyPointers(OpBuilder& b, Location loc, Operation* load, Value first);

  Axes& axes_;
  int axis_;
  int64_t chunk_, count_;
  SmallVector<ChunkLoop> loops_;  // in the order they are rewritten (each block's in order)
  SmallVector<Block*> blocks_;    // blocks whose original axis ops go once rewritten
  DenseSet<Operation*> sinkResults_;  // sinks of the loop being planned
  // Loads read back by a later loop: the index in loops_ of the loop that copies them, and
  // their stack buffers once made.
  DenseMap<Operation*, unsigned> copiedBy_;
  DenseMap<Operation*, Value> copies_;
  DenseSet<Operation*> writers_;  // members that write (WritesOnlyAxisLanes)
};

// Adds what computes `value` (an axis value) to `loop`.
LogicalResult AxisStripMiner::Need(Value value, Block& block, ChunkLoop& loop) {
  if (!HasAxis(value)) {
    Operation* def = value.getDefiningOp();
    // A value a sink of this loop computes cannot be used inside it (it exists after).
    return failure(def && sinkResults_.contains(def));
  }
  Operation* def = value.getDefiningOp();
  if (!def) return failure();  // an axis value carried by a loop of an enclosing block
  if (def->getBlock() == &block) {
    if (loop.members.contains(def)) return success();
    if (ReadsBackDot(def, loop)) return success();
    if (Writes(def)) {
      // Cloned per chunk into one chunk loop only: another would write its lanes again.
      if (!WritesOnlyAxisLanes(def) ||
          llvm::any_of(loops_, [&](const ChunkLoop& l) { return l.members.contains(def); })) {
        return failure();
      }
      writers_.insert(def);
    }
    if (llvm::any_of(def->getResults(),
                     [&](Value r) { return !HasAxis(r) && !r.use_empty(); })) {
      return failure();  // its other results are needed where the op itself no longer runs
    }
    if (FoldsAxis(def)) return failure();
    loop.members.insert(def);
    return NeedOperands(def, block, loop);
  }
  if (!block.getParentOp()->isAncestor(def)) {
    // From an enclosing block: rebuilt in the loop, so it must read and write nothing.
    if (!isPure(def) || def->getNumRegions() != 0) return failure();
    if (loop.outer.contains(def)) return success();
    for (Value operand : def->getOperands()) {
      if (HasAxis(operand) && failed(Need(operand, block, loop))) return failure();
    }
    loop.outer.insert(def);
    return success();
  }
  return failure();
}

LogicalResult AxisStripMiner::NeedOperands(Operation* op, Block& block, ChunkLoop& loop) {
  SetVector<Value> used(op->getOperands().begin(), op->getOperands().end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  for (Value value : used) {
    if (failed(Need(value, block, loop))) return failure();
  }
  return success();
}

// Checks that the loads of `loop` read nothing an op between them and the loop writes, or
// else read what an earlier loop loaded back from its copy. An assert between them writes
// nothing a load could read (its effect only keeps it in place): the loads, now later, still
// run after it as before.
LogicalResult AxisStripMiner::Close(ChunkLoop& loop) {
  if (loop.sinks.empty()) return success();
  Operation* last = loop.sinks.back();
  for (Operation* member : loop.members) {
    // A member that writes runs at the loop, after the ops between: none of them may read or
    // write memory.
    if (writers_.contains(member)) {
      for (Operation* op = member->getNextNode(); op && op != last; op = op->getNextNode()) {
        if (!loop.members.contains(op) && (Reads(op) || Writes(op))) return failure();
      }
    }
    if (!Reads(member)) continue;
    for (Operation* op = member->getNextNode(); op && op != last; op = op->getNextNode()) {
      if (!loop.members.contains(op) && !isa<AssertOp>(op) && Writes(op)) {
        if (failed(ReadBack(member, loop))) return failure();
        break;
      }
    }
  }
  loops_.push_back(std::move(loop));
  loop = ChunkLoop();
  sinkResults_.clear();
  return success();
}

// `member`, a load some write separates from `loop`, is read from a stack copy that the first
// earlier loop loading it makes: that loop ran where nothing had written yet (its own Close).
LogicalResult AxisStripMiner::ReadBack(Operation* member, ChunkLoop& loop) {
  auto load = dyn_cast<LoadOp>(member);
  if (!load || load.getIsVolatile()) return failure();
  return success(ReadFromCopy(member, loop));
}

// `op` (of this block, one tile of whole bytes) read in `loop` from the stack copy that the
// first earlier loop computing it makes; false when no earlier loop computes it.
bool AxisStripMiner::ReadFromCopy(Operation* op, ChunkLoop& loop) {
  auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!tensor || !tensor.getElementType().isIntOrFloat() ||
      tensor.getElementTypeBitWidth() % 8 != 0) {
    return false;
  }
  for (auto [index, earlier] : llvm::enumerate(loops_)) {
    if (!earlier.members.contains(op) || earlier.readBack.contains(op)) continue;
    copiedBy_.try_emplace(op, index);
    loop.readBack.insert(op);
    return true;
  }
  return false;
}

// A dot that an earlier loop of this block computes, and whose result has the axis (it does not
// contract it), is read from that loop's stack copy of its chunks instead of computed again
// with its operands' loads: attention's Q K^T is needed by the pass that finds its rows' max
// and again by the pass that exponentiates, sums and multiplies by V. A chunk of scores costs a
// store and a load per vector where its dot costs its K multiply-adds per element (64 with a
// head dimension of 64) and the reload and transpose of K's chunk.
bool AxisStripMiner::ReadsBackDot(Operation* def, ChunkLoop& loop) {
  auto dot = dyn_cast<DotOp>(def);
  if (!dot || Folds(dot) || !ReadFromCopy(def, loop)) return false;
  loop.members.insert(def);
  return true;
}

LogicalResult AxisStripMiner::Plan(Block& block) {
  ChunkLoop loop;
  blocks_.push_back(&block);
  for (Operation& op : block) {
    bool produces = ProducesAxis(&op);
    bool isSink = false;
    if (isa<StoreOp, AssertOp>(op) || (isa<AtomicRMWOp, AtomicCASOp>(op) && op.use_empty())) {
      isSink = UsesAxis(&op);
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      isSink = Folds(reduce);
      // Chunks combine from a zero-initialised carry (never read: the first chunk replaces it).
      if (isSink && llvm::any_of(reduce.getResultTypes(), [](Type type) {
            return !getElementTypeOrSelf(type).isIntOrFloat();
          })) {
        return failure();
      }
    } else if (isa<DotOp>(op)) {
      isSink = Folds(&op);
    } else if (op.getNumRegions() != 0 && !produces && UsesAxis(&op)) {
      if (FoldsAxis(&op) || HoldsAxis(&op)) {
        // Its body reduces along the axis, or computes the whole axis from nothing of it
        // outside (Inductor's foreach kernels: one tensor per `elif pid < ...` branch, each
        // branch an scf.if nested in the previous one's else): strip-mined inside.
        if (failed(Close(loop))) return failure();
        for (Region& region : op.getRegions()) {
          for (Block& inner : region) {
            if (failed(Plan(inner))) return failure();
          }
        }
        continue;
      }
      if (!op.use_empty()) return failure();  // its results would be a chunk's
      // It runs once per chunk: each write in it must be to the chunk's own lanes.
      bool repeatsWrites = false;
      op.walk([&](Operation* inner) {
        if (inner != &op && inner->getNumRegions() == 0 && Writes(inner) && !UsesAxis(inner)) {
          repeatsWrites = true;
        }
      });
      if (repeatsWrites) return failure();
      isSink = true;
    }
    if (isSink) {
      ChunkLoop attempt = loop;
      if (failed(NeedOperands(&op, block, attempt))) {
        // It needs a result of this loop's sinks: the next loop.
        if (failed(Close(loop))) return failure();
        attempt = ChunkLoop();
        if (failed(NeedOperands(&op, block, attempt))) return failure();
      }
      loop = std::move(attempt);
      loop.sinks.push_back(&op);
      loop.members.insert(&op);
      sinkResults_.insert(&op);
      continue;
    }
    if (produces) continue;  // runs where a sink needs it
    if (UsesAxis(&op)) return failure();  // consumes the axis in a way no sink knows
    // An op outside the axis: a loop that it depends on or that writes ends before it, unless
    // it only computes from the loop's results: it then moves after the loop, which goes on
    // (tutorial 05 backward's mean of one sum between the two sums: one loop for both).
    bool dependsOnLoop = llvm::any_of(op.getOperands(), [&](Value v) {
      Operation* def = v.getDefiningOp();
      return def && sinkResults_.contains(def);
    });
    if (dependsOnLoop && op.getNumRegions() == 0 && isPure(&op)) {
      loop.after.push_back(&op);
      sinkResults_.insert(&op);
      continue;
    }
    if (dependsOnLoop || Writes(&op) || op.hasTrait<OpTrait::IsTerminator>()) {
      if (failed(Close(loop))) return failure();
    }
  }
  return Close(loop);
}

// The type of `original` with its axis dimensions cut to the chunk.
Type AxisStripMiner::ChunkType(Value original) {
  auto tensor = dyn_cast<RankedTensorType>(original.getType());
  if (!tensor) return original.getType();
  SmallVector<int64_t> shape(tensor.getShape());
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (axes_.AxisOf(original, d) == axis_) shape[d] = chunk_ * axes_.Unit(original, d);
  }
  return RankedTensorType::get(shape, tensor.getElementType(), tensor.getEncoding());
}

// Clones `op` with its axis dimensions (and those of every value inside it) cut to the chunk;
// a make_range along the axis starts at `first` (the chunk's first lane).
Operation* AxisStripMiner::CloneChunk(OpBuilder& b, Operation* op, IRMapping& map, Value first) {
  Operation* clone = b.clone(*op, map);
  SmallVector<Operation*> originals, clones;
  op->walk<WalkOrder::PreOrder>([&](Operation* o) { originals.push_back(o); });
  clone->walk<WalkOrder::PreOrder>([&](Operation* o) { clones.push_back(o); });
  auto chunked = [&](Value original) { return ChunkType(original); };
  for (auto [original, copy] : llvm::zip(originals, clones)) {
    for (auto [r, c] : llvm::zip(original->getResults(), copy->getResults())) {
      c.setType(chunked(r));
    }
    for (auto [region, copyRegion] : llvm::zip(original->getRegions(), copy->getRegions())) {
      for (auto [block, copyBlock] : llvm::zip(region, copyRegion)) {
        for (auto [arg, copyArg] : llvm::zip(block.getArguments(), copyBlock.getArguments())) {
          copyArg.setType(chunked(arg));
        }
      }
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(copy); constant && HasAxis(original->getResult(0))) {
      auto elements = cast<DenseElementsAttr>(cast<arith::ConstantOp>(original).getValue());
      constant.setValueAttr(elements.resizeSplat(cast<ShapedType>(constant.getType())));
    }
    if (auto range = dyn_cast<MakeRangeOp>(copy); range && HasAxis(original->getResult(0))) {
      // start + first * unit + [0, chunk * unit): the chunk's lanes of the original range.
      OpBuilder rb(range);
      Location loc = range.getLoc();
      auto type = cast<RankedTensorType>(range.getType());
      const int64_t unit = axes_.Unit(original->getResult(0), 0);
      Value lanes = rb.create<MakeRangeOp>(loc, type, 0, static_cast<int32_t>(chunk_ * unit));
      Value start = rb.create<arith::AddIOp>(
          loc, Scaled(rb, loc, first, unit),
          rb.create<arith::ConstantIntOp>(loc, range.getStart(), 32));
      Value offset = rb.create<SplatOp>(loc, type, start);
      Value shifted = rb.create<arith::AddIOp>(loc, offset, lanes);
      range.getResult().replaceAllUsesWith(shifted);
      if (copy == clone) clone = shifted.getDefiningOp();
      range.erase();
    }
  }
  map.map(op->getResults(), clone->getResults());
  return clone;
}

// Pointers to the chunk's lanes in the stack copy of `load`'s whole tile (row-major), made at
// the function's entry the first time.
Value AxisStripMiner::CopyPointers(OpBuilder& b, Location loc, Operation* load, Value first) {
  auto whole = cast<RankedTensorType>(load->getResult(0).getType());
  Value& base = copies_[load];
  if (!base) {
    auto func = load->getParentOfType<FuncOp>();
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    Value elements = entry.create<LLVM::ConstantOp>(
        loc, entry.getI64Type(), entry.getI64IntegerAttr(whole.getNumElements()));
    Value buffer = entry.create<LLVM::AllocaOp>(loc, LLVM::LLVMPointerType::get(b.getContext()),
                                                whole.getElementType(), elements,
                                                /*alignment=*/16);
    Value address = entry.create<LLVM::PtrToIntOp>(loc, entry.getI64Type(), buffer);
    base = entry.create<IntToPtrOp>(loc, PointerType::get(whole.getElementType(), 1), address);
  }
  auto chunk = cast<RankedTensorType>(ChunkType(load->getResult(0)));
  int64_t rank = chunk.getRank();
  auto offsetsType = RankedTensorType::get(chunk.getShape(), b.getI32Type());
  auto constant = [&](int64_t value) {
    return b.create<arith::ConstantIntOp>(loc, value, 32).getResult();
  };
  // sum_d lane_d * stride_d, lane_d offset by `first` along the axis.
  Value offsets;
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    auto laneType = RankedTensorType::get({chunk.getDimSize(d)}, b.getI32Type());
    Value lanes = b.create<MakeRangeOp>(loc, laneType, 0, chunk.getDimSize(d));
    if (axes_.AxisOf(load->getResult(0), d) == axis_) {
      Value start = Scaled(b, loc, first, axes_.Unit(load->getResult(0), d));
      lanes = b.create<arith::AddIOp>(loc, lanes, b.create<SplatOp>(loc, laneType, start));
    }
    if (stride != 1) {
      lanes =
          b.create<arith::MulIOp>(loc, lanes, b.create<SplatOp>(loc, laneType, constant(stride)));
    }
    SmallVector<int64_t> shape = {chunk.getDimSize(d)};
    for (int64_t e = 0; e < rank; ++e) {
      if (e == d) continue;
      shape.insert(shape.begin() + e, 1);
      lanes = b.create<ExpandDimsOp>(loc, RankedTensorType::get(shape, b.getI32Type()), lanes, e);
    }
    if (lanes.getType() != offsetsType) lanes = b.create<BroadcastOp>(loc, offsetsType, lanes);
    offsets = offsets ? b.create<arith::AddIOp>(loc, offsets, lanes).getResult() : lanes;
    stride *= whole.getDimSize(d);
  }
  auto pointersType = RankedTensorType::get(chunk.getShape(), base.getType());
  return b.create<AddPtrOp>(loc, pointersType, b.create<SplatOp>(loc, pointersType, base), offsets);
}

// A reduction of a row whose combiner has an identity (an addition, a max or a min) is carried
// as a row of partial results, one per lane of a chunk, that every chunk combines into lane by
// lane; the one reduction of that row follows the loop. The chunk loop then works lane by lane
// and tt-split-wide-loops can cut it into slices whose values stay in registers (tutorial 05
// backward's 4096-lane row: its sums loop, 256 lanes a chunk, reduced each chunk's two products
// with every lane live and spilled most of them). Returns the splat of the identity the row
// starts from, or null where the chunks are reduced one by one instead (every other reduction,
// and n-D ones, whose rows of partials would be as large as a chunk's tile).
TypedAttr AxisStripMiner::LanePartialsIdentity(ReduceOp reduce) {
  Operation* combiner = reduceCombinerOf(reduce);
  if (!combiner) return {};
  auto chunk = dyn_cast<RankedTensorType>(ChunkType(reduce.getSrcs().front()));
  if (!chunk || chunk.getRank() != 1) return {};
  TypedAttr identity = combineIdentity(combiner, chunk.getElementType());
  if (!identity) return {};
  return SplatElementsAttr::get(chunk, identity);
}

// One scf.for over the chunks, before the loop's last sink, in place of its sinks.
void AxisStripMiner::RewriteLoop(ChunkLoop& loop, unsigned position) {
  Operation* last = loop.sinks.back();
  OpBuilder b(last);
  Location loc = last->getLoc();
  // Carried: each reduction's partial results so far, each dot's accumulator.
  SmallVector<Value> inits;
  for (Operation* sink : loop.sinks) {
    if (auto reduce = dyn_cast<ReduceOp>(sink)) {
      if (TypedAttr identity = LanePartialsIdentity(reduce)) {
        inits.push_back(b.create<arith::ConstantOp>(loc, identity));
        continue;
      }
      for (Value result : reduce.getResults()) {
        inits.push_back(b.create<arith::ConstantOp>(loc, b.getZeroAttr(result.getType())));
      }
    } else if (auto dot = dyn_cast<DotOp>(sink)) {
      inits.push_back(dot.getC());
    }
  }
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
  Value count = b.create<arith::ConstantIntOp>(loc, count_, 32);
  Value one = b.create<arith::ConstantIntOp>(loc, 1, 32);
  auto chunks = b.create<scf::ForOp>(loc, zero, count, one, inits);
  b.setInsertionPointToStart(chunks.getBody());
  Value index = chunks.getInductionVar();
  Value first = b.create<arith::MulIOp>(loc, index, b.create<arith::ConstantIntOp>(loc, chunk_, 32));
  Value isFirst = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, index, zero);
  IRMapping map;
  // Enclosing blocks' ops first, operands before users (outer is in discovery order: users
  // were inserted after their operands).
  for (Operation* op : loop.outer) CloneChunk(b, op, map, first);
  SmallVector<Operation*> members(loop.members.begin(), loop.members.end());
  llvm::sort(members, [](Operation* x, Operation* y) { return x->isBeforeInBlock(y); });
  SmallVector<Value> yields;
  unsigned carried = 0;
  DenseMap<Operation*, SmallVector<Value>> finals;
  for (Operation* op : members) {
    if (auto reduce = dyn_cast<ReduceOp>(op); reduce && llvm::is_contained(loop.sinks, op)) {
      if (LanePartialsIdentity(reduce)) {
        // partials = combine(partials, the chunk's row), lane by lane; reduced after the loop.
        Value row = map.lookupOrDefault(reduce.getSrcs().front());
        Block& combine = reduce.getCombineOp().front();
        IRMapping lanes;
        lanes.map(combine.getArgument(0), chunks.getRegionIterArgs()[carried]);
        lanes.map(combine.getArgument(1), row);
        Operation* combined = b.clone(*reduceCombinerOf(reduce), lanes);
        combined->getResult(0).setType(row.getType());
        yields.push_back(combined->getResult(0));
        OpBuilder after(chunks->getBlock(), std::next(Block::iterator(chunks)));
        IRMapping partials;
        partials.map(reduce.getSrcs().front(), chunks.getResult(carried));
        finals[op] = SmallVector<Value>(after.clone(*op, partials)->getResults());
        ++carried;
        continue;
      }
      Operation* partial = CloneChunk(b, op, map, first);
      // acc = first ? partial : combine(acc, partial), with the combine region's ops.
      Block& combine = reduce.getCombineOp().front();
      unsigned n = reduce.getNumResults();
      IRMapping region;
      for (unsigned i = 0; i < n; ++i) {
        region.map(combine.getArgument(i), chunks.getRegionIterArgs()[carried + i]);
        region.map(combine.getArgument(n + i), partial->getResult(i));
      }
      auto tensor = dyn_cast<RankedTensorType>(partial->getResult(0).getType());
      auto tensorOf = [&](Type element) {
        return RankedTensorType::get(tensor.getShape(), element, tensor.getEncoding());
      };
      for (Operation& inner : combine.without_terminator()) {
        // The region's arguments and earlier ops are mapped; any other operand is a scalar
        // from outside the region (a constant canonicalization hoisted out of it: the Welford
        // combine's 0.0), which applies to every lane of tensor partial results.
        for (Value operand : inner.getOperands()) {
          if (tensor && !region.contains(operand) && !isa<ShapedType>(operand.getType())) {
            region.map(operand, b.create<SplatOp>(loc, tensorOf(operand.getType()), operand));
          }
        }
        Operation* copy = b.clone(inner, region);
        for (auto [r, c] : llvm::zip(inner.getResults(), copy->getResults())) {
          if (tensor) c.setType(tensorOf(r.getType()));
        }
      }
      Operation* ret = combine.getTerminator();
      for (unsigned i = 0; i < n; ++i) {
        Value combined = region.lookupOrDefault(ret->getOperand(i));
        Value cond = isFirst;
        if (auto tensor = dyn_cast<RankedTensorType>(combined.getType())) {
          cond = b.create<SplatOp>(loc, RankedTensorType::get(tensor.getShape(), b.getI1Type(), tensor.getEncoding()), isFirst);
        }
        yields.push_back(b.create<arith::SelectOp>(loc, cond, partial->getResult(i), combined));
      }
      finals[op] = SmallVector<Value>(chunks.getResults().slice(carried, n));
      carried += n;
      continue;
    }
    if (auto dot = dyn_cast<DotOp>(op); dot && llvm::is_contained(loop.sinks, op)) {
      map.map(dot.getC(), chunks.getRegionIterArgs()[carried]);
      Operation* partial = CloneChunk(b, op, map, first);
      yields.push_back(partial->getResult(0));
      finals[op] = {chunks.getResult(carried)};
      ++carried;
      continue;
    }
    if (loop.readBack.contains(op)) {
      Value pointers = CopyPointers(b, op->getLoc(), op, first);
      map.map(op->getResult(0),
              b.create<LoadOp>(op->getLoc(), ChunkType(op->getResult(0)), pointers, Value(),
                               Value(), ArrayRef<int32_t>{}, PaddingOptionAttr()));
      continue;
    }
    Operation* clone = CloneChunk(b, op, map, first);
    if (auto copier = copiedBy_.find(op);
        copier != copiedBy_.end() && copier->second == position && ReadByLaterLoop(op)) {
      b.create<StoreOp>(op->getLoc(), CopyPointers(b, op->getLoc(), op, first), clone->getResult(0),
                        Value(), ArrayRef<int32_t>{});
    }
  }
  if (!inits.empty()) b.create<scf::YieldOp>(loc, yields);  // else the builder made one
  for (Operation* op : loop.after) {
    if (op->isBeforeInBlock(last)) op->moveBefore(last);  // else already after the loop
  }
  for (Operation* sink : loop.sinks) {
    if (finals.count(sink)) sink->replaceAllUsesWith(finals[sink]);
    sink->erase();
  }
}

void AxisStripMiner::Rewrite() {
  for (auto [position, loop] : llvm::enumerate(loops_)) RewriteLoop(loop, position);
  // The axis ops now run inside the chunk loops; their originals go, users first.
  for (Block* block : llvm::reverse(blocks_)) {
    for (Operation& op : llvm::make_early_inc_range(llvm::reverse(*block))) {
      if (ProducesAxis(&op) && op.use_empty() && (!Writes(&op) || writers_.contains(&op))) {
        op.erase();
      }
    }
  }
}

// The straight-line work of `func` (see kMaxStraightLineWork).
int64_t StraightLineWork(FuncOp func) {
  int64_t work = 0;
  func.walk([&](Operation* op) {
    if (op->getNumResults() != 1 || isa<arith::ConstantOp, MakeRangeOp, SplatOp>(op)) return;
    auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!tensor) return;
    bool costly = isa<ExternElementwiseOp, arith::DivFOp, arith::DivSIOp, arith::DivUIOp,
                      arith::RemSIOp, arith::RemUIOp, arith::RemFOp>(op) ||
                  (op->getDialect() && op->getDialect()->getNamespace() == "math");
    // A tile whose rows are narrower than a vector costs per row (each row its own vector
    // op), and a load of such rows goes lane by lane, each lane under its mask: costly
    // (Inductor's 16x16x2 rotary backward tiles: 3 minutes and 850 KB as one chain).
    const int64_t elements = tensor.getNumElements();
    const int64_t width = tensor.getRank() == 0 ? 1 : tensor.getShape().back();
    const int64_t rows = elements / std::max<int64_t>(1, width);
    costly = costly || (isa<LoadOp>(op) && width < kMinRowWork && elements > 1);
    work += std::max(elements, rows * kMinRowWork) * (costly ? kCostlyOpWeight : 1);
  });
  return work;
}

// The elements of the largest tile of `func`.
int64_t LargestTile(FuncOp func) {
  int64_t largest = 1;
  func.walk([&](Operation* op) {
    for (Type type : op->getResultTypes()) {
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        largest = std::max(largest, tensor.getNumElements());
      }
    }
  });
  return largest;
}

// The lanes a row (a 1-D tile) of `func`, whose straight-line work is `work`, is cut to: kMaxRowElements, or fewer when each lane
// carries much work, so that a chunk's chain stays within a quarter of kMaxStraightLineWork
// (philox's ten rounds for dropout, about 140 ops a lane: 64 lanes).
int64_t RowBudget(FuncOp func, int64_t work) {
  int64_t per_lane = std::max<int64_t>(1, work / LargestTile(func));
  int64_t budget = kMaxRowElements;
  while (budget > kMinRowChunk && budget * per_lane > kMaxStraightLineWork / 4) budget /= 2;
  return budget;
}

// The elements an n-D tile of `func`, whose straight-line work is `work`, is cut to:
// kMaxTileElements, or fewer when each element carries much work, as RowBudget does for rows.
// Functions with dots keep kMaxTileElements: their tiles are chosen for the dots' budgets.
int64_t TileBudget(FuncOp func, int64_t work) {
  bool dots = func.walk([](DotOp) { return WalkResult::interrupt(); }).wasInterrupted();
  if (dots) return kMaxTileElements;
  int64_t per_element = std::max<int64_t>(1, work / LargestTile(func));
  int64_t budget = kMaxTileElements;
  while (budget > kMinTileChunk && budget * per_element > kMaxStraightLineWork / 4) budget /= 2;
  return budget;
}

// A tile, dot or dot accumulator over the budgets anywhere in `func`, or more straight-line
// `work` than kMaxStraightLineWork.
bool OverBudget(FuncOp func, int64_t work) {
  auto elements = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor ? tensor.getNumElements() : 1;
  };
  bool over = false;
  func.walk([&](Operation* op) {
    for (Type type : op->getResultTypes()) over = over || elements(type) > kMaxTileElements;
  });
  func.walk([&](Block* block) {
    int64_t macs = 0;
    int dots = 0;
    for (DotOp dot : block->getOps<DotOp>()) {
      auto a = cast<RankedTensorType>(dot.getA().getType());
      macs += elements(dot.getType()) * a.getShape().back() / DotMacWeight(dot);
      ++dots;
    }
    over = over || macs > kMaxDotMacs;
    // A block's only dot (a matmul's K step) over the accumulator's registers: its M x N tile
    // runs as register-sized chunks, each with the whole K loop (matmul_f32's 16x32 tiles:
    // 0.774 -> 0.327 instructions per MAC). Attention's two dots stay whole unless another
    // budget cuts them: their scores are reduced along the keys, and 8x8 chunks of 16-query
    // flash attention reloaded rows for every max, sum and scale (0.90 -> 3.56 per MAC).
    if (dots == 1) {
      DotOp dot = *block->getOps<DotOp>().begin();
      const int64_t budget = AccumulatorBudget(dot);
      over = over || (budget && elements(dot.getType()) > budget);
    }
  });
  return over || work > kMaxStraightLineWork;
}

// A tt.fp_to_fp from f32 to f16 or bf16: its rounding (toward zero, or bf16 to nearest without
// BFCVT), NaN and overflow handling are several integer ops on the bits with values live across
// them, as a polynomial's are (half_narrow's four conversions of a 64-lane row: a third of its
// instructions were spills).
bool IsNarrowingConversion(Operation* op) {
  auto convert = dyn_cast<FpToFpOp>(op);
  if (!convert) return false;
  return getElementTypeOrSelf(convert.getSrc().getType()).isF32() &&
         getElementTypeOrSelf(convert.getResult().getType()).getIntOrFloatBitWidth() == 16;
}

// A math function tcpu-expand-math computes as a polynomial (exp, log, sin, tanh, erf, ...,
// libdevice's), or a narrowing float conversion (as many live values).
bool IsPolynomial(Operation* op) {
  return isa<ExternElementwiseOp>(op) || IsNarrowingConversion(op) ||
         (op->getDialect() && op->getDialect()->getNamespace() == "math" &&
          !isa<math::SqrtOp, math::FmaOp, math::AbsFOp, math::AbsIOp, math::FloorOp,
               math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp, math::CopySignOp,
               math::CountLeadingZerosOp, math::CountTrailingZerosOp, math::CtPopOp>(op));
}

// No loop, reduction, scan, dot or histogram in `func`: each lane computed on its own.
bool IsPointwise(FuncOp func) {
  return !func.walk([](Operation* op) {
                return isa<scf::ForOp, scf::WhileOp, ReduceOp, ScanOp, DotOp, HistogramOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}

// The lanes a row of `func` within the budgets is cut to, or 0 to keep its rows whole:
// kRegisterRowChunk where it computes a polynomial math function over a wider row,
// kRegisterRow where it is pointwise and loads a wider row (see both).
int64_t RegisterRowChunk(FuncOp func) {
  // Only a pointwise function's rows are cut for their loads: with a loop, a reduction, a scan
  // or a dot (layer norm's passes over its row) the cut rows are reloaded or their chunks'
  // bookkeeping costs more than the spills (layer norm +31%).
  const bool pointwise = IsPointwise(func);
  int64_t chunk = 0;
  func.walk([&](Operation* op) {
    if (op->getNumResults() != 1) return;
    auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!tensor || tensor.getRank() != 1) return;
    if (IsPolynomial(op) && tensor.getNumElements() > kRegisterRowChunk) {
      chunk = kRegisterRowChunk;
    } else if (pointwise && isa<LoadOp>(op) && tensor.getNumElements() > kRegisterRow &&
               chunk == 0) {
      chunk = kRegisterRow;
    }
  });
  return chunk;
}

// kRegisterRowChunk elements where a function within the budgets computes a polynomial math
// function over an n-D tile of more and may cut that tile, else 0:
// - a pointwise function, its parallel axes cut as rows are (RegisterRowChunk). Llama's rotary
//   embedding as Inductor writes it, cos and sin of an 8x32 tile: 64 registers a value, and
//   4,000 of the 13,000 instructions of a program were spills and reloads;
// - a reduction loop without dots, scans or histograms whose polynomial tile has an axis it
//   carries and reduces past the loop (Inductor's `triton_red_*`): that axis is cut too
//   (`*carried`), each chunk running the loop over its lanes. Qwen3's rotary backward, sin and
//   cos of a 2x64 tile in a loop of two steps: 289,405 -> 86,385 instructions (2x8 chunks).
int64_t RegisterTileChunk(FuncOp func, bool* carried) {
  *carried = false;
  SmallVector<Value> tiles;
  func.walk([&](Operation* op) {
    if (op->getNumResults() != 1 || !IsPolynomial(op)) return;
    auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (tensor && tensor.getRank() > 1 && tensor.getNumElements() > kRegisterRowChunk) {
      tiles.push_back(op->getResult(0));
    }
  });
  if (tiles.empty()) return 0;
  if (IsPointwise(func)) return kRegisterRowChunk;
  const bool mixing = func.walk([](Operation* op) {
                            return isa<DotOp, ScanOp, HistogramOp>(op) ? WalkResult::interrupt()
                                                                       : WalkResult::advance();
                          })
                          .wasInterrupted();
  if (mixing) return 0;
  Axes axes(func);
  for (Value tile : tiles) {
    for (unsigned d = 0; d < cast<RankedTensorType>(tile.getType()).getRank(); ++d) {
      const int axis = axes.AxisOf(tile, d);
      if (axis >= 0 && axes.ReducedPastLoops(axis)) {
        *carried = true;
        return kRegisterRowChunk;
      }
    }
  }
  return 0;
}

// Gives each use of an index computation its own copy: ranges, splats, splat constants and
// the pure shape and elementwise ops on them alone. Triton prints one `tt.make_range` for
// equal ranges and one `offs_k[None, :]` for every use of it (BLOCK_N == BLOCK_K share
// them), which would tie a dot's N and K axes together; the copies cost nothing (the backend
// folds equal values again).
void SeparateSharedSources(FuncOp func) {
  // Each source's ops, itself and the sources it is computed from: an index computation is a
  // handful; a long chain computed from ranges alone (philox's ten rounds for tl.rand, whose
  // values each feed two ops) is not one, and copying it per use doubled it every round.
  DenseMap<Operation*, int64_t> sources;
  SmallVector<Operation*> order;
  func.walk<WalkOrder::PreOrder>([&](Operation* op) {
    bool tensor = op->getNumResults() == 1 && isa<RankedTensorType>(op->getResult(0).getType());
    if (!tensor || op->getNumRegions() != 0 || !isPure(op)) return;
    bool leaf = isa<MakeRangeOp, SplatOp, arith::ConstantOp>(op);
    bool shape = isa<ExpandDimsOp, BroadcastOp, TransOp>(op) ||
                 op->hasTrait<OpTrait::Elementwise>();
    int64_t ops = 1;
    bool fromSources = llvm::all_of(op->getOperands(), [&](Value operand) {
      if (!isa<RankedTensorType>(operand.getType())) return true;
      Operation* def = operand.getDefiningOp();
      auto it = def ? sources.find(def) : sources.end();
      if (it == sources.end()) return false;
      ops += it->second;
      return true;
    });
    if (leaf || (shape && fromSources && ops <= kMaxSharedSourceOps)) {
      sources[op] = ops;
      order.push_back(op);
    }
  });
  // Users first: each copy of a user adds a use of its operands, copied in turn.
  for (Operation* source : llvm::reverse(order)) {
    SmallVector<OpOperand*> uses;
    for (OpOperand& use : source->getUses()) uses.push_back(&use);
    if (uses.size() < 2) continue;
    for (OpOperand* use : llvm::drop_begin(uses)) {
      OpBuilder b(source->getBlock(), std::next(source->getIterator()));
      use->set(b.clone(*source)->getResult(0));
    }
  }
}

// An scf.if yielding tiles whose branches first write through scalars (tutorial 05 backward's
// `if count == 0 { Count = 1; yield dw, db } else { yield dw + DW, db + DB }`): the scalar
// writes move into an scf.if of their own on the same condition, in front of it, so that the
// branch yielding the tiles writes nothing and can run once per chunk. Only writes that come
// before every other access of their branch move, so no access changes order.
void SplitScalarWrites(FuncOp func) {
  auto isTile = [](Value value) { return isa<RankedTensorType>(value.getType()); };
  SmallVector<scf::IfOp> branches;
  func.walk([&](scf::IfOp branch) {
    if (llvm::any_of(branch.getResults(), isTile)) branches.push_back(branch);
  });
  for (scf::IfOp branch : branches) {
    SmallVector<SmallVector<Operation*>> moving;
    for (Region& region : branch->getRegions()) {
      SmallVector<Operation*>& moves = moving.emplace_back();
      if (region.empty()) continue;
      for (Operation& op : region.front().without_terminator()) {
        bool scalarWrite = op.getNumRegions() == 0 && Writes(&op) && op.use_empty() &&
                           llvm::none_of(op.getOperands(), isTile) &&
                           llvm::all_of(op.getOperands(), [&](Value operand) {
                             return !branch->isAncestor(operand.getParentRegion()->getParentOp());
                           });
        if (!scalarWrite) {
          if (!isMemoryEffectFree(&op)) break;
          continue;
        }
        moves.push_back(&op);
      }
    }
    if (llvm::all_of(moving, [](const auto& moves) { return moves.empty(); })) continue;
    OpBuilder b(branch);
    auto writes = b.create<scf::IfOp>(branch.getLoc(), TypeRange{}, branch.getCondition(),
                                      /*withElseRegion=*/!moving[1].empty());
    for (Operation* op : moving[0]) op->moveBefore(writes.thenBlock()->getTerminator());
    for (Operation* op : moving[1]) op->moveBefore(writes.elseBlock()->getTerminator());
  }
}

// Erases ops whose results nobody uses and that have no effect (tt-loop-pointers-to-offsets
// leaves the pointers after a loop): a dead use of a loop's result would keep it whole.
void EraseDeadOps(FuncOp func) {
  IRRewriter rewriter(func.getContext());
  (void)runRegionDCE(rewriter, func->getRegions());
}

// Adds to `refused` every axis of `chunks` that cannot be strip-mined as the function stands
// (planning rewrites nothing); true if there was one.
bool RefuseUnplannable(FuncOp func, Axes& axes, const DenseMap<int, int64_t>& chunks,
                       DenseSet<int>& refused) {
  bool any = false;
  for (auto [axis, size] : chunks) {
    AxisStripMiner trial(axes, axis, size);
    if (failed(trial.Plan(func.getBody().front())) || trial.Empty()) {
      refused.insert(axis);
      any = true;
    }
  }
  return any;
}

struct TTStripMineTiles : impl::TTStripMineTilesBase<TTStripMineTiles> {
  void runOnOperation() override {
    getOperation().walk([&](FuncOp func) {
      const int64_t work = StraightLineWork(func);
      const bool over = OverBudget(func, work);
      const int64_t register_row = over ? 0 : RegisterRowChunk(func);
      bool carried = false;
      const int64_t register_tile = over ? 0 : RegisterTileChunk(func, &carried);
      if (!over && register_row == 0 && register_tile == 0) return;
      // Over the budgets, every axis may shrink; within them, parallel rows and tiles to
      // registers, and the axes a reduction loop carries where it computes a polynomial.
      const int64_t row_budget =
          over ? RowBudget(func, work) : (register_row ? register_row : kMaxTileElements);
      const int64_t tile_budget =
          over ? TileBudget(func, work) : (register_tile ? register_tile : kMaxTileElements);
      const Shrinkable shrinkable = over      ? Shrinkable::kAnyAxis
                                    : carried ? Shrinkable::kParallelAndCarriedAxes
                                              : Shrinkable::kParallelAxes;
      EraseDeadOps(func);
      SplitScalarWrites(func);
      SeparateSharedSources(func);
      DenseSet<int> refused;
      // One axis per round; the axes are found again on the rewritten function. Each axis
      // takes a round or two (Inductor's foreach kernels have one per tensor).
      const int rounds = 16 + 2 * static_cast<int>(Axes(func).Roots().size());
      for (int round = 0; round < rounds; ++round) {
        Axes axes(func);
        DenseMap<int, int64_t> chunks = ChooseChunks(func, axes, refused, row_budget, tile_budget, shrinkable);
        if (chunks.empty()) break;
        // The chunks were chosen counting on every axis of `chunks`: one whose plan fails is
        // refused before any is rewritten, and the chunks chosen again without it. Otherwise
        // the axis strip-mined first is cut for a budget shared with an axis later left
        // whole, and must be split again inside its own chunk loops (attention: the key
        // axis in 2x2 nested loops, each recomputing Q K^T, when the head dimension of
        // Q K^T, loaded before the key loop, cannot be chunked).
        if (RefuseUnplannable(func, axes, chunks, refused)) {
          --round;
          if (refused.size() > 64) break;
          continue;
        }
        // Contracted axes first (each later axis wraps the chunk loops of the earlier, so a
        // dot's K chunks find its operands' loads beside them), then parallel, then reduced
        // ones; larger first. Parallel before reduced: a row chunk is often within budget
        // whole, and column chunk loops cut first can make the rows unplannable (Inductor's
        // softmax + dropout over 128x16: its 16 columns first, and the rows stayed whole,
        // 54 s and 872 KB; rows first, 8-row chunks, 1 s and 41 KB).
        auto rank = [&](int a) {
          switch (axes.Use(a)) {
            case AxisUse::kContracted: return 0;
            case AxisUse::kParallel: return 1;
            case AxisUse::kReduced: return 2;
          }
          return 2;
        };
        int axis = chunks.begin()->first;
        for (auto [candidate, size] : chunks) {
          auto key = [&](int a) { return std::make_pair(rank(a), -axes.Size(a)); };
          if (key(candidate) < key(axis)) axis = candidate;
        }
        AxisStripMiner miner(axes, axis, chunks[axis]);
        if (failed(miner.Plan(func.getBody().front())) || miner.Empty()) {
          refused.insert(axis);  // left whole; the same analysis numbers it the same way
          --round;
          if (refused.size() > 64) break;
          continue;
        }
        miner.Rewrite();
        EraseDeadOps(func);
        refused.clear();
      }
    });
  }
};

}  // namespace
}  // namespace strip_mine_tiles
}  // namespace mlir::tt
