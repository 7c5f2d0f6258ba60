// tt-to-tcpu-dot: d = a x b + c on vectors, by what the module's #tcpu.target offers:
//   i8 x i8 -> i32 with i8mm:    2x2 output blocks on tcpu.smmla (8 k per instruction), the
//                                accumulator in tcpu.to_mmla_blocks' layout (kept across a K
//                                loop by tcpu-hoist-mmla-layouts), b transposed by TRN stages;
//   i8 x i8 -> i32 with dotprod: 4-wide output rows on tcpu.sdot (4 k per instruction);
//   otherwise: inputs widened to the accumulator type (f16/bf16 -> f32, i8 -> i32) and K outer
//   products of a's columns and b's rows (vector.outerproduct: one broadcast FMA per row of
//   c, FMLA/MLA by element in the backend).
// Operands are rearranged in registers with shuffles: the tile in memory stays Triton's.
// A batched (3-D) dot runs batch by batch.
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tcpu/MmlaLayout.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuDialect.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/VectorConcat.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUDOT
#include "tt/TTToTcpuPasses.h.inc"

namespace {

Value Widen(OpBuilder& b, Location loc, Value value, Type element) {
  auto type = cast<VectorType>(value.getType());
  if (type.getElementType() == element) return value;
  auto wide = VectorType::get(type.getShape(), element);
  if (isa<FloatType>(element)) {
    if (!isa<FloatType>(type.getElementType())) return b.create<arith::SIToFPOp>(loc, wide, value);
    return b.create<arith::ExtFOp>(loc, wide, value);
  }
  return b.create<arith::ExtSIOp>(loc, wide, value);
}

// c[M, N] += a[M, K] x b[K, N] on 2-D vectors of one element type.
Value OuterProducts(OpBuilder& b, Location loc, Value a, Value bm, Value c) {
  auto a_type = cast<VectorType>(a.getType());
  int64_t k_size = a_type.getDimSize(1);
  Value a_columns = b.create<vector::TransposeOp>(loc, a, ArrayRef<int64_t>{1, 0});
  for (int64_t k = 0; k < k_size; ++k) {
    Value column = b.create<vector::ExtractOp>(loc, a_columns, k);
    Value row = b.create<vector::ExtractOp>(loc, bm, k);
    c = b.create<vector::OuterProductOp>(loc, c.getType(), column, row, c,
                                         vector::CombiningKind::ADD);
  }
  return c;
}

SmallVector<Value> Rows(OpBuilder& b, Location loc, Value matrix) {
  SmallVector<Value> rows;
  for (int64_t i = 0; i < cast<VectorType>(matrix.getType()).getDimSize(0); ++i) {
    rows.push_back(b.create<vector::ExtractOp>(loc, matrix, i));
  }
  return rows;
}

Value Gather(OpBuilder& b, Location loc, Value source, ArrayRef<int64_t> indices) {
  return b.create<vector::ShuffleOp>(loc, source, source, indices);
}

Value Matrix(OpBuilder& b, Location loc, ArrayRef<Value> rows, VectorType type) {
  Value result = b.create<arith::ConstantOp>(loc, type, b.getZeroAttr(type));
  for (auto [i, row] : llvm::enumerate(rows)) {
    result = b.create<vector::InsertOp>(loc, row, result, static_cast<int64_t>(i));
  }
  return result;
}

// TRN1 (odd = 0) or TRN2 (odd = 1) of two vector<16xi8> on elements of `bytes` bytes: result
// element 2j is x's element 2j + odd, element 2j + 1 is y's.
Value Trn(OpBuilder& b, Location loc, Value x, Value y, int64_t bytes, int64_t odd) {
  SmallVector<int64_t> indices;
  for (int64_t element = 0; element < 16 / bytes; ++element) {
    int64_t source = element - element % 2 + odd, offset = element % 2 == 0 ? 0 : 16;
    for (int64_t byte = 0; byte < bytes; ++byte) indices.push_back(offset + source * bytes + byte);
  }
  return b.create<vector::ShuffleOp>(loc, x, y, indices);
}

// SMMLA b operands of 8 rows (k) x 16 columns of b: a byte transpose in three TRN stages.
// Result i holds [column i, k 0..7][column i + 8, k 0..7] (the column_stride 8 blocks).
SmallVector<Value> TransposeColumnPairs(OpBuilder& b, Location loc, ArrayRef<Value> rows) {
  SmallVector<Value> columns(8);
  for (int64_t o1 = 0; o1 < 2; ++o1) {
    // Stage 1: 16-bit lane j of pairs[q] is (row 2q, row 2q + 1) at column 2j + o1.
    SmallVector<Value> pairs;
    for (int64_t q = 0; q < 4; ++q)
      pairs.push_back(Trn(b, loc, rows[2 * q], rows[2 * q + 1], 1, o1));
    for (int64_t o2 = 0; o2 < 2; ++o2) {
      // Stage 2: 32-bit lane j of quads[h] is rows 4h..4h+3 at column 4j + 2 o2 + o1.
      Value quads[2] = {Trn(b, loc, pairs[0], pairs[1], 2, o2),
                        Trn(b, loc, pairs[2], pairs[3], 2, o2)};
      for (int64_t o3 = 0; o3 < 2; ++o3) {
        // Stage 3: 64-bit lane w is rows 0..7 at column 8w + 4 o3 + 2 o2 + o1.
        columns[4 * o3 + 2 * o2 + o1] = Trn(b, loc, quads[0], quads[1], 4, o3);
      }
    }
  }
  return columns;
}

// b's SMMLA operands: operands[t][chunk] holds the 8 k of chunk for the two columns of block
// column t (tcpu/MmlaLayout.h), from 16-column transposes when N allows (stride 8), else
// from shuffles of neighbouring columns (stride 1).
SmallVector<SmallVector<Value>> MmlaOperandsOfB(OpBuilder& b, Location loc, Value bm,
                                                int64_t stride) {
  SmallVector<Value> rows = Rows(b, loc, bm);
  int64_t k = rows.size(), n = cast<VectorType>(bm.getType()).getDimSize(1);
  SmallVector<SmallVector<Value>> operands(n / 2);
  for (int64_t chunk = 0; chunk < k / 8; ++chunk) {
    ArrayRef<Value> chunk_rows = ArrayRef<Value>(rows).slice(8 * chunk, 8);
    if (stride == 8) {
      for (int64_t group = 0; group < n / 16; ++group) {
        SmallVector<Value> slices;
        for (Value row : chunk_rows) {
          slices.push_back(
              b.create<vector::ExtractStridedSliceOp>(loc, row, ArrayRef<int64_t>{16 * group},
                                                      ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1}));
        }
        for (auto [i, column] : llvm::enumerate(TransposeColumnPairs(b, loc, slices))) {
          operands[8 * group + i].push_back(column);
        }
      }
      continue;
    }
    Value joined = tcpu::ConcatVectors(b, loc, chunk_rows);
    for (int64_t t = 0; t < n / 2; ++t) {
      SmallVector<int64_t> indices;
      for (int64_t j = 0; j < 2; ++j) {
        for (int64_t kk = 0; kk < 8; ++kk) {
          indices.push_back(kk * n + tcpu::MmlaBlockColumn(t, j, stride));
        }
      }
      operands[t].push_back(Gather(b, loc, joined, indices));
    }
  }
  return operands;
}

// SMMLA operands of the rows of `matrix` [R, K] taken in pairs: operands[p][chunk] holds rows
// 2p and 2p + 1 at k 8 chunk .. 8 chunk + 7 (one ZIP of 64-bit lanes each). These are a's
// operands, and b's when b is the transpose of an [N, K] tile (x times a weight matrix).
SmallVector<SmallVector<Value>> MmlaOperandsOfRowPairs(OpBuilder& b, Location loc, Value matrix) {
  SmallVector<Value> rows = Rows(b, loc, matrix);
  int64_t k = cast<VectorType>(matrix.getType()).getDimSize(1);
  SmallVector<SmallVector<Value>> operands(rows.size() / 2);
  for (size_t p = 0; p < operands.size(); ++p) {
    for (int64_t chunk = 0; chunk < k / 8; ++chunk) {
      SmallVector<int64_t> indices;
      for (int64_t kk = 0; kk < 8; ++kk) indices.push_back(8 * chunk + kk);
      for (int64_t kk = 0; kk < 8; ++kk) indices.push_back(k + 8 * chunk + kk);
      operands[p].push_back(
          b.create<vector::ShuffleOp>(loc, rows[2 * p], rows[2 * p + 1], indices));
    }
  }
  return operands;
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

// Accumulator blocks that fit in NEON's 32 registers beside a chunk's operands.
constexpr int64_t kRegisterBlocks = 16;

// c[M, N] += a[M, K] x b[K, N] (i8 -> i32) on SMMLA, in the block layout of
// tcpu.to_mmla_blocks (each block 2 rows x 2 columns, each instruction 8 k). b's operands come from
// its rows by a byte transpose, or straight from the rows of [N, K] when b is such a tile
// transposed (tt.trans). Needs M even, N even and K % 8 == 0.
Value SmmlaTiles(OpBuilder& b, Location loc, Value a, Value bm, Value c) {
  auto c_type = cast<VectorType>(c.getType());
  int64_t m = c_type.getDimSize(0), n = c_type.getDimSize(1);
  int64_t k = cast<VectorType>(a.getType()).getDimSize(1);
  Value b_rows_of_n = TransposedSource(bm);
  // Column blocks of neighbouring columns for the transposed form (its operands pair columns
  // 2t and 2t + 1); otherwise blocks 8 columns apart when N allows the 16-column transposes.
  int64_t stride = !b_rows_of_n && n % 16 == 0 ? 8 : 1;
  auto blocks_type = VectorType::get({m / 2, n / 2, 4}, c_type.getElementType());
  IntegerAttr stride_attr = b.getI64IntegerAttr(stride);
  Value blocks = b.create<tcpu::ToMmlaBlocksOp>(loc, blocks_type, c, stride_attr);
  SmallVector<SmallVector<Value>> b_operands = b_rows_of_n
                                                   ? MmlaOperandsOfRowPairs(b, loc, b_rows_of_n)
                                                   : MmlaOperandsOfB(b, loc, bm, stride);
  SmallVector<SmallVector<Value>> a_operands = MmlaOperandsOfRowPairs(b, loc, a);
  auto acc_type = VectorType::get({4}, b.getI32Type());
  SmallVector<SmallVector<Value>> acc(m / 2);
  for (int64_t p = 0; p < m / 2; ++p) {
    for (int64_t t = 0; t < n / 2; ++t) {
      acc[p].push_back(b.create<vector::ExtractOp>(loc, blocks, ArrayRef<int64_t>{p, t}));
    }
  }
  auto step = [&](int64_t p, int64_t t, int64_t chunk) {
    acc[p][t] = b.create<tcpu::SmmlaOp>(loc, acc_type, acc[p][t], a_operands[p][chunk],
                                        b_operands[t][chunk]);
  };
  if ((m / 2) * (n / 2) <= kRegisterBlocks) {
    // The blocks stay in registers: one 8-k chunk of every block at a time, so only that
    // chunk's operands are live beside them.
    for (int64_t chunk = 0; chunk < k / 8; ++chunk) {
      for (int64_t p = 0; p < m / 2; ++p) {
        for (int64_t t = 0; t < n / 2; ++t) step(p, t, chunk);
      }
    }
  } else {
    // Too many blocks for the registers: each block is finished (every chunk) while it is
    // loaded, four block columns at a time so their b operands stay in registers.
    constexpr int64_t kColumnsAtOnce = 4;
    for (int64_t first = 0; first < n / 2; first += kColumnsAtOnce) {
      for (int64_t p = 0; p < m / 2; ++p) {
        for (int64_t t = first; t < std::min(n / 2, first + kColumnsAtOnce); ++t) {
          for (int64_t chunk = 0; chunk < k / 8; ++chunk) step(p, t, chunk);
        }
      }
    }
  }
  Value result = blocks;
  for (int64_t p = 0; p < m / 2; ++p) {
    for (int64_t t = 0; t < n / 2; ++t) {
      result = b.create<vector::InsertOp>(loc, acc[p][t], result, ArrayRef<int64_t>{p, t});
    }
  }
  return b.create<tcpu::FromMmlaBlocksOp>(loc, c_type, result, stride_attr);
}

// c[M, N] += a[M, K] x b[K, N] (i8 -> i32) on SDOT: acc[m][j] holds row m, columns
// 4j..4j+3; each instruction adds 4 k. Needs N % 4 == 0 and K % 4 == 0.
Value SdotTiles(OpBuilder& b, Location loc, Value a, Value bm, Value c) {
  auto c_type = cast<VectorType>(c.getType());
  int64_t m = c_type.getDimSize(0), n = c_type.getDimSize(1);
  int64_t k = cast<VectorType>(a.getType()).getDimSize(1);
  SmallVector<Value> a_rows = Rows(b, loc, a), b_rows = Rows(b, loc, bm), c_rows = Rows(b, loc, c);
  auto acc_type = VectorType::get({4}, b.getI32Type());
  // b's 4-k blocks of 4 columns: byte 4n + kk is B[4q + kk, 4j + n].
  SmallVector<SmallVector<Value>> b_quads(n / 4);
  for (int64_t q = 0; q < k / 4; ++q) {
    Value rows = tcpu::ConcatVectors(b, loc, ArrayRef<Value>(b_rows).slice(4 * q, 4));
    for (int64_t j = 0; j < n / 4; ++j) {
      SmallVector<int64_t> indices;
      for (int64_t column = 0; column < 4; ++column) {
        for (int64_t kk = 0; kk < 4; ++kk) indices.push_back(kk * n + 4 * j + column);
      }
      b_quads[j].push_back(Gather(b, loc, rows, indices));
    }
  }
  SmallVector<Value> result_rows;
  for (int64_t row = 0; row < m; ++row) {
    SmallVector<Value> a_quads;
    for (int64_t q = 0; q < k / 4; ++q) {
      SmallVector<int64_t> indices;
      for (int64_t lane = 0; lane < 4; ++lane) {
        for (int64_t kk = 0; kk < 4; ++kk) indices.push_back(4 * q + kk);
      }
      a_quads.push_back(Gather(b, loc, a_rows[row], indices));
    }
    SmallVector<Value> blocks;
    for (int64_t j = 0; j < n / 4; ++j) {
      Value acc = b.create<vector::ExtractStridedSliceOp>(
          loc, c_rows[row], ArrayRef<int64_t>{4 * j}, ArrayRef<int64_t>{4}, ArrayRef<int64_t>{1});
      for (int64_t q = 0; q < k / 4; ++q) {
        acc = b.create<tcpu::SdotOp>(loc, acc_type, acc, a_quads[q], b_quads[j][q]);
      }
      blocks.push_back(acc);
    }
    result_rows.push_back(tcpu::ConcatVectors(b, loc, blocks));
  }
  return Matrix(b, loc, result_rows, c_type);
}

enum class Int8Path { kOuterProducts, kSdot, kSmmla };

// SMMLA with i8mm, SDOT with dotprod, outer products otherwise; `tcpu.hints = {dot = ...}`
// (verified against the target) picks one, and fails when the tile shape does not fit it.
FailureOr<Int8Path> ChooseInt8Path(DotOp op) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  bool int8 =
      a.getElementType().isInteger(8) && b.getElementType().isInteger(8) && a.getRank() == 2;
  int64_t m = a.getDimSize(a.getRank() - 2), k = a.getDimSize(a.getRank() - 1);
  int64_t n = b.getDimSize(b.getRank() - 1);
  bool smmla_fits = int8 && m % 2 == 0 && n % 2 == 0 && k % 8 == 0;
  bool sdot_fits = int8 && n % 4 == 0 && k % 4 == 0;
  if (auto hints = op->getAttrOfType<DictionaryAttr>(tcpu::TcpuDialect::kHintsAttrName)) {
    if (auto kind = hints.getAs<StringAttr>("dot")) {
      if (kind.getValue() == "fma") return Int8Path::kOuterProducts;
      bool smmla = kind.getValue() == "smmla";
      if (!(smmla ? smmla_fits : sdot_fits)) {
        return op.emitError() << "hint dot = \"" << kind.getValue() << "\" needs 2-D i8 operands "
                              << (smmla ? "with M and N even and K a multiple of 8"
                                        : "with N and K multiples of 4")
                              << "; got " << m << "x" << k << " x " << k << "x" << n;
      }
      return smmla ? Int8Path::kSmmla : Int8Path::kSdot;
    }
  }
  tcpu::TargetAttr target = tcpu::getEnclosingTarget(op);
  if (target && target.hasFeature("i8mm") && smmla_fits) return Int8Path::kSmmla;
  if (target && target.hasFeature("dotprod") && sdot_fits) return Int8Path::kSdot;
  return Int8Path::kOuterProducts;
}

struct Dot : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    auto c_type = cast<VectorType>(adaptor.getC().getType());
    Type acc = c_type.getElementType();
    if (acc.getIntOrFloatBitWidth() < 32 && isa<FloatType>(acc)) acc = rewriter.getF32Type();
    if (getElementTypeOrSelf(op.getA().getType()).getIntOrFloatBitWidth() == 8 &&
        isa<FloatType>(getElementTypeOrSelf(op.getA().getType()))) {
      return op.emitError() << "fp8 dot operands are not supported on this CPU backend";
    }
    FailureOr<Int8Path> path = ChooseInt8Path(op);
    if (failed(path)) return failure();
    switch (*path) {
      case Int8Path::kSmmla:
        rewriter.replaceOp(
            op, SmmlaTiles(rewriter, loc, adaptor.getA(), adaptor.getB(), adaptor.getC()));
        return success();
      case Int8Path::kSdot:
        rewriter.replaceOp(
            op, SdotTiles(rewriter, loc, adaptor.getA(), adaptor.getB(), adaptor.getC()));
        return success();
      case Int8Path::kOuterProducts:
        break;
    }
    Value a = Widen(rewriter, loc, adaptor.getA(), acc);
    Value b = Widen(rewriter, loc, adaptor.getB(), acc);
    Value c = Widen(rewriter, loc, adaptor.getC(), acc);
    Value d;
    if (c_type.getRank() == 2) {
      d = OuterProducts(rewriter, loc, a, b, c);
    } else {
      d = c;
      for (int64_t batch = 0; batch < c_type.getDimSize(0); ++batch) {
        Value ab = rewriter.create<vector::ExtractOp>(loc, a, batch);
        Value bb = rewriter.create<vector::ExtractOp>(loc, b, batch);
        Value cb = rewriter.create<vector::ExtractOp>(loc, c, batch);
        d = rewriter.create<vector::InsertOp>(loc, OuterProducts(rewriter, loc, ab, bb, cb), d,
                                              batch);
      }
    }
    if (cast<VectorType>(d.getType()).getElementType() != c_type.getElementType()) {
      d = rewriter.create<arith::TruncFOp>(loc, c_type, d);
    }
    rewriter.replaceOp(op, d);
    return success();
  }
};

struct TTToTcpuDot : impl::TTToTcpuDotBase<TTToTcpuDot> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<DotOp>();
    RewritePatternSet patterns(context);
    patterns.add<Dot>(converter, context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace mlir::tt
