// tt-to-tcpu-shapes: ops that create or reshape tensors, on vectors of the same shapes.
//   make_range -> a constant vector      splat       -> vector.broadcast
//   broadcast  -> vector.broadcast        expand_dims -> vector.shape_cast
//   reshape    -> vector.shape_cast       trans       -> vector.transpose
//   cat        -> two insert_strided_slice along dimension 0
//   join       -> vector.interleave       split       -> vector.deinterleave
//   unsplat    -> vector.extract of the one element
// Tensors of pointers take the same path as i64 address vectors.
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUSHAPES
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_shape_ops {
namespace {

template <typename Op>
struct ShapePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  VectorType ResultType(Op op) const {
    return cast<VectorType>(this->getTypeConverter()->convertType(op->getResult(0).getType()));
  }
};

struct MakeRange : ShapePattern<MakeRangeOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(MakeRangeOp op, OpAdaptor,
                                ConversionPatternRewriter& rewriter) const override {
    VectorType type = ResultType(op);
    SmallVector<int32_t> values;
    for (int64_t i = op.getStartAttr().getInt(); i < op.getEndAttr().getInt(); ++i) {
      values.push_back(static_cast<int32_t>(i));
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, DenseElementsAttr::get(type, ArrayRef<int32_t>(values)));
    return success();
  }
};

struct Splat : ShapePattern<SplatOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (isa<PointerType>(op.getSrc().getType())) return failure();  // tt-to-tcpu-pointers
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, ResultType(op), adaptor.getSrc());
    return success();
  }
};

struct Broadcast : ShapePattern<BroadcastOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, ResultType(op), adaptor.getSrc());
    return success();
  }
};

template <typename Op>
struct ShapeCast : ShapePattern<Op> {
  using ShapePattern<Op>::ShapePattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, this->ResultType(op), adaptor.getSrc());
    return success();
  }
};

struct Trans : ShapePattern<TransOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(TransOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    SmallVector<int64_t> permutation(op.getOrder().begin(), op.getOrder().end());
    rewriter.replaceOpWithNewOp<vector::TransposeOp>(op, adaptor.getSrc(), permutation);
    return success();
  }
};

struct Cat : ShapePattern<CatOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(CatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    VectorType type = ResultType(op);
    Location loc = op.getLoc();
    int64_t half = type.getDimSize(0) / 2;
    SmallVector<int64_t> strides(type.getRank(), 1);
    SmallVector<int64_t> first(type.getRank(), 0), second(type.getRank(), 0);
    second[0] = half;
    Value result = rewriter.create<arith::ConstantOp>(loc, type, rewriter.getZeroAttr(type));
    result = rewriter.create<vector::InsertStridedSliceOp>(loc, adaptor.getLhs(), result, first,
                                                           strides);
    result = rewriter.create<vector::InsertStridedSliceOp>(loc, adaptor.getRhs(), result, second,
                                                           strides);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct Join : ShapePattern<JoinOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (cast<VectorType>(adaptor.getLhs().getType()).getRank() == 0) {
      // Two 0-D tensors join into a 2-element one (vector.interleave needs rank >= 1).
      VectorType type = ResultType(op);
      Location loc = op.getLoc();
      Value result = rewriter.create<arith::ConstantOp>(loc, type, rewriter.getZeroAttr(type));
      for (auto [index, half] : llvm::enumerate(ValueRange{adaptor.getLhs(), adaptor.getRhs()})) {
        Value element = rewriter.create<vector::ExtractOp>(loc, half, ArrayRef<int64_t>{});
        result =
            rewriter.create<vector::InsertOp>(loc, element, result, static_cast<int64_t>(index));
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    Value interleaved =
        rewriter.create<vector::InterleaveOp>(op.getLoc(), adaptor.getLhs(), adaptor.getRhs());
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, ResultType(op), interleaved);
    return success();
  }
};

struct Split : ShapePattern<SplitOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    auto source = cast<VectorType>(adaptor.getSrc().getType());
    if (source.getRank() == 1) {
      // tensor<2xT> splits into two 0-D tensors, one element each (there is no second-last
      // dimension to fold the pairs into).
      VectorType half = ResultType(op);
      SmallVector<Value> halves;
      for (int64_t index = 0; index < 2; ++index) {
        Value element = rewriter.create<vector::ExtractOp>(op.getLoc(), adaptor.getSrc(), index);
        halves.push_back(rewriter.create<vector::BroadcastOp>(op.getLoc(), half, element));
      }
      rewriter.replaceOp(op, halves);
      return success();
    }
    SmallVector<int64_t> flat(source.getShape().drop_back(2));
    flat.push_back(source.getShape()[source.getRank() - 2] * 2);
    Value pairs = rewriter.create<vector::ShapeCastOp>(
        op.getLoc(), VectorType::get(flat, source.getElementType()), adaptor.getSrc());
    auto halves = rewriter.create<vector::DeinterleaveOp>(op.getLoc(), pairs);
    rewriter.replaceOp(op, halves.getResults());
    return success();
  }
};

struct Unsplat : OpConversionPattern<UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(UnsplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    auto source = cast<VectorType>(adaptor.getSrc().getType());
    SmallVector<int64_t> first(source.getRank(), 0);
    rewriter.replaceOpWithNewOp<vector::ExtractOp>(op, adaptor.getSrc(), first);
    return success();
  }
};

struct TTToTcpuShapes : impl::TTToTcpuShapesBase<TTToTcpuShapes> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<MakeRangeOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, CatOp,
                        JoinOp, SplitOp>();
    target.addDynamicallyLegalOp<SplatOp>(
        [](SplatOp op) { return isa<PointerType>(op.getSrc().getType()); });
    // An unsplat of pointers is left to the refusal of tt-to-tcpu-funcs.
    target.addDynamicallyLegalOp<UnsplatOp>(
        [](UnsplatOp op) { return isa<PointerType>(op.getType()); });
    RewritePatternSet patterns(context);
    patterns.add<MakeRange, Splat, Broadcast, ShapeCast<ExpandDimsOp>, ShapeCast<ReshapeOp>,
                 Trans, Cat, Join, Split, Unsplat>(converter, context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_shape_ops
}  // namespace mlir::tt
