// --tcpu-lower-vector-ops: tcpu.sdot and tcpu.smmla become MLIR's own Arm intrinsic ops,
// arm_neon.intr.sdot / arm_neon.intr.smmla (fixed vector<16xi8>) or arm_sve.sdot /
// arm_sve.smmla (scalable vector<[16]xi8>), once the module's #tcpu.target is known to have
// the instruction.
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/ArmSVE/IR/ArmSVEDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {

#define GEN_PASS_DEF_TCPULOWERVECTOROPS
#include "tcpu/TcpuPasses.h.inc"

namespace {

// Fails with a diagnostic on `op` unless the module's target has every feature in `needs`.
LogicalResult RequireFeatures(Operation* op, llvm::ArrayRef<llvm::StringRef> needs) {
  TargetAttr target = getEnclosingTarget(op);
  for (llvm::StringRef feature : needs) {
    if (targetHasFeature(target, feature)) continue;
    InFlightDiagnostic diag = op->emitError()
                              << "'" << op->getName() << "' on " << op->getOperand(1).getType()
                              << " needs target feature \"" << feature << "\", which ";
    if (target) return diag << "the module's " << Attribute(target) << " lacks";
    return diag << "the Armv8-A baseline lacks (the module has no 'tcpu.target')";
  }
  return success();
}

class LowerVectorOpsPass : public impl::TcpuLowerVectorOpsBase<LowerVectorOpsPass> {
 public:
  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation().walk([&](Operation* op) {
      if (isa<SdotOp, SmmlaOp>(op)) ops.push_back(op);
    });
    for (Operation* op : ops) {
      if (failed(Lower(op))) return signalPassFailure();
    }
  }

 private:
  static LogicalResult Lower(Operation* op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value acc = op->getOperand(0), lhs = op->getOperand(1), rhs = op->getOperand(2);
    Type type = acc.getType();
    bool scalable = cast<VectorType>(type).isScalable();
    Value result;
    if (isa<SdotOp>(op)) {
      // SVE SDOT is in base SVE; the NEON form needs FEAT_DotProd.
      if (failed(RequireFeatures(op, {scalable ? "sve" : "dotprod"}))) return failure();
      result = scalable ? b.create<arm_sve::SdotOp>(loc, type, acc, lhs, rhs).getResult()
                        : b.create<arm_neon::SdotOp>(loc, type, acc, lhs, rhs).getResult();
    } else {
      llvm::SmallVector<llvm::StringRef, 2> needs = {"i8mm"};
      if (scalable) needs.push_back("sve");
      if (failed(RequireFeatures(op, needs))) return failure();
      result = scalable ? b.create<arm_sve::SmmlaOp>(loc, type, acc, lhs, rhs).getResult()
                        : b.create<arm_neon::SmmlaOp>(loc, type, acc, lhs, rhs).getResult();
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    return success();
  }
};

}  // namespace
}  // namespace mlir::tcpu
