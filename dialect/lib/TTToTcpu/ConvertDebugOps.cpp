// tt-to-tcpu-debug: tt.print and tt.assert become tcpu.print / tcpu.assert (printf and an
// abort with the message). A tensor is printed element by element with its flat index; a
// tensor condition asserts that every element holds. gpu.barrier and ttg.barrier synchronize
// the threads of one GPU program; a CPU program is one thread, so they go.
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tcpu/TcpuOps.h"
#include "tt/TTGDialect.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUDEBUG
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_debug_ops {
namespace {

struct Print : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    std::string prefix = op.getPrefix().str();
    if (adaptor.getArgs().empty()) {
      rewriter.create<tcpu::PrintOp>(loc, prefix, ValueRange{});
    }
    for (Value arg : adaptor.getArgs()) {
      auto type = dyn_cast<VectorType>(arg.getType());
      if (!type) {
        rewriter.create<tcpu::PrintOp>(loc, prefix, ValueRange{arg});
        continue;
      }
      auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
      Value elements = rewriter.create<vector::ShapeCastOp>(loc, flat, arg);
      Value lower = rewriter.create<arith::ConstantIndexOp>(loc, 0);
      Value upper = rewriter.create<arith::ConstantIndexOp>(loc, flat.getNumElements());
      Value step = rewriter.create<arith::ConstantIndexOp>(loc, 1);
      rewriter.create<scf::ForOp>(
          loc, lower, upper, step, ValueRange{},
          [&](OpBuilder& b, Location l, Value index, ValueRange) {
            Value element = b.create<vector::ExtractOp>(l, elements, index);
            Value position = b.create<arith::IndexCastOp>(l, b.getI64Type(), index);
            b.create<tcpu::PrintOp>(l, prefix, ValueRange{position, element});
            b.create<scf::YieldOp>(l);
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct Assert : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Value condition = adaptor.getCondition();
    if (isa<VectorType>(condition.getType())) {
      auto type = cast<VectorType>(condition.getType());
      auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
      Value elements = rewriter.create<vector::ShapeCastOp>(op.getLoc(), flat, condition);
      condition =
          rewriter.create<vector::ReductionOp>(op.getLoc(), vector::CombiningKind::AND, elements);
    }
    std::string message = op.getMessage().str();
    if (op.getFile()) {
      message = (*op.getFile() + ":" + std::to_string(op.getLine().value_or(0)) + ": " +
                 op.getFunc().value_or("") + ": " + message)
                    .str();
    }
    rewriter.replaceOpWithNewOp<tcpu::AssertOp>(op, condition, message);
    return success();
  }
};

struct DropBarrier : OpConversionPattern<ttg::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

// gpu.barrier by name: the gpu dialect is registered for parsing only.
struct DropGpuBarrier : RewritePattern {
  explicit DropGpuBarrier(MLIRContext* context)
      : RewritePattern("gpu.barrier", /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation* op, PatternRewriter& rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct TTToTcpuDebug : impl::TTToTcpuDebugBase<TTToTcpuDebug> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<PrintOp, AssertOp, ttg::BarrierOp>();
    target.addIllegalOp(OperationName("gpu.barrier", context));
    RewritePatternSet patterns(context);
    patterns.add<Print, Assert, DropBarrier>(converter, context);
    patterns.add<DropGpuBarrier>(context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_debug_ops
}  // namespace mlir::tt
