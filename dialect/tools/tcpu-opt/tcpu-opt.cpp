// tcpu-opt: mlir-opt for the tcpu dialect, with the upstream dialects and passes its
// kernels and lowerings use.
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/ArmSVE/IR/ArmSVEDialect.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tcpu/TcpuDialect.h"
#include "tcpu/TcpuPasses.h"

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tcpu::TcpuDialect, mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::arm_neon::ArmNeonDialect, mlir::arm_sve::ArmSVEDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::index::IndexDialect, mlir::LLVM::LLVMDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  // Only the passes tcpu's pipelines use, plus the usual cleanups: registering every
  // upstream pass links every dialect (GPU, SPIR-V, ...), and the static aarch64 binary's
  // GOT must stay small (see BUILD.bazel).
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerConvertAffineToStandardPass();
  mlir::registerSCFToControlFlowPass();
  mlir::registerConvertVectorToSCFPass();
  mlir::registerConvertVectorToLLVMPassPass();
  mlir::registerFinalizeMemRefToLLVMConversionPassPass();
  mlir::registerArithToLLVMConversionPassPass();
  mlir::registerConvertIndexToLLVMPassPass();
  mlir::registerConvertControlFlowToLLVMPassPass();
  mlir::registerConvertFuncToLLVMPassPass();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::memref::registerExpandStridedMetadataPass();
  mlir::tcpu::registerTcpuPasses();
  mlir::tcpu::registerTcpuPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tcpu-opt: the TritonCPU tcpu dialect\n", registry));
}
