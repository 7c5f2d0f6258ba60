// tcpu-slice-rows: wide 1-D vectors (a Triton row of 1024 floats is vector<1024xf32>, 256 NEON
// registers) become native 128-bit slices, and each slice's whole chain of elementwise ops is
// emitted, from its load to its store or reduction, before the next slice's.
//
// Left wide, the backend splits every op into its 256 slices in place: all slices of the first
// op, then all of the second, ..., so the whole row is live between any two ops and a
// polynomial exp spills every intermediate. Sliced here in slice-major order, only the values a
// row needs again after a reduction (softmax's row after its max, its exponentials after their
// sum) stay live, and the register allocator spills those once.
//
// Sliced, per block: arith/math elementwise ops (and vector.fma), constants, broadcasts of a
// scalar, llvm.load / llvm.store of a whole row, aligned vector.extract_strided_slice (the
// halves of a log-step reduction: no op at all); consumed slice by slice: vector.reduction (a
// balanced tree of slice combines, then one reduction of a native vector), narrower
// extract_strided_slice and vector.extract of a constant lane. A value any other op uses is
// rebuilt whole (a shuffle tree, free once the backend splits it) where that op needs it.
//
// Order: slices are emitted when an op that stays needs them (before that op), depth first,
// so a reduction tree keeps only log2(slices) partial results live. Memory order is kept: a
// sliced load follows every earlier sliced store of the block, a sliced store every earlier
// sliced load and store, and an op that stays and writes (reads) memory follows every earlier
// sliced load and store (store).
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tcpu/VectorConcat.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUSLICEROWS
#include "tt/TTToTcpuPasses.h.inc"

namespace slice_rows {
namespace {

// NEON's register width.
constexpr int64_t kNativeBits = 128;

enum class Kind {
  kElementwise,  // arith/math op: slice k from the operands' slices k
  kConstant,     // arith.constant: the constant's lanes of slice k
  kBroadcast,    // vector.broadcast / vector.splat of a scalar: the same slice for every k
  kLoad,         // llvm.load of a row: one load per slice
  kStore,        // llvm.store of a row: one store per slice
  kSubRow,       // aligned vector.extract_strided_slice: slices of the source, no op
  kConsumer,     // vector.reduction, narrow extract_strided_slice, vector.extract: one result
};

struct Slicer {
  // Rows with at least `min_chain_ops` floating-point ops in one block are sliced (the
  // option's default, 12: softmax's subtract, exp polynomial, divide and reductions are ~30;
  // layer norm's loop bodies 4, and its address and mask arithmetic does not count).
  Slicer(func::FuncOp func, int64_t min_chain_ops) : func_(func), min_chain_ops_(min_chain_ops) {}

  // True if it sliced anything.
  bool Run();

 private:
  // Slice lanes of every 1-D vector, the same for all vectors that ops connect (a compare's
  // f32 operands and i1 result, a row and its halves): 128 bits of their narrowest element
  // (a slice of a wider one, i64 addresses beside i32 offsets, is two or more registers).
  void ChooseLanes();
  Value Leader(Value value) const;
  int64_t Lanes(Value value) const;
  bool IsWide(Value value) const;
  std::optional<Kind> Classify(Operation* op) const;
  void Select();
  bool IsSliced(Value value) const {
    Operation* op = value.getDefiningOp();
    return op && sliced_.contains(op) && IsWide(value);
  }
  // `value`, or the replacement of the sliced consumer that made it.
  Value Narrow(Value value) {
    Operation* def = value.getDefiningOp();
    if (def && sliced_.lookup(def) == Kind::kConsumer && sliced_.contains(def)) {
      return EmitConsumer(def);
    }
    return value;
  }

  void ProcessBlock(Block& block);
  void VisitKept(Operation* op, Block& block);
  void EmitPendingMemory(Operation* before, Block& block, bool loads_too);
  void EmitAll(Operation* op);
  int64_t SliceCount(Operation* op) const;

  Value SliceOf(Value value, int64_t k);
  Value Emit(Operation* op, int64_t k);
  Value EmitConsumer(Operation* op);
  Value Materialize(Value value, Operation* user, Block& block);
  Value Pointer(Value base, Type element, int64_t offset, Location loc);

  func::FuncOp func_;
  int64_t min_chain_ops_;
  OpBuilder builder_{func_.getContext()};
  mutable llvm::DenseMap<Value, Value> parent_;    // union-find of connected 1-D vectors
  llvm::DenseMap<Value, int64_t> narrowest_bits_;  // component leader -> narrowest element
  llvm::DenseMap<Value, int64_t> lanes_;           // component leader -> slice lanes
  llvm::MapVector<Operation*, Kind> sliced_;
  // Emitted slices: (op, k) for sliced ops, (value, k) for slices of other values. Entries
  // made inside a nested block are dropped when it is done (they do not dominate what follows).
  llvm::DenseMap<std::pair<void*, int64_t>, Value> slices_;
  llvm::DenseMap<Operation*, int64_t> emitted_count_;
  llvm::DenseMap<std::pair<void*, Block*>, Value> whole_;
  SmallVector<std::pair<void*, int64_t>> scope_log_;
};

bool IsRow(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() == 1 && !vector.isScalable();
}

// Path halving: every lookup shortens the path it walks, so the chains that one long
// elementwise chain unites (philox's ten rounds on a 256-lane row: thousands of values) stay
// short; without it ChooseLanes took minutes on such a row.
Value Slicer::Leader(Value value) const {
  for (;;) {
    auto it = parent_.find(value);
    if (it == parent_.end() || it->second == value) return value;
    auto up = parent_.find(it->second);
    if (up != parent_.end()) it->second = up->second;
    value = it->second;
  }
}

int64_t Slicer::Lanes(Value value) const {
  if (!IsRow(value.getType())) return 0;
  return lanes_.lookup(Leader(value));
}

bool Slicer::IsWide(Value value) const {
  int64_t lanes = Lanes(value);
  if (lanes == 0) return false;
  int64_t length = cast<VectorType>(value.getType()).getDimSize(0);
  return length > lanes && length % lanes == 0;
}

void Slicer::ChooseLanes() {
  // Union by size: the smaller component joins the larger, so no path grows past log2(n).
  llvm::DenseMap<Value, int64_t> size;
  auto unite = [&](Value a, Value b) {
    Value x = Leader(a), y = Leader(b);
    if (x == y) return;
    int64_t sx = size.try_emplace(x, 1).first->second;
    int64_t sy = size.try_emplace(y, 1).first->second;
    if (sx > sy) std::swap(x, y);
    parent_[x] = y;
    size[y] = sx + sy;
  };
  func_.walk([&](Operation* op) {
    if (op->getNumRegions() != 0) return;
    // Ops whose 1-D vector operands and results are sliced alike.
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    bool connects = dialect == "arith" || dialect == "math" ||
                    isa<vector::FMAOp, vector::ExtractStridedSliceOp>(op);
    if (!connects) return;
    SmallVector<Value> values(op->getOperands());
    values.append(op->result_begin(), op->result_end());
    Value first;
    for (Value value : values) {
      if (!IsRow(value.getType())) continue;
      if (!first) {
        first = value;
      } else {
        unite(first, value);
      }
    }
  });
  auto note = [&](Value value) {
    if (!IsRow(value.getType())) return;
    Type element = cast<VectorType>(value.getType()).getElementType();
    // index and pointer vectors are never sliced; i1 takes its operands' lanes.
    if (!element.isIntOrFloat()) {
      narrowest_bits_[Leader(value)] = -1;
      return;
    }
    if (element.isInteger(1)) return;
    int64_t bits = element.getIntOrFloatBitWidth();
    auto [it, inserted] = narrowest_bits_.insert({Leader(value), bits});
    if (!inserted && it->second != -1) it->second = std::min(it->second, bits);
  };
  func_.walk([&](Operation* op) {
    for (Value value : op->getResults()) note(value);
    for (Value value : op->getOperands()) note(value);
    for (Region& region : op->getRegions()) {
      for (Block& block : region) {
        for (BlockArgument argument : block.getArguments()) note(argument);
      }
    }
  });
  for (auto [leader, bits] : narrowest_bits_) {
    if (bits > 0 && bits <= kNativeBits) lanes_[leader] = kNativeBits / bits;
  }
}

std::optional<Kind> Slicer::Classify(Operation* op) const {
  if (op->getNumRegions() != 0) return std::nullopt;
  if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
    if (IsWide(load.getResult()) && load.getOrdering() == LLVM::AtomicOrdering::not_atomic &&
        !load.getVolatile_()) {
      return Kind::kLoad;
    }
    return std::nullopt;
  }
  if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
    if (IsWide(store.getValue()) && !store.getVolatile_() &&
        store.getOrdering() == LLVM::AtomicOrdering::not_atomic) {
      return Kind::kStore;
    }
    return std::nullopt;
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (IsWide(constant.getResult()) && isa<DenseElementsAttr>(constant.getValue())) {
      return Kind::kConstant;
    }
    return std::nullopt;
  }
  if (isa<vector::BroadcastOp, vector::SplatOp>(op)) {
    if (IsWide(op->getResult(0)) && !isa<VectorType>(op->getOperand(0).getType())) {
      return Kind::kBroadcast;
    }
    return std::nullopt;
  }
  if (auto extract = dyn_cast<vector::ExtractStridedSliceOp>(op)) {
    if (!IsWide(extract.getVector())) return std::nullopt;
    int64_t lanes = Lanes(extract.getVector());
    int64_t offset = cast<IntegerAttr>(extract.getOffsets()[0]).getInt();
    int64_t size = cast<IntegerAttr>(extract.getSizes()[0]).getInt();
    if (cast<IntegerAttr>(extract.getStrides()[0]).getInt() != 1) return std::nullopt;
    if (IsWide(extract.getResult()) && Lanes(extract.getResult()) == lanes && offset % lanes == 0) {
      return Kind::kSubRow;
    }
    if (offset / lanes == (offset + size - 1) / lanes) return Kind::kConsumer;
    return std::nullopt;
  }
  if (auto reduction = dyn_cast<vector::ReductionOp>(op)) {
    if (IsWide(reduction.getVector()) && !reduction.getAcc()) return Kind::kConsumer;
    return std::nullopt;
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    if (IsWide(extract.getVector()) && extract.getDynamicPosition().empty() &&
        extract.getStaticPosition().size() == 1) {
      return Kind::kConsumer;
    }
    return std::nullopt;
  }
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  bool elementwise = dialect == "arith" || dialect == "math" || isa<vector::FMAOp>(op);
  if (!elementwise || op->getNumResults() != 1 || !isMemoryEffectFree(op)) return std::nullopt;
  Value result = op->getResult(0);
  if (!IsWide(result)) return std::nullopt;
  int64_t length = cast<VectorType>(result.getType()).getDimSize(0);
  for (Type type : op->getOperandTypes()) {
    auto vector = dyn_cast<VectorType>(type);
    if (!vector) continue;  // arith.select's scalar condition
    if (vector.getRank() != 1 || vector.getDimSize(0) != length) return std::nullopt;
  }
  return Kind::kElementwise;
}

// Sliceable ops, less those whose rows nothing sliced consumes (a load whose row only goes to
// scf.yield stays one wide load).
void Slicer::Select() {
  func_.walk([&](Operation* op) {
    if (std::optional<Kind> kind = Classify(op)) sliced_.insert({op, *kind});
  });
  // Only long chains: the backend splits a short one in place at little cost (few
  // intermediates to spill), and a sliced row crossing loop iterations or branches is
  // rebuilt whole there.
  llvm::DenseMap<std::pair<Value, Block*>, int64_t> chain_ops;  // per row and block
  auto row_of = [&](Operation* op, Kind kind) -> Value {
    if (kind == Kind::kStore) return op->getOperand(0);
    if (kind == Kind::kConsumer) return op->getOperand(0);
    return op->getResult(0);
  };
  for (auto [op, kind] : sliced_) {
    if (kind == Kind::kElementwise && isa<FloatType>(getElementTypeOrSelf(op->getResult(0)))) {
      ++chain_ops[{Leader(op->getResult(0)), op->getBlock()}];
    }
  }
  // Removed at once (MapVector::erase is linear: one at a time was quadratic, minutes on
  // philox's rows).
  llvm::DenseSet<Operation*> dropped;
  for (auto [op, kind] : sliced_) {
    // A sliced op in a nested block (the store under a mask test) goes with its row's block.
    Block* block = op->getBlock();
    Value row = row_of(op, kind);
    if (Operation* def = row.getDefiningOp()) {
      if (def->getBlock() != block && def->getBlock()->findAncestorOpInBlock(*op)) {
        block = def->getBlock();
      }
    }
    if (chain_ops.lookup({Leader(row), block}) < min_chain_ops_) dropped.insert(op);
  }
  // Then every op whose result no sliced op consumes, and in turn what only it consumed.
  auto kept = [&](Operation* op) { return sliced_.contains(op) && !dropped.contains(op); };
  auto unconsumed = [&](Operation* op) {
    Kind kind = sliced_.lookup(op);
    if (kind == Kind::kStore || kind == Kind::kConsumer) return false;
    return llvm::none_of(op->getResult(0).getUsers(), kept);
  };
  SmallVector<Operation*> work;
  for (auto [op, kind] : sliced_) {
    if (kept(op) && unconsumed(op)) {
      dropped.insert(op);
      work.push_back(op);
    }
  }
  while (!work.empty()) {
    Operation* op = work.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation* def = operand.getDefiningOp();
      if (def && kept(def) && unconsumed(def)) {
        dropped.insert(def);
        work.push_back(def);
      }
    }
  }
  sliced_.remove_if([&](const auto& entry) { return dropped.contains(entry.first); });
}

int64_t Slicer::SliceCount(Operation* op) const {
  Value row = sliced_.lookup(op) == Kind::kStore ? op->getOperand(0) : op->getResult(0);
  return cast<VectorType>(row.getType()).getDimSize(0) / Lanes(row);
}

Value Slicer::Pointer(Value base, Type element, int64_t offset, Location loc) {
  if (offset == 0) return base;
  return builder_.create<LLVM::GEPOp>(loc, base.getType(), element, base,
                                      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)},
                                      /*inbounds=*/true);
}

Value Slicer::SliceOf(Value value, int64_t k) {
  Operation* def = value.getDefiningOp();
  if (def && sliced_.contains(def)) {
    if (sliced_.lookup(def) == Kind::kSubRow) {
      auto extract = cast<vector::ExtractStridedSliceOp>(def);
      int64_t offset = cast<IntegerAttr>(extract.getOffsets()[0]).getInt();
      return SliceOf(extract.getVector(), offset / Lanes(value) + k);
    }
    return Emit(def, k);
  }
  auto key = std::make_pair(value.getAsOpaquePointer(), k);
  if (Value slice = slices_.lookup(key)) return slice;
  int64_t lanes = Lanes(value);
  Value slice = builder_.create<vector::ExtractStridedSliceOp>(
      value.getLoc(), value, ArrayRef<int64_t>{k * lanes}, ArrayRef<int64_t>{lanes},
      ArrayRef<int64_t>{1});
  slices_[key] = slice;
  scope_log_.push_back(key);
  return slice;
}

// Slice k of a sliced op (null for a store), emitting it and what it needs first.
Value Slicer::Emit(Operation* op, int64_t k) {
  Kind kind = sliced_.lookup(op);
  if (kind == Kind::kBroadcast ||
      (kind == Kind::kConstant &&
       cast<DenseElementsAttr>(cast<arith::ConstantOp>(op).getValue()).isSplat())) {
    k = 0;  // one value for every slice
  }
  auto key = std::make_pair(static_cast<void*>(op), k);
  if (auto it = slices_.find(key); it != slices_.end()) return it->second;
  Location loc = op->getLoc();
  Value result;
  auto slice_type = [&](Value row) {
    auto vector = cast<VectorType>(row.getType());
    return VectorType::get({Lanes(row)}, vector.getElementType());
  };
  switch (kind) {
    case Kind::kElementwise: {
      SmallVector<Value> operands;
      for (Value operand : op->getOperands()) {
        operands.push_back(IsWide(operand) ? SliceOf(operand, k) : Narrow(operand));
      }
      OperationState state(loc, op->getName(), operands, TypeRange{slice_type(op->getResult(0))},
                           op->getAttrs());
      result = builder_.create(state)->getResult(0);
      break;
    }
    case Kind::kConstant: {
      auto dense = cast<DenseElementsAttr>(cast<arith::ConstantOp>(op).getValue());
      auto type = slice_type(op->getResult(0));
      DenseElementsAttr value;
      if (dense.isSplat()) {
        value = dense.resizeSplat(type);
      } else {
        auto all = llvm::to_vector(dense.getValues<Attribute>());
        int64_t lanes = type.getDimSize(0);
        value = DenseElementsAttr::get(type, ArrayRef(all).slice(k * lanes, lanes));
      }
      result = builder_.create<arith::ConstantOp>(loc, type, value);
      break;
    }
    case Kind::kBroadcast:
      result = builder_.create<vector::BroadcastOp>(loc, slice_type(op->getResult(0)),
                                                    Narrow(op->getOperand(0)));
      break;
    case Kind::kLoad: {
      auto load = cast<LLVM::LoadOp>(op);
      // Memory order: after every earlier sliced store of the block.
      for (auto [other, other_kind] : sliced_) {
        if (other_kind == Kind::kStore && other->getBlock() == op->getBlock() &&
            other->isBeforeInBlock(op)) {
          EmitAll(other);
        }
      }
      auto type = slice_type(load.getResult());
      Value pointer =
          Pointer(Narrow(load.getAddr()), type.getElementType(), k * type.getDimSize(0), loc);
      result = builder_.create<LLVM::LoadOp>(loc, type, pointer, load.getAlignment().value_or(0),
                                             /*isVolatile=*/false, load.getNontemporal());
      break;
    }
    case Kind::kStore: {
      auto store = cast<LLVM::StoreOp>(op);
      for (auto [other, other_kind] : sliced_) {
        if ((other_kind == Kind::kStore || other_kind == Kind::kLoad) && other != op &&
            other->getBlock() == op->getBlock() && other->isBeforeInBlock(op)) {
          EmitAll(other);
        }
      }
      Value value = SliceOf(store.getValue(), k);
      auto type = cast<VectorType>(value.getType());
      Value pointer =
          Pointer(Narrow(store.getAddr()), type.getElementType(), k * type.getDimSize(0), loc);
      builder_.create<LLVM::StoreOp>(loc, value, pointer, store.getAlignment().value_or(0),
                                     /*isVolatile=*/false, store.getNontemporal());
      break;
    }
    case Kind::kSubRow:
    case Kind::kConsumer:
      llvm_unreachable("not emitted slice by slice");
  }
  slices_[key] = result;
  scope_log_.push_back(key);
  ++emitted_count_[op];
  return result;
}

void Slicer::EmitAll(Operation* op) {
  int64_t count = SliceCount(op);
  if (emitted_count_.lookup(op) >= count) return;
  for (int64_t k = 0; k < count; ++k) Emit(op, k);
  emitted_count_[op] = count;
}

// The consumer's replacement value, its uses switched to it.
Value Slicer::EmitConsumer(Operation* op) {
  auto key = std::make_pair(static_cast<void*>(op), int64_t{-1});
  if (Value done = slices_.lookup(key)) return done;
  Location loc = op->getLoc();
  Value result;
  if (auto reduction = dyn_cast<vector::ReductionOp>(op)) {
    Value row = reduction.getVector();
    int64_t count = cast<VectorType>(row.getType()).getDimSize(0) / Lanes(row);
    // Balanced tree, depth first: log2(count) partial results live at a time.
    std::function<Value(int64_t, int64_t)> combine = [&](int64_t begin, int64_t end) -> Value {
      if (end - begin == 1) return SliceOf(row, begin);
      int64_t middle = begin + (end - begin) / 2;
      Value low = combine(begin, middle);
      Value high = combine(middle, end);
      return vector::makeArithReduction(builder_, loc, reduction.getKind(), low, high,
                                        reduction.getFastmathAttr());
    };
    Value partial = combine(0, count);
    result = builder_.create<vector::ReductionOp>(loc, reduction.getKind(), partial, Value(),
                                                  reduction.getFastmath());
  } else if (auto extract = dyn_cast<vector::ExtractStridedSliceOp>(op)) {
    int64_t lanes = Lanes(extract.getVector());
    int64_t offset = cast<IntegerAttr>(extract.getOffsets()[0]).getInt();
    int64_t size = cast<IntegerAttr>(extract.getSizes()[0]).getInt();
    Value slice = SliceOf(extract.getVector(), offset / lanes);
    result = size == lanes ? slice
                           : builder_.create<vector::ExtractStridedSliceOp>(
                                 loc, slice, ArrayRef<int64_t>{offset % lanes},
                                 ArrayRef<int64_t>{size}, ArrayRef<int64_t>{1});
  } else {
    auto lane = cast<vector::ExtractOp>(op);
    int64_t lanes = Lanes(lane.getVector());
    int64_t position = lane.getStaticPosition()[0];
    result = builder_.create<vector::ExtractOp>(loc, SliceOf(lane.getVector(), position / lanes),
                                                position % lanes);
  }
  op->getResult(0).replaceAllUsesWith(result);
  slices_[key] = result;
  scope_log_.push_back(key);
  return result;
}

// `value` whole for `user` (an op that is not sliced), built in `block` before the op in it
// that holds `user`, once per block.
Value Slicer::Materialize(Value value, Operation* user, Block& block) {
  auto key = std::make_pair(value.getAsOpaquePointer(), &block);
  if (Value whole = whole_.lookup(key)) return whole;
  int64_t count = cast<VectorType>(value.getType()).getDimSize(0) / Lanes(value);
  SmallVector<Value> parts;
  for (int64_t k = 0; k < count; ++k) parts.push_back(SliceOf(value, k));
  Value whole = tcpu::ConcatVectors(builder_, value.getLoc(), parts);
  whole_[key] = whole;
  return whole;
}

// Before every earlier sliced store (and load, if `loads_too`) of `block` is done.
void Slicer::EmitPendingMemory(Operation* before, Block& block, bool loads_too) {
  SmallVector<Operation*> pending;
  int64_t most = 0;
  for (auto [op, kind] : sliced_) {
    bool memory = kind == Kind::kStore || (loads_too && kind == Kind::kLoad);
    if (!memory || op->getBlock() != &block) continue;
    if (before && !op->isBeforeInBlock(before)) continue;
    if (emitted_count_.lookup(op) >= SliceCount(op)) continue;
    pending.push_back(op);
    most = std::max(most, SliceCount(op));
  }
  // Slice-major across the pending ops: each slice's chain to all of its stores.
  for (int64_t k = 0; k < most; ++k) {
    for (Operation* op : pending) {
      if (k < SliceCount(op)) Emit(op, k);
    }
  }
}

// An op that stays: what it (or any op inside it) takes from sliced ops of `block` first.
void Slicer::VisitKept(Operation* op, Block& block) {
  builder_.setInsertionPoint(op);
  bool writes = false, reads = false;
  if (!isMemoryEffectFree(op)) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
    if (!effects) {
      writes = reads = true;
    } else {
      for (const MemoryEffects::EffectInstance& effect : *effects) {
        if (isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect())) writes = true;
        if (isa<MemoryEffects::Read>(effect.getEffect())) reads = true;
      }
    }
  }
  if (op->hasTrait<OpTrait::IsTerminator>()) writes = true;  // everything before the exit

  // Rows used inside `op` by sliced ops, slice-major; consumers' results; whole rows.
  SmallVector<Operation*> rows;
  SmallVector<Operation*> consumers;
  auto note = [&](Value value, Operation* user) {
    Operation* def = value.getDefiningOp();
    if (!def || def->getBlock() != &block || !sliced_.contains(def)) return;
    if (sliced_.lookup(def) == Kind::kConsumer) {
      if (!llvm::is_contained(consumers, def)) consumers.push_back(def);
    } else if (!llvm::is_contained(rows, def)) {
      rows.push_back(def);
    }
    (void)user;
  };
  op->walk([&](Operation* inner) {
    for (Value operand : inner->getOperands()) note(operand, inner);
  });
  for (Operation* consumer : consumers) EmitConsumer(consumer);
  int64_t most = 0;
  for (Operation* row : rows) {
    if (sliced_.lookup(row) != Kind::kSubRow) most = std::max(most, SliceCount(row));
  }
  for (int64_t k = 0; k < most; ++k) {
    for (Operation* row : rows) {
      if (sliced_.lookup(row) != Kind::kSubRow && k < SliceCount(row)) Emit(row, k);
    }
  }
  // Then the sliced loads and stores it must follow (what the uses did not pull in already).
  if (writes || reads) EmitPendingMemory(op, block, /*loads_too=*/writes);
  // Uses by ops that stay take the row whole, built before the op at the top of the nearest
  // nested block (out of inner loops, inside the branch that needs it).
  op->walk([&](Operation* inner) {
    if (sliced_.contains(inner)) return;
    for (OpOperand& use : inner->getOpOperands()) {
      Operation* def = use.get().getDefiningOp();
      if (!def || def->getBlock() != &block || !sliced_.contains(def)) continue;
      if (sliced_.lookup(def) == Kind::kConsumer || !IsWide(use.get())) continue;
      Operation* anchor = inner;
      while (anchor != op && anchor->getParentOp() != op) anchor = anchor->getParentOp();
      Block* target = anchor == op ? &block : anchor->getBlock();
      OpBuilder::InsertionGuard guard(builder_);
      builder_.setInsertionPoint(anchor);
      use.set(Materialize(use.get(), inner, *target));
    }
  });
  builder_.setInsertionPoint(op);
}

void Slicer::ProcessBlock(Block& block) {
  SmallVector<Operation*> ops;
  for (Operation& op : block) ops.push_back(&op);
  for (Operation* op : ops) {
    if (sliced_.contains(op)) continue;
    VisitKept(op, block);
    for (Region& region : op->getRegions()) {
      for (Block& nested : region) {
        size_t mark = scope_log_.size();
        ProcessBlock(nested);
        // Slices made inside do not dominate what follows the op.
        for (size_t i = mark; i < scope_log_.size(); ++i) {
          auto key = scope_log_[i];
          slices_.erase(key);
          auto count = emitted_count_.find(static_cast<Operation*>(key.first));
          if (key.second >= 0 && count != emitted_count_.end()) --count->second;
        }
        scope_log_.resize(mark);
      }
    }
  }
}

bool Slicer::Run() {
  ChooseLanes();
  if (lanes_.empty()) return false;
  Select();
  if (sliced_.empty()) return false;
  for (Block& block : func_.getBody()) ProcessBlock(block);
  // The sliced ops are replaced: drop them, users first.
  for (auto [op, kind] : sliced_) op->dropAllReferences();
  for (auto [op, kind] : sliced_) {
    op->dropAllUses();
    op->erase();
  }
  return true;
}

struct TcpuSliceRows : impl::TcpuSliceRowsBase<TcpuSliceRows> {
  using TcpuSliceRowsBase::TcpuSliceRowsBase;
  void runOnOperation() override {
    bool sliced = false;
    getOperation().walk([&](func::FuncOp func) { sliced |= Slicer(func, minChainOps).Run(); });
    // tcpu-compile then keeps the machine scheduler from interleaving the slices again.
    if (sliced) getOperation()->setAttr(kKeepOpOrderAttrName, UnitAttr::get(&getContext()));
  }
};

}  // namespace
}  // namespace slice_rows
}  // namespace mlir::tt
