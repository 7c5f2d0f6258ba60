// tcpu-zip-lane-loads: the ZIP1 / ZIP2 pair of 64-bit lanes that makes two SMMLA or BFMMLA
// operands of two rows (tt-to-tcpu-dot's row pairs, MmlaTiles.cpp) is two lane loads from the
// rows' memory instead, when both rows are plain llvm.loads whose every use is such a zip:
//
//   lo, hi = tcpu.load_lanes row_a + o [0], poison, poison    // LD2 {lo.d, hi.d}[0]
//   zip1, zip2 = tcpu.load_lanes row_b + o [1], lo, hi        // LD2 {lo.d, hi.d}[1]
//
// Two instructions for two operands where each row's 16 bytes were a load and each operand a
// ZIP (or an INS after a copy), and nothing live between a row's load and its last zip: an
// 8x8 int8 tile's 32 operands beside its 16 accumulators no longer spill. The lane loads sit
// just before the first use of the operands, and run only where no op between the rows' loads
// and that point may write what they read (stack buffers aside, StackBufferWrites.h); a row
// load with any other use stays as it is.
// A module given lane loads is marked tt.keep_op_order: LLVM's machine scheduler would hoist
// every lane load above the SMMLAs again and spill (linear_i8: 110 instructions a K step in
// this order, 233 rescheduled).
#include <map>
#include <tuple>
#include <vector>

#include "StackBufferWrites.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tcpu/TcpuOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUZIPLANELOADS
#include "tt/TTToTcpuPasses.h.inc"

namespace zip_lane_loads {
namespace {

// 16 bytes of a loaded row: the load and the byte offset of the part.
struct Part {
  LLVM::LoadOp load;
  int64_t offset;
};

// `value` as 16 bytes of a plain (non-volatile, non-atomic) llvm.load of a vector: the load
// itself when it is 128 bits, else a unit-stride vector.extract_strided_slice of it.
std::optional<Part> PartOf(Value value) {
  auto type = dyn_cast<VectorType>(value.getType());
  if (!type || type.getRank() != 1 || type.isScalable() ||
      type.getElementTypeBitWidth() % 8 != 0 ||
      type.getNumElements() * type.getElementTypeBitWidth() != 128) {
    return std::nullopt;
  }
  int64_t offset = 0;
  if (auto slice = value.getDefiningOp<vector::ExtractStridedSliceOp>()) {
    if (slice.hasNonUnitStrides()) return std::nullopt;
    offset = cast<IntegerAttr>(slice.getOffsets()[0]).getInt() * type.getElementTypeBitWidth() / 8;
    value = slice.getVector();
  }
  auto load = value.getDefiningOp<LLVM::LoadOp>();
  if (!load || load.getVolatile_() || load.getOrdering() != LLVM::AtomicOrdering::not_atomic) {
    return std::nullopt;
  }
  auto loaded = dyn_cast<VectorType>(load.getType());
  if (!loaded || loaded.getRank() != 1 || loaded.isScalable() ||
      loaded.getElementType() != type.getElementType()) {
    return std::nullopt;
  }
  return Part{load, offset};
}

// 1 for ZIP1 of 64-bit lanes ([x.d[0], y.d[0]]), 2 for ZIP2 ([x.d[1], y.d[1]]), else 0
// (also for elements wider than a lane or that do not divide it).
int ZipOf(vector::ShuffleOp shuffle) {
  auto type = cast<VectorType>(shuffle.getV1().getType());
  if (type != shuffle.getV2().getType() || type != shuffle.getResult().getType()) return 0;
  int64_t n = type.getNumElements(), bits = type.getElementTypeBitWidth();
  if (type.getRank() != 1 || n * bits != 128 || bits > 64 || 64 % bits != 0) return 0;
  int64_t lane = 64 / bits;
  SmallVector<int64_t> mask;
  for (Attribute index : shuffle.getMask()) mask.push_back(cast<IntegerAttr>(index).getInt());
  for (int zip = 1; zip <= 2; ++zip) {
    int64_t first = (zip - 1) * lane;
    bool matches = true;
    for (int64_t i = 0; i < lane && matches; ++i) {
      matches = mask[i] == first + i && mask[lane + i] == n + first + i;
    }
    if (matches) return zip;
  }
  return 0;
}

// The zips of one pair of parts (x's part in lane 0, y's in lane 1).
struct Group {
  Part x, y;
  SmallVector<vector::ShuffleOp> zips[2];  // ZIP1s, ZIP2s (equal ones, before CSE)
};

// Every use of `load` is a zip of `groups`, directly or through slices only zips use.
bool OnlyZipped(LLVM::LoadOp load, const llvm::DenseSet<Operation*>& zips) {
  for (Operation* user : load->getUsers()) {
    if (zips.contains(user)) continue;
    if (!isa<vector::ExtractStridedSliceOp>(user)) return false;
    for (Operation* slice_user : user->getUsers()) {
      if (!zips.contains(slice_user)) return false;
    }
  }
  return true;
}

// Where the lane loads go: just before the first op of the loads' block that uses (or holds a
// use of) the zips, if no op from the first load on may write memory a load reads.
Operation* InsertionPoint(const Group& group, tcpu::WriteCache& cache) {
  Block* block = group.x.load->getBlock();
  if (group.y.load->getBlock() != block) return nullptr;
  Operation* first_use = nullptr;
  for (const auto& zips : group.zips) {
    for (vector::ShuffleOp zip : zips) {
      for (Operation* user : zip->getUsers()) {
        Operation* ancestor = block->findAncestorOpInBlock(*user);
        if (!ancestor) return nullptr;
        if (!first_use || ancestor->isBeforeInBlock(first_use)) first_use = ancestor;
      }
    }
  }
  if (!first_use) return nullptr;
  Operation* first_load = group.x.load;
  if (group.y.load->isBeforeInBlock(first_load)) first_load = group.y.load;
  if (first_use->isBeforeInBlock(first_load)) return nullptr;
  for (Operation* op = first_load; op != first_use; op = op->getNextNode()) {
    if (cache.WritesOf(op) == tcpu::Writes::kOther) return nullptr;
  }
  return first_use;
}

Value Address(OpBuilder& b, Location loc, Part part) {
  Value address = part.load.getAddr();
  if (part.offset == 0) return address;
  return b.create<LLVM::GEPOp>(loc, address.getType(), b.getI8Type(), address,
                               ArrayRef<LLVM::GEPArg>{part.offset});
}

// The group's two lane loads before `before`, in place of its zips (erased).
void Rewrite(Group& group, Operation* before) {
  OpBuilder b(before);
  Location loc = group.zips[0].front().getLoc();
  auto lanes = VectorType::get({2}, b.getI64Type());
  Value poison = b.create<LLVM::PoisonOp>(loc, lanes);
  auto low = b.create<tcpu::LoadLanesOp>(loc, TypeRange{lanes, lanes}, Address(b, loc, group.x),
                                         b.getI64IntegerAttr(0), ValueRange{poison, poison});
  auto both = b.create<tcpu::LoadLanesOp>(loc, TypeRange{lanes, lanes}, Address(b, loc, group.y),
                                          b.getI64IntegerAttr(1), low.getResults());
  for (int zip = 0; zip < 2; ++zip) {
    Value operand = b.create<vector::BitCastOp>(loc, group.zips[zip].front().getResult().getType(),
                                                both.getResult(zip));
    for (vector::ShuffleOp shuffle : group.zips[zip]) {
      shuffle.getResult().replaceAllUsesWith(operand);
      shuffle->erase();
    }
  }
}

struct ZipLaneLoads : impl::TcpuZipLaneLoadsBase<ZipLaneLoads> {
  void runOnOperation() override {
    // The groups in the order of their first zip (the order the lane loads are emitted in).
    using Key = std::tuple<Operation*, int64_t, Operation*, int64_t>;
    std::map<Key, size_t> index;
    std::vector<Group> found;
    getOperation()->walk([&](vector::ShuffleOp shuffle) {
      int zip = ZipOf(shuffle);
      if (zip == 0) return;
      std::optional<Part> x = PartOf(shuffle.getV1()), y = PartOf(shuffle.getV2());
      if (!x || !y) return;
      auto [it, inserted] =
          index.try_emplace(Key{x->load, x->offset, y->load, y->offset}, found.size());
      if (inserted) found.push_back(Group{*x, *y, {}});
      found[it->second].zips[zip - 1].push_back(shuffle);
    });
    // Groups with both zips whose loads only feed such groups: dropping one may leave a load
    // with a use outside the rest, so until nothing changes.
    SmallVector<Group*> groups;
    for (Group& group : found) {
      if (!group.zips[0].empty() && !group.zips[1].empty()) groups.push_back(&group);
    }
    size_t before;
    do {
      before = groups.size();
      llvm::DenseSet<Operation*> zips;
      for (Group* group : groups) {
        for (const auto& kind : group->zips) {
          for (vector::ShuffleOp zip : kind) zips.insert(zip);
        }
      }
      llvm::erase_if(groups, [&](Group* group) {
        return !OnlyZipped(group->x.load, zips) || !OnlyZipped(group->y.load, zips);
      });
    } while (groups.size() != before);
    tcpu::WriteCache cache;
    SmallVector<std::pair<Group*, Operation*>> rewrites;
    for (Group* group : groups) {
      if (Operation* before = InsertionPoint(*group, cache)) rewrites.push_back({group, before});
    }
    if (rewrites.empty()) return;
    // tcpu-compile then keeps the machine scheduler from hoisting the loads again.
    getOperation()->setAttr(kKeepOpOrderAttrName, UnitAttr::get(&getContext()));
    llvm::SetVector<Operation*> loads;
    for (auto [group, before] : rewrites) {
      Rewrite(*group, before);
      loads.insert(group->x.load);
      loads.insert(group->y.load);
    }
    // The slices and loads nothing uses any more (a load whose other group found no place
    // keeps its uses).
    for (Operation* load : loads) {
      for (Operation* user : llvm::make_early_inc_range(load->getUsers())) {
        if (isa<vector::ExtractStridedSliceOp>(user) && user->use_empty()) user->erase();
      }
      if (load->use_empty()) load->erase();
    }
  }
};

}  // namespace
}  // namespace zip_lane_loads
}  // namespace mlir::tt
