// tt-to-tcpu-shapes: ops that create or reshape tensors, on vectors of the same shapes.
//   make_range -> a constant vector      splat       -> vector.broadcast
//   broadcast  -> vector.broadcast        expand_dims -> vector.shape_cast
//   reshape    -> vector.shape_cast (through the flat vector when the shapes regroup dimensions)
//   trans      -> vector.transpose        cat         -> two insert_strided_slice along dim 0
//   join       -> vector.interleave       split       -> vector.deinterleave
//   unsplat    -> vector.extract of the one element
//   gather     -> a loop over the result's lanes reading the source from a stack buffer
// Tensors of pointers take the same path as i64 address vectors.
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

// Whether vector.shape_cast takes `from` to `to` directly: one shape must be the other with
// runs of neighbouring dimensions merged (MLIR's rule). [2, 8] -> [4, 2, 2] regroups instead
// (Inductor's bitonic sort reshapes its [XBLOCK, RBLOCK] block so at every stage).
bool IsDirectShapeCast(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() < to.size()) std::swap(from, to);
  size_t i = 0;
  for (int64_t size : to) {
    int64_t merged = 1;
    while (i < from.size() && merged < size) merged *= from[i++];
    if (merged != size) return false;
  }
  while (i < from.size() && from[i] == 1) ++i;
  return i == from.size();
}

// A row-major reshape of `value` to `type`: a shape_cast, or two through the flat vector.
Value Reshape(OpBuilder& b, Location loc, Value value, VectorType type) {
  auto from = cast<VectorType>(value.getType());
  if (from == type) return value;
  if (!IsDirectShapeCast(from.getShape(), type.getShape())) {
    value = b.create<vector::ShapeCastOp>(
        loc, VectorType::get({from.getNumElements()}, from.getElementType()), value);
  }
  return b.create<vector::ShapeCastOp>(loc, type, value);
}

template <typename Op>
struct ShapeCast : ShapePattern<Op> {
  using ShapePattern<Op>::ShapePattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.replaceOp(op, Reshape(rewriter, op.getLoc(), adaptor.getSrc(), this->ResultType(op)));
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

// result[p] = src[p with indices[p] along axis]. Every lane's flat source position is computed
// as one vector op (the other dimensions' part is a constant), an index outside [0, size) of
// the axis gives -1, and a loop over the lanes copies from a stack buffer holding the source:
// its code does not grow with the tensor, and nothing outside the source is read (Triton
// leaves such an index undefined; here the lane reads zero).
struct Gather : ShapePattern<GatherOp> {
  using ShapePattern::ShapePattern;
  LogicalResult matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    auto source = cast<VectorType>(adaptor.getSrc().getType());
    auto indices = cast<VectorType>(adaptor.getIndices().getType());
    VectorType result = ResultType(op);
    int64_t axis = op.getAxis();
    int64_t lanes = result.getNumElements();
    if (source.getNumElements() >= (int64_t{1} << 31)) {
      return rewriter.notifyMatchFailure(op, "a gather source over 2^31 elements");
    }
    SmallVector<int64_t> source_strides(source.getRank(), 1), result_strides(result.getRank(), 1);
    for (int64_t d = source.getRank() - 2; d >= 0; --d) {
      source_strides[d] = source_strides[d + 1] * source.getDimSize(d + 1);
      result_strides[d] = result_strides[d + 1] * result.getDimSize(d + 1);
    }
    SmallVector<int32_t> fixed_part;
    for (int64_t p = 0; p < lanes; ++p) {
      int64_t position = 0;
      for (int64_t d = 0; d < result.getRank(); ++d) {
        if (d != axis) position += (p / result_strides[d] % result.getDimSize(d)) * source_strides[d];
      }
      fixed_part.push_back(static_cast<int32_t>(position));
    }
    Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
    auto flat_of = [&](Type element) { return VectorType::get({lanes}, element); };
    Value index = Reshape(rewriter, loc, adaptor.getIndices(), flat_of(indices.getElementType()));
    if (indices.getElementType() != i64) {
      index = rewriter.create<arith::ExtSIOp>(loc, flat_of(i64), index);
    }
    auto splat64 = [&](int64_t value) {
      return rewriter.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(flat_of(i64), rewriter.getI64IntegerAttr(value)));
    };
    Value inside = rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, index,
                                                  splat64(source.getDimSize(axis)));
    Value position = rewriter.create<arith::TruncIOp>(loc, flat_of(i32), index);
    position = rewriter.create<arith::MulIOp>(
        loc, position,
        rewriter.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(flat_of(i32), static_cast<int32_t>(source_strides[axis]))));
    position = rewriter.create<arith::AddIOp>(
        loc, position,
        rewriter.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(flat_of(i32), ArrayRef<int32_t>(fixed_part))));
    position = rewriter.create<arith::SelectOp>(
        loc, inside, position,
        rewriter.create<arith::ConstantOp>(loc, DenseElementsAttr::get(flat_of(i32), int32_t{-1})));

    Type element = source.getElementType();
    Type stored = memoryElementType(element);
    Value values = toMemoryElements(
        rewriter, loc,
        Reshape(rewriter, loc, adaptor.getSrc(),
                VectorType::get({source.getNumElements()}, element)));
    Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value source_buffer = createEntryStackBuffer(rewriter, op, stored, source.getNumElements());
    Value position_buffer = createEntryStackBuffer(rewriter, op, i32, lanes);
    Value result_buffer = createEntryStackBuffer(rewriter, op, stored, lanes);
    rewriter.create<vector::StoreOp>(loc, values, source_buffer, ValueRange{zero});
    rewriter.create<vector::StoreOp>(loc, position, position_buffer, ValueRange{zero});
    Value padding = rewriter.create<arith::ConstantOp>(loc, rewriter.getZeroAttr(stored));
    auto loop = rewriter.create<scf::ForOp>(loc, zero,
                                            rewriter.create<arith::ConstantIndexOp>(loc, lanes),
                                            rewriter.create<arith::ConstantIndexOp>(loc, 1));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value lane = loop.getInductionVar();
      Value from = rewriter.create<memref::LoadOp>(loc, position_buffer, ValueRange{lane});
      Value valid = rewriter.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::sge, from, rewriter.create<arith::ConstantIntOp>(loc, 0, 32));
      auto read = rewriter.create<scf::IfOp>(loc, TypeRange{stored}, valid, true, true);
      rewriter.setInsertionPointToStart(read.thenBlock());
      Value at = rewriter.create<arith::IndexCastOp>(loc, rewriter.getIndexType(), from);
      rewriter.create<scf::YieldOp>(
          loc, ValueRange{rewriter.create<memref::LoadOp>(loc, source_buffer, ValueRange{at})});
      rewriter.setInsertionPointToStart(read.elseBlock());
      rewriter.create<scf::YieldOp>(loc, ValueRange{padding});
      rewriter.setInsertionPointAfter(read);
      rewriter.create<memref::StoreOp>(loc, read.getResult(0), result_buffer, ValueRange{lane});
    }
    Value gathered =
        rewriter.create<vector::LoadOp>(loc, flat_of(stored), result_buffer, ValueRange{zero});
    gathered = fromMemoryElements(rewriter, loc, gathered, element);
    rewriter.replaceOp(op, Reshape(rewriter, loc, gathered, result));
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
                        JoinOp, SplitOp, GatherOp>();
    target.addDynamicallyLegalOp<SplatOp>(
        [](SplatOp op) { return isa<PointerType>(op.getSrc().getType()); });
    // An unsplat of pointers is left to the refusal of tt-to-tcpu-funcs.
    target.addDynamicallyLegalOp<UnsplatOp>(
        [](UnsplatOp op) { return isa<PointerType>(op.getType()); });
    RewritePatternSet patterns(context);
    patterns.add<MakeRange, Splat, Broadcast, ShapeCast<ExpandDimsOp>, ShapeCast<ReshapeOp>,
                 Trans, Cat, Join, Split, Unsplat, Gather>(converter, context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_shape_ops
}  // namespace mlir::tt
