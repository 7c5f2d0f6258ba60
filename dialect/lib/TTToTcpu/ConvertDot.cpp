// tt-to-tcpu-dot: d = a x b + c on vectors, by what the module's #tcpu.target offers:
//   i8 x i8 -> i32 with i8mm:    2x2 output blocks on tcpu.smmla (8 k per instruction), and
//   bf16 x bf16 -> f32 with bf16: the same on tcpu.bfmmla (4 k per instruction): the
//                                accumulator in tcpu.to_mmla_blocks' layout (kept across a K
//                                loop by tcpu-hoist-mmla-layouts), b transposed by TRN stages,
//                                a large accumulator in a stack buffer (MmlaTiles.h);
//   i8 x i8 -> i32 with dotprod: 4-wide output rows on tcpu.sdot (4 k per instruction);
//   otherwise: inputs widened to the accumulator type (f16/bf16/fp8 -> f32, i8 -> i32) and K outer
//   products of a's columns and b's rows (vector.outerproduct: one broadcast FMA per row of
//   c, FMLA/MLA by element in the backend).
// Operands are rearranged in registers with shuffles: the tile in memory stays Triton's.
// A batched (3-D) dot runs batch by batch.
#include "DotPath.h"
#include "FloatBits.h"
#include "MmlaTiles.h"
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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
    if (acc.getIntOrFloatBitWidth() < 32 && isa<FloatType>(acc)) acc = rewriter.getF32Type();
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
        SmallVector<DotTerm> terms{{adaptor.getA(), adaptor.getB()}};
        for (DotOp dot : ArrayRef<DotOp>(chain).drop_front()) {
          terms.push_back(
              {rewriter.getRemappedValue(dot.getA()), rewriter.getRemappedValue(dot.getB())});
        }
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(chain.back());
        rewriter.replaceOp(chain.back(), MmlaTiles(rewriter, loc, terms, adaptor.getC()));
        for (DotOp dot : llvm::reverse(ArrayRef<DotOp>(chain).drop_back())) rewriter.eraseOp(dot);
        return success();
      }
      case DotPath::kSdot:
        rewriter.replaceOp(
            op, SdotTiles(rewriter, loc, adaptor.getA(), adaptor.getB(), adaptor.getC()));
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
