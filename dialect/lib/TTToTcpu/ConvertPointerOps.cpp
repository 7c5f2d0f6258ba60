// tt-to-tcpu-pointers: pointer arithmetic. A scalar !tt.ptr<T> becomes !llvm.ptr (addptr is
// a getelementptr over T); a tensor of pointers becomes a vector of i64 byte addresses, so
// addptr adds offset x sizeof(T) lane by lane. int_to_ptr / ptr_to_int / bitcast between
// pointers only change how the same address is seen.
#include "FloatBits.h"
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUPOINTERS
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_pointer_ops {
namespace {

// Bytes one pointee element occupies (i1 is stored as a byte).
int64_t ElementBytes(Type pointer_like) {
  Type pointee = getElementTypeOrSelf(getPointeeType(pointer_like));
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

Value SplatScalar(OpBuilder& b, Location loc, Type vector_type, Value scalar) {
  return b.create<vector::BroadcastOp>(loc, vector_type, scalar);
}

struct SplatPointer : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (!isa<PointerType>(op.getSrc().getType())) return failure();
    Value address =
        rewriter.create<LLVM::PtrToIntOp>(op.getLoc(), rewriter.getI64Type(), adaptor.getSrc());
    rewriter.replaceOp(op, SplatScalar(rewriter, op.getLoc(),
                                       getTypeConverter()->convertType(op.getType()), address));
    return success();
  }
};

struct AddPtr : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = getElementTypeOrSelf(getPointeeType(op.getType()));
    if (pointee.isInteger(1) || isFp8(pointee)) pointee = rewriter.getI8Type();  // LLVM has no f8
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, LLVM::LLVMPointerType::get(getContext()),
                                               pointee, adaptor.getPtr(),
                                               ValueRange{adaptor.getOffset()});
      return success();
    }
    auto type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    Value offset = adaptor.getOffset();
    auto offset_type = cast<VectorType>(offset.getType());
    if (!offset_type.getElementType().isInteger(64)) {
      offset = rewriter.create<arith::ExtSIOp>(loc, type, offset);
    }
    Value bytes = rewriter.create<arith::ConstantOp>(
        loc, type,
        DenseElementsAttr::get(type, rewriter.getI64IntegerAttr(ElementBytes(op.getType()))));
    Value scaled = rewriter.create<arith::MulIOp>(loc, offset, bytes);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, adaptor.getPtr(), scaled);
    return success();
  }
};

struct IntToPtr : OpConversionPattern<IntToPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(IntToPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, adaptor.getSrc());
    } else {
      rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(op, LLVM::LLVMPointerType::get(getContext()),
                                                    adaptor.getSrc());
    }
    return success();
  }
};

struct PtrToInt : OpConversionPattern<PtrToIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PtrToIntOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, adaptor.getSrc());
    } else {
      rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, rewriter.getI64Type(), adaptor.getSrc());
    }
    return success();
  }
};

struct PointerBitcast : OpConversionPattern<BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (!isPointerLike(op.getType()) || !isPointerLike(op.getSrc().getType())) return failure();
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct TTToTcpuPointers : impl::TTToTcpuPointersBase<TTToTcpuPointers> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<AddPtrOp, IntToPtrOp, PtrToIntOp>();
    target.addDynamicallyLegalOp<SplatOp>(
        [](SplatOp op) { return !isa<PointerType>(op.getSrc().getType()); });
    target.addDynamicallyLegalOp<BitcastOp>([](BitcastOp op) {
      return !isPointerLike(op.getType()) || !isPointerLike(op.getSrc().getType());
    });
    RewritePatternSet patterns(context);
    patterns.add<SplatPointer, AddPtr, IntToPtr, PtrToInt, PointerBitcast>(converter, context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_pointer_ops
}  // namespace mlir::tt
