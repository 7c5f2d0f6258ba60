// tt-to-tcpu-dot: d = a x b + c on vectors, by what the module's #tcpu.target offers:
//   i8 x i8 -> i32 with i8mm:    2x2 output blocks on tcpu.smmla (8 k per instruction), and
//   bf16 x bf16 -> f32 with bf16: the same on tcpu.bfmmla (4 k per instruction; fp8 x fp8
//                                on its tiles widened to bf16, exactly): the accumulator in
//                                tcpu.to_mmla_blocks' layout (kept across a K loop by
//                                tcpu-hoist-mmla-layouts), b transposed by TRN stages, a large
//                                accumulator in a stack buffer (MmlaTiles.h);
//   i8 x i8 -> i32 with dotprod: 4-wide output rows on tcpu.sdot (4 k per instruction);
//   f16 x f16 -> f32 with fp16fml: K outer products on tcpu.fmlal by element (FMLAL + FMLAL2
//                                per 8 columns of a row: the f32 outer products' numbers);
//   otherwise: inputs widened to the accumulator type (bf16/fp8 -> f32, f16 -> f32 unless the
//   dot accumulates in f16 on a target with fp16, i8 -> i32) and K outer products of a's
//   columns and b's rows (vector.outerproduct: one broadcast FMA per row of c, FMLA/MLA by
//   element in the backend; FMLA .8h for f16, rounding to f16 after every k as Triton's f16
//   accumulator does).
// Operands are rearranged in registers with shuffles: the tile in memory stays Triton's.
// A batched (3-D) dot runs batch by batch.
#include <algorithm>

#include "DotPath.h"
#include "FloatBits.h"
#include "MmlaTiles.h"
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/VectorConcat.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUDOT
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_dot {
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

// An fp8 operand (its i8 bits in `converted`) as f32, exactly; other operands unchanged.
Value Fp8AsF32(OpBuilder& b, Location loc, Value converted, Value original) {
  Type element = getElementTypeOrSelf(original.getType());
  if (!isFp8(element)) return converted;
  return widenBitsToF32(b, loc, converted, *narrowFloatFormat(element));
}

// An fp8 operand (its i8 bits in `converted`) as bf16, exactly: every fp8 value is a bf16, the
// upper half of its f32 bits. Other operands unchanged.
Value Fp8AsBf16(OpBuilder& b, Location loc, Value converted, Value original) {
  Type element = getElementTypeOrSelf(original.getType());
  if (!isFp8(element)) return converted;
  Value value = widenBitsToF32(b, loc, converted, *narrowFloatFormat(element));
  ArrayRef<int64_t> shape = cast<VectorType>(value.getType()).getShape();
  auto i32 = VectorType::get(shape, b.getI32Type());
  Value bits = b.create<arith::BitcastOp>(loc, i32, value);
  Value sixteen =
      b.create<arith::ConstantOp>(loc, DenseElementsAttr::get(i32, b.getI32IntegerAttr(16)));
  Value upper = b.create<arith::TruncIOp>(loc, VectorType::get(shape, b.getI16Type()),
                                          b.create<arith::ShRUIOp>(loc, bits, sixteen));
  return b.create<arith::BitcastOp>(loc, VectorType::get(shape, b.getBF16Type()), upper);
}

// Blocks of an accumulator that the products run one after another, every k of a block before
// the next: up to this many rows and two 128-bit registers of columns (16 registers). An
// accumulator larger than the registers (attention's P V into a 64-wide row of O, carried
// across the key chunks) is then read and written once per dot, not once per k.
constexpr int64_t kBlockRows = 8;
constexpr int64_t kBlockRowBits = 256;

// c[M, N] += a[M, K] x b[K, N] on 2-D vectors of one element type, by blocks of c.
Value OuterProducts(OpBuilder& b, Location loc, Value a, Value bm, Value c) {
  auto c_type = cast<VectorType>(c.getType());
  int64_t m = c_type.getDimSize(0), n = c_type.getDimSize(1);
  int64_t k_size = cast<VectorType>(a.getType()).getDimSize(1);
  int64_t block_columns = std::max<int64_t>(1, kBlockRowBits / c_type.getElementTypeBitWidth());
  Value a_columns = b.create<vector::TransposeOp>(loc, a, ArrayRef<int64_t>{1, 0});
  auto slice = [&](Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) -> Value {
    if (cast<VectorType>(v.getType()).getShape() == sizes) return v;
    SmallVector<int64_t> strides(sizes.size(), 1);
    return b.create<vector::ExtractStridedSliceOp>(loc, v, offsets, sizes, strides);
  };
  for (int64_t row = 0; row < m; row += kBlockRows) {
    int64_t rows = std::min(kBlockRows, m - row);
    for (int64_t column = 0; column < n; column += block_columns) {
      int64_t columns = std::min(block_columns, n - column);
      Value block = slice(c, {row, column}, {rows, columns});
      for (int64_t k = 0; k < k_size; ++k) {
        Value lhs = slice(b.create<vector::ExtractOp>(loc, a_columns, k), {row}, {rows});
        Value rhs = slice(b.create<vector::ExtractOp>(loc, bm, k), {column}, {columns});
        block = b.create<vector::OuterProductOp>(loc, block.getType(), lhs, rhs, block,
                                                 vector::CombiningKind::ADD);
      }
      if (block.getType() == c_type) return block;
      c = b.create<vector::InsertStridedSliceOp>(loc, block, c, ArrayRef<int64_t>{row, column},
                                                 ArrayRef<int64_t>{1, 1});
    }
  }
  return c;
}

Value Matrix(OpBuilder& b, Location loc, ArrayRef<Value> rows, VectorType type) {
  Value result = b.create<arith::ConstantOp>(loc, type, b.getZeroAttr(type));
  for (auto [i, row] : llvm::enumerate(rows)) {
    result = b.create<vector::InsertOp>(loc, row, result, static_cast<int64_t>(i));
  }
  return result;
}

Value Slice(OpBuilder& b, Location loc, Value row, int64_t offset, int64_t size) {
  return b.create<vector::ExtractStridedSliceOp>(loc, row, ArrayRef<int64_t>{offset},
                                                 ArrayRef<int64_t>{size}, ArrayRef<int64_t>{1});
}

// c[M, N] += a[M, K] x b[K, N], f16 into f32, on FMLAL / FMLAL2 by element (fp16fml): row i of
// c gains a[i, k] times b's row k for each k in order, 4 columns per instruction. Needs
// N % 8 == 0. By blocks of c of kBlockRows rows and 8 columns, as OuterProducts.
Value FmlalOuterProducts(OpBuilder& b, Location loc, Value a, Value bm, Value c) {
  auto c_type = cast<VectorType>(c.getType());
  int64_t m = c_type.getDimSize(0), n = c_type.getDimSize(1);
  int64_t k_size = cast<VectorType>(a.getType()).getDimSize(1);
  auto halves = VectorType::get({8}, b.getF16Type());
  SmallVector<Value> a_rows = tcpu::VectorRows(b, loc, a), b_rows = tcpu::VectorRows(b, loc, bm),
                     c_rows = tcpu::VectorRows(b, loc, c);
  // acc[i][q]: row i, columns 4q..4q+3.
  SmallVector<SmallVector<Value>> acc(m);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t q = 0; q < n / 4; ++q) acc[i].push_back(Slice(b, loc, c_rows[i], 4 * q, 4));
  }
  for (int64_t first_row = 0; first_row < m; first_row += kBlockRows) {
    int64_t end_row = std::min(m, first_row + kBlockRows);
    for (int64_t j = 0; j < n / 8; ++j) {
      for (int64_t k = 0; k < k_size; ++k) {
        Value b_column = Slice(b, loc, b_rows[k], 8 * j, 8);  // b[k, 8j..8j+7]
        for (int64_t i = first_row; i < end_row; ++i) {
          Value a_ik = b.create<vector::ExtractOp>(loc, a_rows[i], k);
          Value splat = b.create<vector::BroadcastOp>(loc, halves, a_ik);
          for (int64_t half = 0; half < 2; ++half) {
            Value& quad = acc[i][2 * j + half];
            quad = b.create<tcpu::FmlalOp>(loc, quad.getType(), quad, b_column, splat,
                                           /*high=*/half == 1);
          }
        }
      }
    }
  }
  SmallVector<Value> rows;
  for (int64_t i = 0; i < m; ++i) rows.push_back(tcpu::ConcatVectors(b, loc, acc[i]));
  return Matrix(b, loc, rows, c_type);
}

Value Gather(OpBuilder& b, Location loc, Value source, ArrayRef<int64_t> indices) {
  return b.create<vector::ShuffleOp>(loc, source, source, indices);
}

// c[M, N] += a[M, K] x b[K, N] (i8 -> i32) on SDOT: acc[m][j] holds row m, columns
// 4j..4j+3; each instruction adds 4 k. Needs N % 4 == 0 and K % 4 == 0.
Value SdotTiles(OpBuilder& b, Location loc, Value a, Value bm, Value c) {
  auto c_type = cast<VectorType>(c.getType());
  int64_t m = c_type.getDimSize(0), n = c_type.getDimSize(1);
  int64_t k = cast<VectorType>(a.getType()).getDimSize(1);
  SmallVector<Value> a_rows = tcpu::VectorRows(b, loc, a), b_rows = tcpu::VectorRows(b, loc, bm),
                     c_rows = tcpu::VectorRows(b, loc, c);
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
      Value acc = Slice(b, loc, c_rows[row], 4 * j, 4);
      for (int64_t q = 0; q < k / 4; ++q) {
        acc = b.create<tcpu::SdotOp>(loc, acc_type, acc, a_quads[q], b_quads[j][q]);
      }
      blocks.push_back(acc);
    }
    result_rows.push_back(tcpu::ConcatVectors(b, loc, blocks));
  }
  return Matrix(b, loc, result_rows, c_type);
}

// Whether `dot` is summed into `next`, its only user (next's accumulator), and the two run as
// one SMMLA or BFMMLA dot with an accumulator in memory: the dots of a K loop's unrolled
// iterations (tt-version-masked-loops), whose buffer is then read and written once for all of
// them (each element's additions in the same order, MmlaTiles.h).
bool SumsInto(DotOp dot, Operation* next) {
  auto user = dyn_cast_or_null<DotOp>(next);
  if (!user || !dot->hasOneUse() || user.getC() != dot.getResult() ||
      !accumulatesMmlaInMemory(dot) || !accumulatesMmlaInMemory(user)) {
    return false;
  }
  DotTerm terms[] = {{dot.getA(), dot.getB()}, {user.getA(), user.getB()}};
  return mmlaTermsMatch(terms);
}

struct Dot : OpConversionPattern<DotOp> {
  // `summed_into`: each dot summed into another, and that one (found before the conversion).
  Dot(const TypeConverter& converter, MLIRContext* context,
      const llvm::DenseMap<Operation*, Operation*>& summed_into)
      : OpConversionPattern(converter, context), summed_into(summed_into) {}
  const llvm::DenseMap<Operation*, Operation*>& summed_into;

  LogicalResult matchAndRewrite(DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    auto c_type = cast<VectorType>(adaptor.getC().getType());
    Type acc = c_type.getElementType();
    // An f16 accumulator stays f16 where the target computes in f16 (Triton's f16 dot rounds
    // its accumulator to f16); narrower floats otherwise accumulate in f32.
    bool f16_fma = acc.isF16() && getElementTypeOrSelf(op.getA().getType()).isF16() &&
                   getElementTypeOrSelf(op.getB().getType()).isF16() &&
                   tcpu::targetHasFeature(tcpu::getEnclosingTarget(op), "fp16");
    if (acc.getIntOrFloatBitWidth() < 32 && isa<FloatType>(acc) && !f16_fma) {
      acc = rewriter.getF32Type();
    }
    FailureOr<DotPath> path = chooseDotPath(op);
    if (failed(path)) return failure();
    switch (*path) {
      case DotPath::kSmmla:
      case DotPath::kBfmmla: {
        // With the dots this one is summed into (left legal until now): one dot, built where
        // the last of them is.
        SmallVector<DotOp> chain{op};
        for (auto next = summed_into.find(op); next != summed_into.end();
             next = summed_into.find(next->second)) {
          chain.push_back(cast<DotOp>(next->second));
        }
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(chain.back());
        // fp8 operands widened to bf16 (chooseDotPath: only on BFMMLA), where every term's
        // operands are defined.
        auto term = [&](DotOp dot, Value a, Value b) {
          return DotTerm{Fp8AsBf16(rewriter, loc, a, dot.getA()),
                         Fp8AsBf16(rewriter, loc, b, dot.getB())};
        };
        SmallVector<DotTerm> terms{term(op, adaptor.getA(), adaptor.getB())};
        for (DotOp dot : ArrayRef<DotOp>(chain).drop_front()) {
          terms.push_back(term(dot, rewriter.getRemappedValue(dot.getA()),
                               rewriter.getRemappedValue(dot.getB())));
        }
        rewriter.replaceOp(chain.back(), MmlaTiles(rewriter, loc, terms, adaptor.getC()));
        for (DotOp dot : llvm::reverse(ArrayRef<DotOp>(chain).drop_back())) rewriter.eraseOp(dot);
        return success();
      }
      case DotPath::kSdot:
        rewriter.replaceOp(
            op, SdotTiles(rewriter, loc, adaptor.getA(), adaptor.getB(), adaptor.getC()));
        return success();
      case DotPath::kFmlal:
        rewriter.replaceOp(op, FmlalOuterProducts(rewriter, loc, adaptor.getA(), adaptor.getB(),
                                                  adaptor.getC()));
        return success();
      case DotPath::kOuterProducts:
        break;
    }
    Value a = Widen(rewriter, loc, Fp8AsF32(rewriter, loc, adaptor.getA(), op.getA()), acc);
    Value b = Widen(rewriter, loc, Fp8AsF32(rewriter, loc, adaptor.getB(), op.getB()), acc);
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
    // A dot that another is summed into is converted with that one.
    llvm::DenseMap<Operation*, Operation*> summed_into;
    getOperation()->walk([&](DotOp dot) {
      if (dot->hasOneUse() && SumsInto(dot, *dot->getUsers().begin())) {
        summed_into[dot] = *dot->getUsers().begin();
      }
    });
    target.addDynamicallyLegalOp<DotOp>([&](DotOp dot) {
      Operation* source = dot.getC().getDefiningOp();
      return source && summed_into.contains(source);
    });
    RewritePatternSet patterns(context);
    patterns.add<Dot>(converter, context, summed_into);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_dot
}  // namespace mlir::tt
