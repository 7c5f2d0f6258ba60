// --tcpu-lower-vector-lists: tcpu.load_vectors / tcpu.store_vectors to the AArch64 LD1 / ST1 of
// a register list (llvm.aarch64.neon.ld1xN / st1xN), a single vector to a plain load or store;
// tcpu.load_lanes to LD2/LD3/LD4 of one lane (llvm.aarch64.neon.ldNlane). LLVM pairs
// neighbouring loads into LDP (two registers) but never forms these lists itself.
#include <string>

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {
#define GEN_PASS_DEF_TCPULOWERVECTORLISTS
#include "tcpu/TcpuPasses.h.inc"

namespace lower_vector_lists {
namespace {

// llvm.aarch64.neon.<op>x<count>.<vector type>.p0, e.g. llvm.aarch64.neon.ld1x4.v16i8.p0.
// llvm.aarch64.neon.<op>.<vector type>.p0 with <op> e.g. ld1x4 or ld2lane.
std::string IntrinsicName(const llvm::Twine& op, VectorType type) {
  Type element = type.getElementType();
  const char* kind = element.isBF16() ? "bf" : isa<FloatType>(element) ? "f" : "i";
  return ("llvm.aarch64.neon." + op + ".v" + llvm::Twine(type.getNumElements()) + kind +
          llvm::Twine(type.getElementTypeBitWidth()) + ".p0")
      .str();
}

std::string IntrinsicName(llvm::StringRef op, size_t count, VectorType type) {
  return IntrinsicName(op + "x" + llvm::Twine(count), type);
}

// What both patterns start from: the address of the first element, the vectors' type and
// their count.
struct VectorList {
  Value pointer;
  VectorType type;
  size_t count;
  unsigned element_bytes;
};

// The address of element `indices` (`converted`: the same, lowered) of the static, identity
// `buffer` (`descriptor` its lowered memref) as the buffer's start plus the indices that vary,
// then plus the constant ones: `base + i * 256` and then `+ 16`, `+ 32`, ... Each access of a
// tile then folds its constant into the instruction (LDP/STP offsets), also where the same
// addresses are used again in another block, where one linear index per access left LLVM a
// pointer per access to carry between the blocks (which it did with pre-indexed loads and a copy
// of the base for each).
Value ElementAddress(Location loc, MemRefType buffer, Value descriptor, ValueRange indices,
                     ValueRange converted, const LLVMTypeConverter& converter,
                     ConversionPatternRewriter& rewriter) {
  Type element = converter.convertType(buffer.getElementType());
  Type i64 = rewriter.getI64Type();
  auto pointer_type = LLVM::LLVMPointerType::get(rewriter.getContext());
  Value pointer = MemRefDescriptor(descriptor).alignedPtr(rewriter, loc);
  int64_t constant = 0;
  Value varying;
  for (auto [original, index, stride] :
       llvm::zip(indices, converted, computeSuffixProduct(buffer.getShape()))) {
    if (std::optional<int64_t> value = getConstantIntValue(original)) {
      constant += *value * stride;
      continue;
    }
    Value term = rewriter.create<LLVM::MulOp>(loc, index,
                                              rewriter.create<LLVM::ConstantOp>(loc, i64, stride));
    varying = varying ? rewriter.create<LLVM::AddOp>(loc, varying, term) : term;
  }
  if (varying) pointer = rewriter.create<LLVM::GEPOp>(loc, pointer_type, element, pointer, varying);
  if (constant != 0) {  // in bytes, which LLVM keeps apart from the varying index
    int64_t bytes = constant * (buffer.getElementTypeBitWidth() / 8);
    pointer = rewriter.create<LLVM::GEPOp>(loc, pointer_type, rewriter.getI8Type(), pointer,
                                           ArrayRef<LLVM::GEPArg>{bytes});
  }
  return pointer;
}

template <typename Op>
struct VectorListLowering : ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;

  // The list's first address (ElementAddress, or the pointer it is given).
  VectorList ListOf(Op op, typename Op::Adaptor adaptor,
                    ConversionPatternRewriter& rewriter) const {
    Location loc = op.getLoc();
    auto type = cast<VectorType>(op.getVectors().front().getType());
    if (isa<LLVM::LLVMPointerType>(op.getBase().getType())) {  // the first vector's address
      return {adaptor.getBase(), type, op.getVectors().size(), type.getElementTypeBitWidth() / 8};
    }
    Value pointer = ElementAddress(loc, cast<MemRefType>(op.getBase().getType()), adaptor.getBase(),
                                   op.getIndices(), adaptor.getIndices(), *this->getTypeConverter(),
                                   rewriter);
    return {pointer, type, op.getVectors().size(), type.getElementTypeBitWidth() / 8};
  }
};

struct LoadVectorsLowering : VectorListLowering<LoadVectorsOp> {
  using VectorListLowering::VectorListLowering;

  LogicalResult matchAndRewrite(LoadVectorsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    VectorList list = ListOf(op, adaptor, rewriter);
    if (list.count == 1) {
      rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, list.type, list.pointer, list.element_bytes);
      return success();
    }
    Location loc = op.getLoc();
    auto registers =
        LLVM::LLVMStructType::getLiteral(getContext(), SmallVector<Type>(list.count, list.type));
    Value loaded = rewriter
                       .create<LLVM::CallIntrinsicOp>(loc, registers,
                                                      IntrinsicName("ld1", list.count, list.type),
                                                      ValueRange{list.pointer})
                       .getResult(0);
    SmallVector<Value> vectors;
    for (size_t i = 0; i < list.count; ++i) {
      vectors.push_back(rewriter.create<LLVM::ExtractValueOp>(loc, loaded, i));
    }
    rewriter.replaceOp(op, vectors);
    return success();
  }
};

struct StoreVectorsLowering : VectorListLowering<StoreVectorsOp> {
  using VectorListLowering::VectorListLowering;

  LogicalResult matchAndRewrite(StoreVectorsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    VectorList list = ListOf(op, adaptor, rewriter);
    if (list.count == 1) {
      rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, adaptor.getVectors().front(), list.pointer,
                                                 list.element_bytes);
      return success();
    }
    SmallVector<Value> operands(adaptor.getVectors());
    operands.push_back(list.pointer);
    rewriter.create<LLVM::CallIntrinsicOp>(op.getLoc(), TypeRange{},
                                           IntrinsicName("st1", list.count, list.type), operands);
    rewriter.eraseOp(op);
    return success();
  }
};

// LDn (n = 2..4) of a single structure into one lane: llvm.aarch64.neon.ldNlane takes the n
// vectors, the lane (an immediate) and the address, and gives the n vectors back.
struct LoadLanesLowering : ConvertOpToLLVMPattern<LoadLanesOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(LoadLanesOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<VectorType>(op.getVectors().front().getType());
    size_t count = op.getVectors().size();
    SmallVector<Value> operands(adaptor.getVectors());
    operands.push_back(rewriter.create<LLVM::ConstantOp>(loc, rewriter.getI64Type(),
                                                         rewriter.getI64IntegerAttr(op.getLane())));
    operands.push_back(adaptor.getAddress());
    auto registers =
        LLVM::LLVMStructType::getLiteral(getContext(), SmallVector<Type>(count, type));
    std::string name = IntrinsicName("ld" + llvm::Twine(count) + "lane", type);
    Value loaded =
        rewriter.create<LLVM::CallIntrinsicOp>(loc, registers, name, operands).getResult(0);
    SmallVector<Value> vectors;
    for (size_t i = 0; i < count; ++i) {
      vectors.push_back(rewriter.create<LLVM::ExtractValueOp>(loc, loaded, i));
    }
    rewriter.replaceOp(op, vectors);
    return success();
  }
};

struct BufferPointerLowering : ConvertOpToLLVMPattern<BufferPointerOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(BufferPointerOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    auto buffer = cast<MemRefType>(op.getBase().getType());
    if (!buffer.hasStaticShape() || !buffer.getLayout().isIdentity()) return failure();
    rewriter.replaceOp(op, ElementAddress(op.getLoc(), buffer, adaptor.getBase(), op.getIndices(),
                                          adaptor.getIndices(), *getTypeConverter(), rewriter));
    return success();
  }
};

struct LowerVectorLists : impl::TcpuLowerVectorListsBase<LowerVectorLists> {
  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    patterns.add<LoadVectorsLowering, StoreVectorsLowering, LoadLanesLowering,
                 BufferPointerLowering>(converter);
    ConversionTarget target(getContext());
    target.addIllegalOp<LoadVectorsOp, StoreVectorsOp, LoadLanesOp, BufferPointerOp>();
    target.markUnknownOpDynamicallyLegal([](Operation*) { return true; });
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace lower_vector_lists
}  // namespace mlir::tcpu
