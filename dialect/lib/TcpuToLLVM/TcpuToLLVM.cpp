// --tcpu-to-llvm, stages 24-28 of TcpuPasses.td: the tcpu passes, then MLIR's own conversions,
// down to the LLVM dialect (what tcpu-compile translates to LLVM IR). arm_neon / arm_sve ops are
// legalized for export by the vector-to-LLVM conversion.
// Each conversion's own header, not mlir/Conversion/Passes.h: that one declares every upstream
// conversion (GPU, SPIR-V, ...) and took 16 of a unit's seconds to parse.
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/ArmSVE/IR/ArmSVEDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tcpu/TcpuDialect.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {

void registerTcpuToolDialects(DialectRegistry& registry) {
  registry.insert<TcpuDialect, affine::AffineDialect, arith::ArithDialect, arm_neon::ArmNeonDialect,
                  arm_sve::ArmSVEDialect, cf::ControlFlowDialect, func::FuncDialect,
                  index::IndexDialect, LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, vector::VectorDialect>();
}

void buildTcpuToLlvmPipeline(OpPassManager& pm) {
  pm.addPass(createTcpuLowerToRuntime());
  pm.addPass(createTcpuLowerVectorOps());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertSCFToCFPass());
  ConvertVectorToLLVMPassOptions vector_options;
  vector_options.armNeon = true;
  vector_options.armSVE = true;
  pm.addPass(createConvertVectorToLLVMPass(vector_options));
  pm.addPass(createTcpuLowerVectorLists());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void registerTcpuPipelines() {
  PassPipelineRegistration<>("tcpu-to-llvm",
                             "Lower tcpu and the upstream dialects it uses to the LLVM dialect",
                             buildTcpuToLlvmPipeline);
}

}  // namespace mlir::tcpu
