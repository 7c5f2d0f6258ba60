// tt-to-tcpu-dot's SMMLA and BFMMLA tiles (MmlaTiles.h). Operands are rearranged in registers
// with shuffles: the tiles in memory stay Triton's.
#include "MmlaTiles.h"

#include <cassert>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tcpu/HiddenValue.h"
#include "tcpu/MmlaLayout.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/VectorConcat.h"

namespace mlir::tt {
namespace mmla_tiles {
namespace {

// The k of one instruction for operands of `element`: an operand is one 128-bit register
// holding two rows of it (SMMLA: 8 bytes, BFMMLA: 4 bf16). A chunk is that many k.
int64_t ChunkDepth(Type element) { return 64 / element.getIntOrFloatBitWidth(); }

Type ElementOf(Value vector) { return cast<VectorType>(vector.getType()).getElementType(); }

// acc += the 2x2 block product of two operands: SMMLA on bytes, BFMMLA on bf16.
Value Mmla(OpBuilder& b, Location loc, Value acc, Value lhs, Value rhs) {
  if (ElementOf(lhs).isBF16()) return b.create<tcpu::BfmmlaOp>(loc, acc.getType(), acc, lhs, rhs);
  return b.create<tcpu::SmmlaOp>(loc, acc.getType(), acc, lhs, rhs);
}

// TRN1 (odd = 0) or TRN2 (odd = 1) of two 128-bit vectors on groups of `group` elements: result
// group 2j is x's group 2j + odd, group 2j + 1 is y's.
Value Trn(OpBuilder& b, Location loc, Value x, Value y, int64_t group, int64_t odd) {
  int64_t lanes = cast<VectorType>(x.getType()).getNumElements();
  SmallVector<int64_t> indices;
  for (int64_t g = 0; g < lanes / group; ++g) {
    int64_t source = g - g % 2 + odd, offset = g % 2 == 0 ? 0 : lanes;
    for (int64_t e = 0; e < group; ++e) indices.push_back(offset + source * group + e);
  }
  return b.create<vector::ShuffleOp>(loc, x, y, indices);
}

// One TRN stage and the stages after it. Each group of `group` elements of `vectors` holds
// consecutive rows of one column; TRN of neighbours doubles the groups until one vector holds
// all the rows. Its 64-bit lane w is then column `column` + d w (d the chunk depth), `column`
// summing what each TRN1/TRN2 choice so far contributed (`weight` is the next one's).
void TransposeStages(OpBuilder& b, Location loc, ArrayRef<Value> vectors, int64_t group,
                     int64_t column, int64_t weight, SmallVector<Value>& columns) {
  if (vectors.size() == 1) {
    columns[column] = vectors.front();
    return;
  }
  for (int64_t odd = 0; odd < 2; ++odd) {
    SmallVector<Value> next;
    for (size_t q = 0; q < vectors.size() / 2; ++q) {
      next.push_back(Trn(b, loc, vectors[2 * q], vectors[2 * q + 1], group, odd));
    }
    TransposeStages(b, loc, next, 2 * group, column + odd * weight, 2 * weight, columns);
  }
}

// b operands of d rows (k) x 2d columns of b, d the chunk depth (8 bytes or 4 bf16): a
// transpose in log2(d) TRN stages (3 on bytes, 2 on bf16). Result i holds [column i, k
// 0..d-1][column i + d, k 0..d-1] (the column_stride d blocks).
SmallVector<Value> TransposeColumnPairs(OpBuilder& b, Location loc, ArrayRef<Value> rows) {
  SmallVector<Value> columns(rows.size());
  TransposeStages(b, loc, rows, 1, 0, 1, columns);
  return columns;
}

// Receives the operand of index i (a row pair or a block column) and k chunk, in the order the
// operands are built.
using OperandSink = llvm::function_ref<void(int64_t i, int64_t chunk, Value operand)>;

// b's operands: operand (t, chunk) holds the d k of chunk (d the chunk depth) for the two
// columns of block column t (tcpu/MmlaLayout.h), from 2d-column transposes when N allows
// (stride d), else from shuffles of neighbouring columns (stride 1). (A TBL over four rows + ZIP,
// 16 instructions per 8 operands instead of 24 TRN, measured 7% fewer instructions on the tutorial
// matmul but TBL of four registers is four micro-ops: llvm-mca gives its K step 11% more cycles on
// cortex-a720, 27% on neoverse-v2.)
void MmlaOperandsOfB(OpBuilder& b, Location loc, Value bm, int64_t stride, OperandSink sink) {
  SmallVector<Value> rows = tcpu::VectorRows(b, loc, bm);
  int64_t k = rows.size(), n = cast<VectorType>(bm.getType()).getDimSize(1);
  int64_t depth = ChunkDepth(ElementOf(bm)), lanes = 2 * depth;
  for (int64_t chunk = 0; chunk < k / depth; ++chunk) {
    ArrayRef<Value> chunk_rows = ArrayRef<Value>(rows).slice(depth * chunk, depth);
    if (stride == depth) {
      for (int64_t group = 0; group < n / lanes; ++group) {
        SmallVector<Value> slices;
        for (Value row : chunk_rows) {
          slices.push_back(b.create<vector::ExtractStridedSliceOp>(
              loc, row, ArrayRef<int64_t>{lanes * group}, ArrayRef<int64_t>{lanes},
              ArrayRef<int64_t>{1}));
        }
        for (auto [i, column] : llvm::enumerate(TransposeColumnPairs(b, loc, slices))) {
          sink(depth * group + i, chunk, column);
        }
      }
      continue;
    }
    Value joined = tcpu::ConcatVectors(b, loc, chunk_rows);
    for (int64_t t = 0; t < n / 2; ++t) {
      SmallVector<int64_t> indices;
      for (int64_t j = 0; j < 2; ++j) {
        for (int64_t kk = 0; kk < depth; ++kk) {
          indices.push_back(kk * n + tcpu::MmlaBlockColumn(t, j, stride));
        }
      }
      sink(t, chunk, b.create<vector::ShuffleOp>(loc, joined, joined, indices));
    }
  }
}

// Operands of the rows of `matrix` [R, K] taken in pairs: operand (p, chunk) holds rows 2p and
// 2p + 1 at k d chunk .. d chunk + d - 1 (d the chunk depth), one ZIP1/ZIP2 of 64-bit lanes of
// the rows' 128-bit parts each. These are a's operands, and b's when b is the transpose of an
// [N, K] tile (x times a weight matrix). With `lookup`, the low halves' ZIP1 is a TBL of the
// two parts (as bytes): LLVM emits that ZIP1 as a copy and an INS, but the copies cost less
// than the index vector's register beside an accumulator in registers.
void MmlaOperandsOfRowPairs(OpBuilder& b, Location loc, Value matrix, bool lookup,
                            OperandSink sink) {
  SmallVector<Value> rows = tcpu::VectorRows(b, loc, matrix);
  int64_t k = cast<VectorType>(matrix.getType()).getDimSize(1);
  int64_t depth = ChunkDepth(ElementOf(matrix)), lanes = 2 * depth;
  int64_t part = k % lanes == 0 ? lanes : k;  // the rows in q-register parts when they have them
  auto part_of = [&](Value row, int64_t chunk) -> Value {
    if (part == k) return row;
    return b.create<vector::ExtractStridedSliceOp>(loc, row,
                                                   ArrayRef<int64_t>{depth * chunk / part * part},
                                                   ArrayRef<int64_t>{part}, ArrayRef<int64_t>{1});
  };
  auto bytes = VectorType::get({16}, b.getI8Type());
  auto operand_type = VectorType::get({lanes}, ElementOf(matrix));
  auto bitcast = [&](Value v, VectorType type) -> Value {
    if (v.getType() == type) return v;
    return b.create<vector::BitCastOp>(loc, type, v);
  };
  Value low_halves;  // TBL indices of both rows' bytes 0..7
  for (size_t p = 0; p < rows.size() / 2; ++p) {
    for (int64_t chunk = 0; chunk < k / depth; ++chunk) {
      int64_t first = depth * chunk % part;
      SmallVector<int64_t> indices;
      for (int64_t kk = 0; kk < depth; ++kk) indices.push_back(first + kk);
      for (int64_t kk = 0; kk < depth; ++kk) indices.push_back(part + first + kk);
      Value x = part_of(rows[2 * p], chunk), y = part_of(rows[2 * p + 1], chunk);
      if (lookup && part == lanes && first == 0) {
        if (!low_halves) {  // the same indices for every pair: one constant, at its first use
          SmallVector<int8_t> table;
          for (int8_t byte = 0; byte < 8; ++byte) table.push_back(byte);
          for (int8_t byte = 0; byte < 8; ++byte) table.push_back(16 + byte);
          low_halves = b.create<arith::ConstantOp>(
              loc, DenseElementsAttr::get(bytes, ArrayRef<int8_t>(table)));
        }
        Value joined = b.create<tcpu::LookupBytesOp>(
            loc, bytes, ValueRange{bitcast(x, bytes), bitcast(y, bytes)}, low_halves);
        sink(p, chunk, bitcast(joined, operand_type));
        continue;
      }
      sink(p, chunk, b.create<vector::ShuffleOp>(loc, x, y, indices));
    }
  }
}

// `matrix` when it is the transpose of a 2-D vector: that vector, else null. The operand may
// still pass through the conversion's casts (tensor <-> vector) of the shapes pass's result.
Value TransposedSource(Value matrix) {
  while (auto cast = matrix.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (cast->getNumOperands() != 1) break;
    matrix = cast->getOperand(0);
  }
  auto transpose = matrix.getDefiningOp<vector::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0}) return {};
  return transpose.getVector();
}

// Builds all of a's or all of b's operands into a sink.
using OperandBuilder = llvm::function_ref<void(OperandSink)>;

// Every block in registers, a row pair at a time within each pair of k chunks (the two
// chunks of one 16-byte part of a row): only that pair's b operands and one row pair's a
// operands are live beside the blocks (an 8x8 int8 tile: 16 blocks, 8 b operands, 2 a
// operands), wherever tcpu-zip-lane-loads then loads the operands (just before their first use).
Value InRegisters(OpBuilder& b, Location loc, Value blocks, OperandBuilder build_a,
                  OperandBuilder build_b) {
  auto type = cast<VectorType>(blocks.getType());
  int64_t pairs = type.getDimSize(0), columns = type.getDimSize(1);
  SmallVector<SmallVector<Value>> a(pairs), bv(columns);  // [pair or column][chunk]
  build_b([&](int64_t t, int64_t, Value operand) { bv[t].push_back(operand); });
  build_a([&](int64_t p, int64_t, Value operand) { a[p].push_back(operand); });
  SmallVector<SmallVector<Value>> acc(pairs);
  for (int64_t p = 0; p < pairs; ++p) {
    for (int64_t t = 0; t < columns; ++t) {
      acc[p].push_back(b.create<vector::ExtractOp>(loc, blocks, ArrayRef<int64_t>{p, t}));
    }
  }
  int64_t chunks = a.front().size(), group = chunks % 2 == 0 ? 2 : 1;
  for (int64_t first = 0; first < chunks; first += group) {
    for (int64_t p = 0; p < pairs; ++p) {
      for (int64_t chunk = first; chunk < first + group; ++chunk) {
        for (int64_t t = 0; t < columns; ++t) {
          acc[p][t] = Mmla(b, loc, acc[p][t], a[p][chunk], bv[t][chunk]);
        }
      }
    }
  }
  for (int64_t p = 0; p < pairs; ++p) {
    for (int64_t t = 0; t < columns; ++t) {
      blocks = b.create<vector::InsertOp>(loc, acc[p][t], blocks, ArrayRef<int64_t>{p, t});
    }
  }
  return blocks;
}

Value Index(OpBuilder& b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

// A 16-byte aligned stack buffer at the start of the enclosing function: one static
// allocation, however deep in loops the dot is.
Value StackBuffer(OpBuilder& b, Location loc, ArrayRef<int64_t> shape, Type element) {
  Operation* scope = b.getInsertionBlock()->getParentOp();
  if (!isa<FunctionOpInterface>(scope)) scope = scope->getParentOfType<FunctionOpInterface>();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&scope->getRegion(0).front());
  return b.create<memref::AllocaOp>(loc, MemRefType::get(shape, element), b.getI64IntegerAttr(16));
}

// The operands (of `operand_type`, 16 bytes each) in tile-major order,
// buffer[i / side][chunk][i % side]: a tile's operands of one chunk are one ST1/LD1 list. Each
// list is stored as soon as its operands are built, so few are live at once.
Value PackOperands(OpBuilder& b, Location loc, VectorType operand_type, int64_t count, int64_t side,
                   int64_t chunks, OperandBuilder build) {
  Value buffer = StackBuffer(b, loc, {count / side, chunks, side, operand_type.getNumElements()},
                             operand_type.getElementType());
  llvm::DenseMap<std::pair<int64_t, int64_t>, SmallVector<Value, 4>> lists;
  Value start;
  build([&](int64_t i, int64_t chunk, Value operand) {
    SmallVector<Value, 4>& list = lists[{i / side, chunk}];
    if (list.empty()) list.resize(side);
    list[i % side] = operand;
    if (llvm::any_of(list, [](Value v) { return !v; })) return;
    Value zero = Index(b, loc, 0);
    // Every list's tile index starts from a zero the backend cannot hoist: an empty inline asm
    // returns it, given a lane of the first list's operand (which the K loop changes) as well.
    // Each list's address is then computed where it is stored; as constants off the buffer,
    // LLVM hoisted all of them out of the K loop and spilled them (the split-K matmul's 256
    // lists: an ADD and an STR each at the function's entry, an LDR at each store). Split-K
    // -1.0%, matmul_bf16 -1.2%; matmul_i8 +0.4%, the 64-wide bf16 matmuls +0.7% (their lists'
    // addresses were not all spilled; now each is an ADD where the lists are stored).
    if (!start) {
      auto lanes = VectorType::get({2}, b.getI64Type());
      Value lane = b.create<vector::ExtractOp>(
          loc, b.create<vector::BitCastOp>(loc, lanes, list.front()), 0);
      start = b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                           tcpu::HiddenI64(b, loc, 0, ValueRange{lane}));
    }
    Value tile = b.create<arith::AddIOp>(loc, start, Index(b, loc, i / side));
    b.create<tcpu::StoreVectorsOp>(
        loc, list, buffer, ValueRange{tile, Index(b, loc, chunk), zero, zero});
    lists.erase({i / side, chunk});
  });
  return buffer;
}

// Up to this many k chunks (one K step of 32 on SMMLA) run unrolled in a tile; more (a dot
// summing several K steps) run as a loop over the chunks.
constexpr int64_t kUnrolledChunks = 4;

// The largest of 4, 3, 2 and 1 that divides `count`.
int64_t TileSide(int64_t count) {
  int64_t side = 4;
  while (count % side != 0) --side;
  return side;
}

// The most blocks of a row pair kept together in memory: 256 bytes, what one LDP of two
// 32-bit lanes reaches from the row pair's first (offsets up to 252). A loop reading an
// accumulator's rows where its blocks lie (tcpu-buffer-mmla-blocks: the split-K matmul's atomic
// adds) then pairs every read; in tiles of 4x4 blocks a row of 32 lanes lay in four 256-byte
// tiles, and 24 of its 32 reads came out as single LDRs.
constexpr int64_t kRowPairRunBlocks = 16;

// The blocks of a row pair each tile in memory holds: all `columns` when they fit
// kRowPairRunBlocks; kRowPairRunBlocks when it divides them (the split-K matmul's 64x64 tile:
// 32 blocks a row pair in two columns of memory tiles, each read from a base of its own,
// tcpu-buffer-mmla-blocks; its atomic adds 12.0 K -> 10.4 K instructions a program, and the
// bf16 matmuls' 64-wide tiles +0.4% for the address arithmetic of a register tile within a
// memory tile); else `cols`, the register tile's (each register tile then one contiguous run of
// memory, addressed by its index alone).
int64_t MemoryTileWidth(int64_t columns, int64_t cols) {
  if (columns <= kRowPairRunBlocks) return columns;
  return columns % kRowPairRunBlocks == 0 ? kRowPairRunBlocks : cols;
}

// The blocks (`blocks` is the tiled vector<TxRxWx4>: tiles of R row pairs by W blocks,
// MemoryTileWidth) in a stack buffer, stored whole before and loaded whole after (the forms
// tcpu-carry-in-buffers moves out of a K loop). One loop over register tiles of R x `cols`
// blocks (up to 4x4) loads a tile, runs every chunk on it and stores it back: register tile
// (row, column) is memory tile row * N/2/W + column / (W/cols)'s columns
// [column % (W/cols) * cols, + cols), its rows of blocks W * 16 bytes apart (within an LDP of
// two q registers' reach; with W = cols the register tile is the whole memory tile); its
// operands are the tile row's and the tile column's runs in theirs. Up to kUnrolledChunks
// chunks are unrolled (a row of blocks per LD1, a chunk's operands of a and of b one LD1 each);
// more (a dot summing several K steps) are a loop carrying the tile's blocks, whose two operand
// pointers step 64 bytes a chunk (post-indexed LD1s; two chunks an iteration where they pair:
// 38 instructions per 32 SMMLA or BFMMLA, tcpu_gemm_i8's inner loop). The tile loop's index
// addresses every buffer, so LLVM neither promotes a hundred vectors to registers nor hoists a
// tile row's operands out of an inner loop and spills them.
Value InMemory(OpBuilder& b, Location loc, Value blocks, VectorType operand_type, int64_t pairs,
               int64_t columns, int64_t cols, int64_t chunks, OperandBuilder build_a,
               OperandBuilder build_b) {
  auto type = cast<VectorType>(blocks.getType());
  auto acc_type = VectorType::get({4}, type.getElementType());
  int64_t rows = type.getDimSize(1), width = type.getDimSize(2);
  int64_t tiles = (pairs / rows) * (columns / cols);
  Value acc_buffer = StackBuffer(b, loc, type.getShape(), type.getElementType());
  Value whole;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(acc_buffer);
    whole = b.create<vector::TypeCastOp>(loc, acc_buffer);
  }
  b.create<memref::StoreOp>(loc, blocks, whole, ValueRange{});
  Value b_buffer = PackOperands(b, loc, operand_type, columns, cols, chunks, build_b);
  Value a_buffer = PackOperands(b, loc, operand_type, pairs, rows, chunks, build_a);
  // The same buffer as [memory tile][row pair][register tile column][block][lane], a view made
  // where the tiles are read (tcpu-carry-in-buffers sees every access to the buffer there).
  auto tiles_type =
      MemRefType::get({type.getDimSize(0), rows, width / cols, cols, 4}, type.getElementType());
  Value acc_tiles = b.create<memref::ExpandShapeOp>(
      loc, tiles_type, acc_buffer, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4}});
  int64_t tile_columns = columns / cols, per_memory_tile = width / cols;
  const int64_t operand_bytes =
      operand_type.getNumElements() * operand_type.getElementTypeBitWidth() / 8;
  auto tile = [&](OpBuilder& body, Location loc, Value index, ValueRange) {
    Value zero = Index(body, loc, 0);
    Value row = body.create<arith::DivUIOp>(loc, index, Index(body, loc, tile_columns));
    Value column = body.create<arith::RemUIOp>(loc, index, Index(body, loc, tile_columns));
    // Memory tile `memory_tile`, register tile column `within` of it: the register tile itself
    // when a memory tile is one register tile wide; the register tile's row and column when it
    // holds all columns; else row * (N/2 / W) + column / (W / cols), column % (W / cols).
    Value memory_tile = index, within = zero;
    if (per_memory_tile != 1 && width == columns) {
      memory_tile = row;
      within = column;
    } else if (per_memory_tile != 1) {
      Value per = Index(body, loc, per_memory_tile);
      memory_tile = body.create<arith::AddIOp>(
          loc, body.create<arith::MulIOp>(loc, row, Index(body, loc, columns / width)),
          body.create<arith::DivUIOp>(loc, column, per));
      within = body.create<arith::RemUIOp>(loc, column, per);
    }
    // The tile's blocks: a row of blocks per LD1 when the chunks are unrolled. Carried by a
    // chunk loop, they are loaded and stored one by one (LDP/STP pairs): a loop-carried LD1
    // list would tie the blocks to four consecutive registers each, which the register
    // allocator meets with copies and spills in the loop.
    bool chunk_loop = chunks > kUnrolledChunks;
    int64_t per_list = chunk_loop ? 1 : cols;
    auto block_index = [&](OpBuilder& at, int64_t i, int64_t j) {
      return SmallVector<Value>{memory_tile, Index(at, loc, i), within, Index(at, loc, j), zero};
    };
    SmallVector<SmallVector<Value>> acc(rows);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; j += per_list) {
        auto list = body.create<tcpu::LoadVectorsOp>(loc, SmallVector<Type>(per_list, acc_type),
                                                     acc_tiles, block_index(body, i, j));
        llvm::append_range(acc[i], list.getResults());
      }
    }
    // One chunk's SMMLAs or BFMMLAs on the tile: its operands of a and of b are one LD1 each.
    auto run_chunk = [&](OpBuilder& at, Location loc, Value c) {
      auto a = at.create<tcpu::LoadVectorsOp>(loc, SmallVector<Type>(rows, operand_type), a_buffer,
                                              ValueRange{row, c, zero, zero});
      auto bv = at.create<tcpu::LoadVectorsOp>(loc, SmallVector<Type>(cols, operand_type), b_buffer,
                                               ValueRange{column, c, zero, zero});
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
          acc[i][j] = Mmla(at, loc, acc[i][j], a.getResult(i), bv.getResult(j));
        }
      }
    };
    if (!chunk_loop) {
      for (int64_t chunk = 0; chunk < chunks; ++chunk)
        run_chunk(body, loc, Index(body, loc, chunk));
    } else if (chunks % 2 != 0) {
      // A loop over the chunks, the tile's blocks carried in registers: its operands come
      // from two pointers that step 64 bytes per chunk (post-indexed LD1s).
      SmallVector<Value> carried;
      for (const auto& tile_row : acc) llvm::append_range(carried, tile_row);
      auto loop =
          body.create<scf::ForOp>(loc, zero, Index(body, loc, chunks), Index(body, loc, 1), carried,
                                  [&](OpBuilder& inner, Location loc, Value c, ValueRange blocks) {
                                    for (int64_t i = 0; i < rows; ++i) {
                                      for (int64_t j = 0; j < cols; ++j)
                                        acc[i][j] = blocks[i * cols + j];
                                    }
                                    run_chunk(inner, loc, c);
                                    SmallVector<Value> next;
                                    for (const auto& tile_row : acc)
                                      llvm::append_range(next, tile_row);
                                    inner.create<scf::YieldOp>(loc, next);
                                  });
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) acc[i][j] = loop.getResult(i * cols + j);
      }
    } else {
      // Two chunks an iteration (one count and branch per 32 SMMLAs: 38 instructions, as
      // tcpu_gemm_i8's inner loop), the operands from two pointers the loop carries into the
      // packed buffers (GEPs of them: taken through an integer, the buffers escaped and LLVM
      // stopped forwarding the packing's stores elsewhere, +2.3 K instructions a split-K
      // program), each stepped after its load by a step hidden from the backend, so that every
      // LD1 is post-indexed (indexed by the chunk, LLVM copied the base for the first LD1 and
      // stepped both apart: 43 instructions an iteration). matmul_i8 -2.7%, the bf16 matmuls
      // -3 to -4%, split-K -2.8%.
      auto pointer_type = LLVM::LLVMPointerType::get(body.getContext());
      auto first = [&](Value buffer, Value tile_index) -> Value {
        return body.create<tcpu::BufferPointerOp>(loc, pointer_type, buffer,
                                                  ValueRange{tile_index, zero, zero, zero});
      };
      // The steps from one chunk's operands to the next's, hidden from the backend (an empty
      // inline asm returns them): seeing both chunks' addresses as one base plus 0 and 64, LLVM
      // copied the base and stepped the copies apart.
      auto hidden_step = [&](int64_t count) -> Value {
        return tcpu::HiddenI64(body, loc, count * operand_bytes);
      };
      Value a_step = hidden_step(rows), b_step = hidden_step(cols);
      SmallVector<Value> carried;
      for (const auto& tile_row : acc) llvm::append_range(carried, tile_row);
      carried.push_back(first(a_buffer, row));
      carried.push_back(first(b_buffer, column));
      const int64_t blocks_count = rows * cols;
      auto loop = body.create<scf::ForOp>(
          loc, zero, Index(body, loc, chunks / 2), Index(body, loc, 1), carried,
          [&](OpBuilder& inner, Location loc, Value, ValueRange values) {
            for (int64_t i = 0; i < rows; ++i) {
              for (int64_t j = 0; j < cols; ++j) acc[i][j] = values[i * cols + j];
            }
            Value a_pointer = values[blocks_count], b_pointer = values[blocks_count + 1];
            auto step = [&](Value pointer, Value bytes) -> Value {
              return inner.create<LLVM::GEPOp>(loc, pointer_type, inner.getI8Type(), pointer,
                                               ValueRange{bytes});
            };
            for (int64_t half = 0; half < 2; ++half) {
              auto a = inner.create<tcpu::LoadVectorsOp>(
                  loc, SmallVector<Type>(rows, operand_type), a_pointer, ValueRange{});
              auto bv = inner.create<tcpu::LoadVectorsOp>(
                  loc, SmallVector<Type>(cols, operand_type), b_pointer, ValueRange{});
              a_pointer = step(a_pointer, a_step);
              b_pointer = step(b_pointer, b_step);
              for (int64_t i = 0; i < rows; ++i) {
                for (int64_t j = 0; j < cols; ++j) {
                  acc[i][j] = Mmla(inner, loc, acc[i][j], a.getResult(i), bv.getResult(j));
                }
              }
            }
            SmallVector<Value> next;
            for (const auto& tile_row : acc) llvm::append_range(next, tile_row);
            next.push_back(a_pointer);
            next.push_back(b_pointer);
            inner.create<scf::YieldOp>(loc, next);
          });
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) acc[i][j] = loop.getResult(i * cols + j);
      }
    }
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; j += per_list) {
        body.create<tcpu::StoreVectorsOp>(loc, ArrayRef<Value>(acc[i]).slice(j, per_list),
                                          acc_tiles, block_index(body, i, j));
      }
    }
    body.create<scf::YieldOp>(loc);
  };
  b.create<scf::ForOp>(loc, Index(b, loc, 0), Index(b, loc, tiles), Index(b, loc, 1), ValueRange{},
                       tile);
  return b.create<memref::LoadOp>(loc, whole, ValueRange{});
}

}  // namespace
}  // namespace mmla_tiles

bool mmlaTermsMatch(ArrayRef<DotTerm> terms) {
  for (const DotTerm& term : terms) {
    if (term.a.getType() != terms.front().a.getType() ||
        term.b.getType() != terms.front().b.getType() ||
        !mmla_tiles::TransposedSource(term.b) != !mmla_tiles::TransposedSource(terms.front().b)) {
      return false;
    }
  }
  return true;
}

Value MmlaTiles(OpBuilder& b, Location loc, ArrayRef<DotTerm> terms, Value c) {
  auto c_type = cast<VectorType>(c.getType());
  int64_t m = c_type.getDimSize(0), n = c_type.getDimSize(1);
  Type element = mmla_tiles::ElementOf(terms.front().a);
  int64_t depth = mmla_tiles::ChunkDepth(element);
  auto operand_type = VectorType::get({2 * depth}, element);
  // Chunk `offset[t]` is term t's first: the terms' chunks one after another.
  SmallVector<int64_t> offset;
  int64_t chunks = 0;
  for (const DotTerm& term : terms) {
    offset.push_back(chunks);
    chunks += cast<VectorType>(term.a.getType()).getDimSize(1) / depth;
  }
  bool transposed = mmla_tiles::TransposedSource(terms.front().b) != nullptr;
  bool in_memory = mmlaBlocksInMemory(m, n);
  // Column blocks of neighbouring columns for the transposed form (its operands pair columns
  // 2t and 2t + 1); otherwise blocks `depth` columns apart when N allows the transposes of
  // 2 x depth columns.
  int64_t stride = !transposed && n % (2 * depth) == 0 ? depth : 1;
  int64_t pairs = m / 2, columns = n / 2;
  // Register tiles of up to 4x4 blocks; in memory, tiles of their R row pairs by all N/2
  // blocks up to 16, else by the register tile's, each contiguous (tcpu/MmlaLayout.h).
  int64_t rows = mmla_tiles::TileSide(pairs), cols = mmla_tiles::TileSide(columns);
  int64_t width = mmla_tiles::MemoryTileWidth(columns, cols);
  auto blocks_type = in_memory ? VectorType::get({pairs / rows * (columns / width), rows, width, 4},
                                                 c_type.getElementType())
                               : VectorType::get({pairs, columns, 4}, c_type.getElementType());
  IntegerAttr stride_attr = b.getI64IntegerAttr(stride);
  Value blocks = b.create<tcpu::ToMmlaBlocksOp>(loc, blocks_type, c, stride_attr);
  auto build_b = [&](mmla_tiles::OperandSink sink) {
    for (auto [term, first] : llvm::zip(terms, offset)) {
      auto shifted = [&, first = first](int64_t t, int64_t chunk, Value operand) {
        sink(t, first + chunk, operand);
      };
      if (Value rows_of_n = mmla_tiles::TransposedSource(term.b)) {
        mmla_tiles::MmlaOperandsOfRowPairs(b, loc, rows_of_n, in_memory, shifted);
      } else {
        mmla_tiles::MmlaOperandsOfB(b, loc, term.b, stride, shifted);
      }
    }
  };
  auto build_a = [&](mmla_tiles::OperandSink sink) {
    for (auto [term, first] : llvm::zip(terms, offset)) {
      mmla_tiles::MmlaOperandsOfRowPairs(
          b, loc, term.a, in_memory, [&, first = first](int64_t p, int64_t chunk, Value operand) {
            sink(p, first + chunk, operand);
          });
    }
  };
  Value result = in_memory ? mmla_tiles::InMemory(b, loc, blocks, operand_type, pairs, columns,
                                                  cols, chunks, build_a, build_b)
                           : mmla_tiles::InRegisters(b, loc, blocks, build_a, build_b);
  return b.create<tcpu::FromMmlaBlocksOp>(loc, c_type, result, stride_attr);
}

}  // namespace mlir::tt
