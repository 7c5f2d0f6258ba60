// tcpu-opt: mlir-opt for the tcpu dialect, with the upstream dialects and passes its
// kernels and lowerings use.
#include <memory>
#include <string>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
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
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tcpu/TcpuPasses.h"
#include "tt/TTDialect.h"
#include "tt/TTGDialect.h"
#include "tt/TTToTcpuPasses.h"
#include "tt/TritonSource.h"
#include "dialect/tools/hide_library_options.h"

int main(int argc, char** argv) {
  // LLVM's options (registered before main) leave --help to what mlir-opt and tcpu register.
  tcpu_tools::HideLibraryOptions();
  mlir::DialectRegistry registry;
  mlir::tcpu::registerTcpuToolDialects(registry);
  // TTIR, and what Triton dumps may also hold: gpu.barrier and ttg.barrier.
  registry.insert<mlir::tt::TTDialect, mlir::ttg::TTGDialect, mlir::gpu::GPUDialect>();
  // Only the passes tcpu's pipelines use, plus the usual cleanups: registering every
  // upstream pass links every dialect (GPU, SPIR-V, ...), and the static aarch64 binary's
  // GOT must stay small (see BUILD.bazel). Each conversion is registered from its own header
  // (mlir/Conversion/Passes.h, which has the generated register functions, declares every
  // upstream conversion and took 16 of this file's 17 seconds to compile).
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerPass([] { return mlir::createLowerAffinePass(); });
  mlir::registerPass([] { return mlir::createConvertSCFToCFPass(); });
  mlir::registerPass([] { return mlir::createConvertVectorToSCFPass(); });
  mlir::registerPass([] { return mlir::createConvertVectorToLLVMPass(); });
  mlir::registerPass([] { return mlir::createFinalizeMemRefToLLVMConversionPass(); });
  mlir::registerPass([] { return mlir::createArithToLLVMConversionPass(); });
  mlir::registerPass([] { return mlir::createConvertMathToLLVMPass(); });
  mlir::registerPass([] { return mlir::createConvertIndexToLLVMPass(); });
  mlir::registerPass([] { return mlir::createConvertControlFlowToLLVMPass(); });
  mlir::registerPass([] { return mlir::createConvertFuncToLLVMPass(); });
  mlir::registerPass([] { return mlir::createReconcileUnrealizedCastsPass(); });
  mlir::memref::registerExpandStridedMetadataPass();
  mlir::tcpu::registerTcpuPasses();
  mlir::tcpu::registerTcpuPipelines();
  mlir::tt::registerTritonPipelines();
  auto [input_file, output_file] = mlir::registerAndParseCLIOptions(
      argc, argv, "tcpu-opt: the TritonCPU tcpu dialect and TTIR (tt)\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(input_file, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(output_file, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  // Triton's `llvm.intr.assume %c : i1` (MLIR 20's form) read as MLIR 19 can; line-local, so
  // --split-input-file and expected-error lines are unaffected. Location aliases are not
  // hoisted here (that moves lines across split chunks): tcpu-compile does both.
  std::string text = mlir::tt::spellAssumesGenerically(input->getBuffer());
  std::unique_ptr<llvm::MemoryBuffer> source =
      llvm::MemoryBuffer::getMemBufferCopy(text, input->getBufferIdentifier());
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(source), registry, config))) {
    return EXIT_FAILURE;
  }
  output->keep();
  return EXIT_SUCCESS;
}
