// tt-to-tcpu-dot: d = a x b + c on vectors. Inputs narrower than the accumulator are
// widened (f16/bf16 -> f32, i8 -> i32); the product is K outer products of a's columns and
// b's rows accumulated into c (vector.outerproduct: one broadcast FMA per row of c), which
// the backend turns into FMLA/MLA by element. A batched (3-D) dot runs batch by batch.
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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
