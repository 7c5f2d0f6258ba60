// tcpu-opt: mlir-opt for the tcpu dialect, with the upstream dialects and passes its
// kernels and lowerings use.
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tcpu/TcpuPasses.h"
#include "tt/TTDialect.h"
#include "tt/TTGDialect.h"
#include "tt/TTToTcpuPasses.h"

int main(int argc, char** argv) {
  mlir::DialectRegistry registry;
  mlir::tcpu::registerTcpuToolDialects(registry);
  // TTIR, and what Triton dumps may also hold: gpu.barrier and ttg.barrier.
  registry.insert<mlir::tt::TTDialect, mlir::ttg::TTGDialect, mlir::gpu::GPUDialect>();
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
  mlir::registerConvertMathToLLVMPass();
  mlir::registerConvertIndexToLLVMPassPass();
  mlir::registerConvertControlFlowToLLVMPassPass();
  mlir::registerConvertFuncToLLVMPassPass();
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::memref::registerExpandStridedMetadataPass();
  mlir::tcpu::registerTcpuPasses();
  mlir::tcpu::registerTcpuPipelines();
  mlir::tt::registerTritonPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tcpu-opt: the TritonCPU tcpu dialect and TTIR (tt)\n", registry));
}
