// --tcpu-lower-vector-lists: tcpu.load_vectors / tcpu.store_vectors to the AArch64 LD1 / ST1 of
// a register list (llvm.aarch64.neon.ld1xN / st1xN); a single vector to a plain load or store.
// LLVM pairs neighbouring loads into LDP (two registers) but never forms these lists itself.
#include <string>

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {
#define GEN_PASS_DEF_TCPULOWERVECTORLISTS
#include "tcpu/TcpuPasses.h.inc"

namespace {

// llvm.aarch64.neon.<op>x<count>.<vector type>.p0, e.g. llvm.aarch64.neon.ld1x4.v16i8.p0.
std::string IntrinsicName(llvm::StringRef op, size_t count, VectorType type) {
  Type element = type.getElementType();
  const char* kind = element.isBF16() ? "bf" : isa<FloatType>(element) ? "f" : "i";
  return ("llvm.aarch64.neon." + op + "x" + llvm::Twine(count) + ".v" +
          llvm::Twine(type.getNumElements()) + kind + llvm::Twine(type.getElementTypeBitWidth()) +
          ".p0")
      .str();
}

unsigned ElementBytes(VectorType type) { return type.getElementTypeBitWidth() / 8; }

struct LoadVectorsLowering : ConvertOpToLLVMPattern<LoadVectorsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(LoadVectorsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    Value pointer = getStridedElementPtr(loc, op.getBase().getType(), adaptor.getBase(),
                                         adaptor.getIndices(), rewriter);
    auto type = cast<VectorType>(op.getVectors().front().getType());
    size_t count = op.getVectors().size();
    if (count == 1) {
      rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, type, pointer, ElementBytes(type));
      return success();
    }
    auto list = LLVM::LLVMStructType::getLiteral(getContext(), SmallVector<Type>(count, type));
    Value loaded = rewriter
                       .create<LLVM::CallIntrinsicOp>(loc, list, IntrinsicName("ld1", count, type),
                                                      ValueRange{pointer})
                       .getResult(0);
    SmallVector<Value> vectors;
    for (size_t i = 0; i < count; ++i) {
      vectors.push_back(rewriter.create<LLVM::ExtractValueOp>(loc, loaded, i));
    }
    rewriter.replaceOp(op, vectors);
    return success();
  }
};

struct StoreVectorsLowering : ConvertOpToLLVMPattern<StoreVectorsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(StoreVectorsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    Value pointer = getStridedElementPtr(loc, op.getBase().getType(), adaptor.getBase(),
                                         adaptor.getIndices(), rewriter);
    auto type = cast<VectorType>(op.getVectors().front().getType());
    size_t count = op.getVectors().size();
    if (count == 1) {
      rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, adaptor.getVectors().front(), pointer,
                                                 ElementBytes(type));
      return success();
    }
    SmallVector<Value> operands(adaptor.getVectors());
    operands.push_back(pointer);
    rewriter.create<LLVM::CallIntrinsicOp>(loc, TypeRange{}, IntrinsicName("st1", count, type),
                                           operands);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerVectorLists : impl::TcpuLowerVectorListsBase<LowerVectorLists> {
  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadVectorsLowering, StoreVectorsLowering>(converter);
    ConversionTarget target(getContext());
    target.addIllegalOp<LoadVectorsOp, StoreVectorsOp>();
    target.markUnknownOpDynamicallyLegal([](Operation*) { return true; });
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace mlir::tcpu
