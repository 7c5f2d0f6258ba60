// tcpu-buffer-mmla-blocks: a stack buffer that holds the rows of an SMMLA or BFMMLA
// accumulator (tcpu.from_mmla_blocks), stored once and then only read element by element (the
// lanes of tt-to-tcpu-atomics' loops: a split-K matmul's atomic adds into C), holds the blocks
// instead, and each read takes its element where the blocks keep it (tcpu/MmlaLayout.h). The
// conversion to rows (a 4x4 transpose per four blocks, about 740 instructions per 32x32 tile of
// the split-K matmul) goes. A read's place is a part that depends on its row plus a part that
// depends on its column: once the backend unrolls a loop over a row's lanes, each lane is the
// row's base plus a constant, and two lanes side by side in a block are one LDP (tt-to-tcpu-dot
// keeps a row pair's blocks within one LDP's reach, MmlaTiles.cpp). Where a row pair's blocks
// lie in several memory tiles (32 blocks in two of 16), a read at a constant column (the
// unrolled groups of tt-to-tcpu-atomics) adds the offset of its column of tiles hidden from the
// backend (OpaqueOffset), so that each column of tiles has a base of its own within reach.
#include <numeric>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "tcpu/HiddenValue.h"
#include "tcpu/TcpuOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUBUFFERMMLABLOCKS
#include "tt/TTToTcpuPasses.h.inc"

namespace buffer_mmla_blocks {
namespace {

// The rows' source when `value` is tcpu.from_mmla_blocks of them, possibly flattened to 1-D.
tcpu::FromMmlaBlocksOp RowsOfBlocks(Value value) {
  if (auto cast = value.getDefiningOp<vector::ShapeCastOp>()) value = cast.getSource();
  return value.getDefiningOp<tcpu::FromMmlaBlocksOp>();
}

// Whether every use of `buffer` but `store` is a scalar memref.load.
bool OnlyLoadedElsewhere(Value buffer, Operation* store) {
  for (Operation* user : buffer.getUsers()) {
    if (user != store && !isa<memref::LoadOp>(user)) return false;
  }
  return true;
}

// Whether `op` shows a buffer under another type (the same memory).
bool IsView(Operation* op) {
  return isa<vector::TypeCastOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
}

// The buffer a value is a view of (through IsView ops), or the value itself.
Value ViewedBuffer(Value value) {
  while (Operation* def = value.getDefiningOp()) {
    if (!IsView(def)) break;
    value = def->getOperand(0);
  }
  return value;
}

// A row and a column of a row-major tile `n` wide from the flat index of one of its elements:
// taken apart where the index is row * n + column (tt-to-tcpu-atomics' reads), else by
// division.
std::pair<Value, Value> RowAndColumn(OpBuilder& b, Location loc, Value index, int64_t n) {
  if (auto sum = index.getDefiningOp<arith::AddIOp>()) {
    for (int first = 0; first < 2; ++first) {
      auto product = sum->getOperand(first).getDefiningOp<arith::MulIOp>();
      if (!product) continue;
      for (int factor = 0; factor < 2; ++factor) {
        if (getConstantIntValue(product->getOperand(factor)) == n) {
          return {product->getOperand(1 - factor), sum->getOperand(1 - first)};
        }
      }
    }
  }
  Value width = b.create<arith::ConstantIndexOp>(loc, n);
  return {b.create<arith::DivUIOp>(loc, index, width), b.create<arith::RemUIOp>(loc, index, width)};
}

// The position in the flattened blocks (of shape `blocks`: [M/2][N/2][4], or tiles
// [T][R][C][4]) of element (r, c) of the row-major MxN tile, for a column stride `stride`:
// row r = 2p + i, column c = MmlaBlockColumn(t, j, stride) is lane 2i + j of block (p, t).
// Built as a part of the row plus a part of the column.
Value BlockLane(OpBuilder& b, Location loc, Value r, Value c, ArrayRef<int64_t> blocks, int64_t n,
                int64_t stride) {
  auto constant = [&](int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v).getResult(); };
  auto div = [&](Value x, int64_t d) { return b.create<arith::DivUIOp>(loc, x, constant(d)); };
  auto rem = [&](Value x, int64_t d) { return b.create<arith::RemUIOp>(loc, x, constant(d)); };
  auto mul = [&](Value x, int64_t d) { return b.create<arith::MulIOp>(loc, x, constant(d)); };
  auto add = [&](Value x, Value y) { return b.create<arith::AddIOp>(loc, x, y).getResult(); };
  Value p = div(r, 2), i = rem(r, 2);
  // c = 2 stride (t / stride) + t % stride + j stride.
  Value within = rem(c, 2 * stride);
  Value j = div(within, stride);
  Value t = add(mul(div(c, 2 * stride), stride), rem(within, stride));
  // Untiled blocks are one tile of all M/2 x N/2. Block (p, t) lies in tile (p / R) (N/2/C) +
  // t / C, at (p % R, t % C) within it.
  int64_t rows = blocks.size() == 3 ? blocks[0] : blocks[1];
  int64_t cols = blocks.size() == 3 ? blocks[1] : blocks[2];
  int64_t tile = 4 * rows * cols;
  Value row_part =
      add(add(mul(div(p, rows), n / 2 / cols * tile), mul(rem(p, rows), 4 * cols)), mul(i, 2));
  Value column_part = add(add(mul(div(t, cols), tile), mul(rem(t, cols), 4)), j);
  return add(row_part, column_part);
}

// `value` as a constant when it is one or sums and products of constants (a lane of
// tt-to-tcpu-atomics' groups: its group's first lane plus its place in the group).
std::optional<int64_t> ConstantOf(Value value, int depth = 4) {
  if (std::optional<int64_t> constant = getConstantIntValue(value)) return constant;
  Operation* op = value.getDefiningOp();
  if (!op || depth == 0 || !isa<arith::AddIOp, arith::MulIOp>(op)) return std::nullopt;
  std::optional<int64_t> x = ConstantOf(op->getOperand(0), depth - 1);
  std::optional<int64_t> y = ConstantOf(op->getOperand(1), depth - 1);
  if (!x || !y) return std::nullopt;
  return isa<arith::AddIOp>(op) ? *x + *y : *x * *y;
}

// `offset` (an index) as a value the backend cannot see through: an empty inline asm returns
// it. Reads of one column of memory tiles add it to their places, and the backend addresses
// them from a base of their own; folded into one base, their offsets outgrew an LDP's reach
// (252 bytes) and every other read was a single LDR.
Value OpaqueOffset(OpBuilder& b, Location loc, int64_t offset) {
  return b.create<arith::IndexCastOp>(loc, b.getIndexType(), tcpu::HiddenI64(b, loc, offset));
}

// Whether every use of `buffer`, through views, only reads or writes its elements (memref and
// vector loads and stores, tcpu.load_vectors / store_vectors): its address never leaves the
// memref ops, so only those stores write it.
bool OnlyElementAccesses(Value buffer) {
  for (Operation* user : buffer.getUsers()) {
    if (IsView(user)) {
      if (!OnlyElementAccesses(user->getResult(0))) return false;
      continue;
    }
    if (!isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp,
             tcpu::LoadVectorsOp, tcpu::StoreVectorsOp>(user)) {
      return false;
    }
  }
  return true;
}

// Whether `op` or an op inside it stores into `buffer` or a view of it.
bool StoresInto(Operation* op, Value buffer) {
  auto into = [&](Value base) { return ViewedBuffer(base) == buffer; };
  return op
      ->walk([&](Operation* inner) {
        bool writes = false;
        if (auto store = dyn_cast<memref::StoreOp>(inner)) writes = into(store.getMemRef());
        if (auto store = dyn_cast<vector::StoreOp>(inner)) writes = into(store.getBase());
        if (auto store = dyn_cast<tcpu::StoreVectorsOp>(inner)) writes = into(store.getBase());
        return writes ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

// The stack buffer `blocks` was loaded from whole (memref.load of its vector.type_cast), when
// it still holds them at every one of `reads`: no op from that load to the last of them stores
// into it. Null otherwise.
Value BlocksBuffer(Value blocks, ArrayRef<memref::LoadOp> reads) {
  auto whole = blocks.getDefiningOp<memref::LoadOp>();
  auto cast = whole ? whole.getMemRef().getDefiningOp<vector::TypeCastOp>() : nullptr;
  auto buffer = cast ? cast.getMemref().getDefiningOp<memref::AllocaOp>() : nullptr;
  if (!buffer || !buffer.getType().hasStaticShape() || !OnlyElementAccesses(buffer)) return {};
  Block* block = whole->getBlock();
  Operation* last = whole;
  for (memref::LoadOp read : reads) {
    Operation* ancestor = block->findAncestorOpInBlock(*read);
    if (!ancestor || ancestor->isBeforeInBlock(whole)) return {};
    if (last->isBeforeInBlock(ancestor)) last = ancestor;
  }
  for (Operation* op = whole->getNextNode(); op; op = op->getNextNode()) {
    if (StoresInto(op, buffer)) return {};
    if (op == last) break;
  }
  return buffer;
}

void Rewrite(vector::StoreOp store) {
  auto rows_buffer = store.getBase().getDefiningOp<memref::AllocaOp>();
  tcpu::FromMmlaBlocksOp rows = RowsOfBlocks(store.getValueToStore());
  if (!rows_buffer || !rows) return;
  auto type = rows_buffer.getType();
  auto rows_type = rows.getResult().getType();
  if (type.getRank() != 1 || !type.hasStaticShape() ||
      type.getNumElements() != rows_type.getNumElements() ||
      type.getElementType() != rows_type.getElementType() ||
      !matchPattern(store.getIndices().front(), m_Zero()) ||
      !OnlyLoadedElsewhere(rows_buffer, store)) {
    return;
  }
  SmallVector<memref::LoadOp> reads;
  for (Operation* user : rows_buffer->getUsers()) {
    if (auto load = dyn_cast<memref::LoadOp>(user)) reads.push_back(load);
  }
  VectorType blocks_type = rows.getSource().getType();
  OpBuilder b(store);
  // The blocks where they already are, else stored in place of the rows.
  Value flat_buffer;
  if (Value buffer = BlocksBuffer(rows.getSource(), reads)) {
    b.setInsertionPointAfterValue(buffer);
    auto buffer_type = cast<MemRefType>(buffer.getType());
    ReassociationIndices all(buffer_type.getRank());
    std::iota(all.begin(), all.end(), 0);
    flat_buffer = b.create<memref::CollapseShapeOp>(store.getLoc(), buffer,
                                                    ArrayRef<ReassociationIndices>{all});
    store.erase();
  } else {
    Value flat = b.create<vector::ShapeCastOp>(
        store.getLoc(),
        VectorType::get({blocks_type.getNumElements()}, blocks_type.getElementType()),
        rows.getSource());
    store.getValueToStoreMutable().assign(flat);
    flat_buffer = rows_buffer;
  }
  const int64_t n = rows_type.getDimSize(1), stride = rows.getColumnStride();
  // Tiled blocks [T][R][W][4] with more than one memory tile across a row pair's N/2 blocks:
  // each such column of tiles is read from an offset of its own (OpaqueOffset), made once.
  ArrayRef<int64_t> shape = blocks_type.getShape();
  const bool columns_of_tiles = shape.size() == 4 && shape[2] < n / 2;
  llvm::DenseMap<int64_t, Value> offsets;
  for (memref::LoadOp load : reads) {
    b.setInsertionPoint(load);
    Location loc = load.getLoc();
    auto [r, c] = RowAndColumn(b, loc, load.getIndices().front(), n);
    std::optional<int64_t> column = columns_of_tiles ? ConstantOf(c) : std::nullopt;
    if (column) {
      // Block column t and lane j of the column (as BlockLane), in memory tile column t / W.
      int64_t within = *column % (2 * stride), width = shape[2], tile = 4 * shape[1] * width;
      int64_t t = *column / (2 * stride) * stride + within % stride, j = within / stride;
      int64_t tile_column = t / width;
      Value place = BlockLane(b, loc, r, b.create<arith::ConstantIndexOp>(loc, 0), shape, n,
                              stride);
      if (tile_column != 0) {
        Value& hidden = offsets[tile_column];
        if (!hidden) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointAfterValue(flat_buffer);
          hidden = OpaqueOffset(b, loc, tile_column * tile);
        }
        place = b.create<arith::AddIOp>(loc, hidden, place);
      }
      Value lane = b.create<arith::AddIOp>(
          loc, place, b.create<arith::ConstantIndexOp>(loc, t % width * 4 + j));
      load.getMemrefMutable().assign(flat_buffer);
      load.getIndicesMutable().assign(lane);
      continue;
    }
    Value lane = BlockLane(b, loc, r, c, shape, n, stride);
    load.getMemrefMutable().assign(flat_buffer);
    load.getIndicesMutable().assign(lane);
  }
  if (rows_buffer->use_empty()) rows_buffer.erase();
}

struct BufferMmlaBlocks : impl::TcpuBufferMmlaBlocksBase<BufferMmlaBlocks> {
  void runOnOperation() override {
    SmallVector<vector::StoreOp> stores;
    getOperation()->walk([&](vector::StoreOp store) { stores.push_back(store); });
    for (vector::StoreOp store : stores) Rewrite(store);
  }
};

}  // namespace
}  // namespace buffer_mmla_blocks
}  // namespace mlir::tt
