// tcpu-flatten-narrow-vectors: n-D vectors whose rows are narrower than a register become 1-D
// vectors of all their elements (row-major), and the ops on them ops on those.
//
// The LLVM lowering keeps an n-D vector as an array of its innermost rows. Triton's tl.sort
// reshapes a 8x128 tile into 2x2x...x2 (ten dimensions) and compares and swaps along one
// dimension at a time: each elementwise op became 512 ops on <2 x i32>, each strided slice and
// broadcast as many extracts and inserts, and the backend took minutes on the kernel.
// Flattened, an elementwise op is one op on <1024 x i32> (the backend splits it into registers
// as it does a Triton row), and a broadcast, strided slice, transpose or extract is one
// vector.shuffle with a constant mask.
//
// Values are flattened by component: the n-D vectors (rank >= 2, at most kMaxElements) that
// the ops below connect (constants, arith/math elementwise ops, vector.broadcast,
// extract_strided_slice, shape_cast, transpose, extract at constant positions), when one of
// them is narrow. All of a component goes: Inductor's sort views its 8x128 tile as 512x2x1,
// 256x2x2, ..., 8x2x64 in turn, and flattening only the narrow views would leave shape casts
// between 1-D and 128x2x4 that the vector lowering does element by element (unflattened, the
// kernel took over two minutes to compile; flattened, 30 s). Any other op on a flattened
// value (a loop's yield, a store) gets it cast back to its n-D type: a component is flattened
// only when those values are 2-D (cast row by row).
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUFLATTENNARROWVECTORS
#include "tt/TTToTcpuPasses.h.inc"

namespace flatten_narrow_vectors {
namespace {

constexpr int64_t kRegisterBits = 128;
// Larger vectors keep their rows: a shuffle mask per op of this many lanes at most.
constexpr int64_t kMaxElements = 4096;

// A fixed n-D vector (n >= 2) of integers or floats, small enough for shuffle masks.
bool IsCandidate(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getRank() < 2 || vector.isScalable()) return false;
  return vector.getElementType().isIntOrFloat() && vector.getNumElements() <= kMaxElements;
}

// A candidate of rank >= 3 whose innermost rows hold less than one register.
bool IsNarrow(Type type) {
  if (!IsCandidate(type)) return false;
  auto vector = cast<VectorType>(type);
  return vector.getRank() >= 3 &&
         vector.getShape().back() * vector.getElementType().getIntOrFloatBitWidth() <
             kRegisterBits;
}

VectorType FlatType(VectorType type) {
  return VectorType::get({type.getNumElements()}, type.getElementType());
}

bool IsElementwise(Operation* op) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (op->getNumRegions() != 0 || (dialect != "arith" && dialect != "math")) return false;
  if (isa<arith::ConstantOp>(op) || op->getNumResults() != 1) return false;
  auto result = dyn_cast<VectorType>(op->getResult(0).getType());
  if (!result) return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return !vector || vector.getShape() == result.getShape();
  });
}

bool Supported(Operation* op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    return isa<DenseElementsAttr>(constant.getValue());
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) return extract.getDynamicPosition().empty();
  return IsElementwise(op) ||
         isa<vector::BroadcastOp, vector::ExtractStridedSliceOp, vector::ShapeCastOp,
             vector::TransposeOp>(op);
}

// Whether `value`, if other ops than those above define or use it, costs little to cast between
// its n-D and its flat form: the vector lowering casts a 2-D vector row by row, a deeper one
// element by element.
bool CheapAtBoundary(Value value) {
  Operation* def = value.getDefiningOp();
  bool boundary = !def || !Supported(def) ||
                  llvm::any_of(value.getUsers(), [](Operation* user) { return !Supported(user); });
  return !boundary || cast<VectorType>(value.getType()).getRank() == 2;
}

class Flattener {
 public:
  explicit Flattener(func::FuncOp func) : func_(func), b_(func.getContext()) {}

  void Run() {
    // The components of candidates that supported ops connect (union-find by representative).
    llvm::DenseMap<Value, Value> parent;
    auto find = [&](Value v) {
      Value root = v;
      while (parent.lookup(root) != root) root = parent.lookup(root);
      for (Value next; v != root; v = next) {
        next = parent.lookup(v);
        parent[v] = root;
      }
      return root;
    };
    auto candidates = [](Operation* op) {
      SmallVector<Value> values;
      for (Value v : op->getOperands()) {
        if (IsCandidate(v.getType())) values.push_back(v);
      }
      for (Value v : op->getResults()) {
        if (IsCandidate(v.getType())) values.push_back(v);
      }
      return values;
    };
    SmallVector<Operation*> ops;
    func_.walk([&](Operation* op) {
      if (!Supported(op)) return;
      SmallVector<Value> values = candidates(op);
      if (values.empty()) return;
      ops.push_back(op);
      for (Value v : values) parent.try_emplace(v, v);
      for (Value v : values) parent[find(v)] = find(values.front());
    });
    // The components holding a narrow vector, all cheap at their boundaries.
    llvm::MapVector<Value, SmallVector<Value>> members;
    for (auto& [value, unused] : parent) members[find(value)].push_back(value);
    llvm::DenseSet<Value> flattened;
    for (auto& [root, values] : members) {
      bool narrow = llvm::any_of(values, [](Value v) { return IsNarrow(v.getType()); });
      if (!narrow || !llvm::all_of(values, CheapAtBoundary)) continue;
      flattened.insert(values.begin(), values.end());
    }
    // Chosen before any rewrite: rewriting an op gives its users new operands.
    SmallVector<Operation*> rewrites;
    for (Operation* op : ops) {
      if (llvm::any_of(candidates(op), [&](Value v) { return flattened.contains(v); })) {
        rewrites.push_back(op);
      }
    }
    if (rewrites.empty()) return;
    for (Operation* op : rewrites) Rewrite(op);
    // The casts back to n-D that nothing uses any more.
    SmallVector<Operation*> dead;
    func_.walk([&](vector::ShapeCastOp cast) {
      if (cast->use_empty()) dead.push_back(cast);
    });
    for (Operation* op : llvm::reverse(dead)) {
      if (op->use_empty()) op->erase();
    }
  }

 private:
  // `value` as a 1-D vector, row-major: itself, the flat value it was cast from, or a cast.
  Value Flat(Value value, Location loc) {
    auto type = cast<VectorType>(value.getType());
    if (type.getRank() == 1) return value;
    if (auto cast = value.getDefiningOp<vector::ShapeCastOp>()) {
      if (cast.getSourceVectorType().getRank() == 1) return cast.getSource();
    }
    return b_.create<vector::ShapeCastOp>(loc, FlatType(type), value);
  }

  // One shuffle of `source` (flat) picking lane `lanes[i]` for result lane i.
  Value Pick(Value source, ArrayRef<int64_t> lanes, Location loc) {
    return b_.create<vector::ShuffleOp>(loc, source, source, lanes);
  }

  // The flat form of `op`'s result.
  Value FlatResult(Operation* op) {
    Location loc = op->getLoc();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = cast<VectorType>(constant.getType());
      auto value = cast<DenseElementsAttr>(constant.getValue()).reshape(FlatType(type));
      return b_.create<arith::ConstantOp>(loc, value);
    }
    if (IsElementwise(op)) {
      SmallVector<Value> operands;
      for (Value operand : op->getOperands()) {
        operands.push_back(isa<VectorType>(operand.getType()) ? Flat(operand, loc) : operand);
      }
      auto type = FlatType(cast<VectorType>(op->getResult(0).getType()));
      OperationState state(loc, op->getName(), operands, {type}, op->getAttrs());
      return b_.create(state)->getResult(0);
    }
    if (auto cast = dyn_cast<vector::ShapeCastOp>(op)) return Flat(cast.getSource(), loc);
    if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
      VectorType to = broadcast.getResultVectorType();
      auto from = dyn_cast<VectorType>(broadcast.getSourceType());
      if (!from || from.getNumElements() == 1) {
        Value scalar = broadcast.getSource();
        if (from) {
          scalar = b_.create<vector::ExtractOp>(loc, Flat(scalar, loc), ArrayRef<int64_t>{0});
        }
        return b_.create<vector::BroadcastOp>(loc, FlatType(to), scalar);
      }
      ArrayRef<int64_t> fromShape = from.getShape();
      SmallVector<int64_t> toStrides = computeStrides(to.getShape());
      SmallVector<int64_t> fromStrides = computeStrides(fromShape);
      int64_t lead = to.getRank() - from.getRank();
      SmallVector<int64_t> lanes;
      for (int64_t i = 0; i < to.getNumElements(); ++i) {
        SmallVector<int64_t> at = delinearize(i, toStrides), source;
        for (int64_t d = 0; d < from.getRank(); ++d) {
          source.push_back(fromShape[d] == 1 ? 0 : at[lead + d]);
        }
        lanes.push_back(linearize(source, fromStrides));
      }
      return Pick(Flat(broadcast.getSource(), loc), lanes, loc);
    }
    if (auto slice = dyn_cast<vector::ExtractStridedSliceOp>(op)) {
      VectorType from = slice.getSourceVectorType(), to = slice.getType();
      auto offsets = extractFromIntegerArrayAttr<int64_t>(slice.getOffsets());
      auto steps = extractFromIntegerArrayAttr<int64_t>(slice.getStrides());
      SmallVector<int64_t> toStrides = computeStrides(to.getShape());
      SmallVector<int64_t> fromStrides = computeStrides(from.getShape());
      SmallVector<int64_t> lanes;
      for (int64_t i = 0; i < to.getNumElements(); ++i) {
        SmallVector<int64_t> at = delinearize(i, toStrides);
        for (size_t d = 0; d < offsets.size(); ++d) at[d] = offsets[d] + at[d] * steps[d];
        lanes.push_back(linearize(at, fromStrides));
      }
      return Pick(Flat(slice.getVector(), loc), lanes, loc);
    }
    if (auto transpose = dyn_cast<vector::TransposeOp>(op)) {
      VectorType from = transpose.getSourceVectorType(), to = transpose.getResultVectorType();
      ArrayRef<int64_t> permutation = transpose.getPermutation();
      SmallVector<int64_t> toStrides = computeStrides(to.getShape());
      SmallVector<int64_t> fromStrides = computeStrides(from.getShape());
      SmallVector<int64_t> lanes;
      for (int64_t i = 0; i < to.getNumElements(); ++i) {
        SmallVector<int64_t> at = delinearize(i, toStrides);
        SmallVector<int64_t> source(at.size());
        for (size_t d = 0; d < at.size(); ++d) source[permutation[d]] = at[d];
        lanes.push_back(linearize(source, fromStrides));
      }
      return Pick(Flat(transpose.getVector(), loc), lanes, loc);
    }
    auto extract = cast<vector::ExtractOp>(op);
    VectorType from = extract.getSourceVectorType();
    ArrayRef<int64_t> position = extract.getStaticPosition();
    SmallVector<int64_t> strides = computeStrides(from.getShape());
    int64_t base = 0;
    for (auto [p, stride] : llvm::zip(position, strides)) base += p * stride;
    Value flat = Flat(extract.getVector(), loc);
    auto to = dyn_cast<VectorType>(extract.getType());
    if (!to) return b_.create<vector::ExtractOp>(loc, flat, ArrayRef<int64_t>{base});
    SmallVector<int64_t> lanes;
    for (int64_t i = 0; i < to.getNumElements(); ++i) lanes.push_back(base + i);
    return Pick(flat, lanes, loc);
  }

  void Rewrite(Operation* op) {
    b_.setInsertionPoint(op);
    Value result = op->getResult(0);
    // An op with narrow operands but a result kept as it is (a scalar extract, a cast to a
    // wide shape): its result from the flat operands, cast to its type.
    Value flat = FlatResult(op);
    Value replacement = flat;
    if (flat.getType() != result.getType()) {
      replacement = b_.create<vector::ShapeCastOp>(op->getLoc(), result.getType(), flat);
    }
    result.replaceAllUsesWith(replacement);
    op->erase();
  }

  func::FuncOp func_;
  OpBuilder b_;
};

struct TcpuFlattenNarrowVectors
    : impl::TcpuFlattenNarrowVectorsBase<TcpuFlattenNarrowVectors> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) { Flattener(func).Run(); });
  }
};

}  // namespace
}  // namespace flatten_narrow_vectors
}  // namespace mlir::tt
