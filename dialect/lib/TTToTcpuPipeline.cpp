// The TTIR pipeline in one place: the stages of TTToTcpuPasses.td in order, then the
// tcpu-to-llvm pipeline and the launchers.
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Transforms/Passes.h"
#include "tcpu/TcpuPasses.h"
#include "tt/TTDialect.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

bool isTritonModule(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation* op) {
    if (isa<TTDialect>(op->getDialect())) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void buildTritonToTcpuPipeline(OpPassManager& pm) {
  pm.addPass(createTTLowerBlockPointers());
  pm.addPass(createTTLoopPointersToOffsets());
  pm.addPass(createTTSplitWideLoops());
  pm.addPass(createTTVersionMaskedLoops());
  pm.addPass(createTTToTcpuMemory());
  pm.addPass(createTTToTcpuAtomics());
  pm.addPass(createTTToTcpuPointers());
  pm.addPass(createTTToTcpuShapes());
  pm.addPass(createTTToTcpuElementwise());
  pm.addPass(createTTToTcpuReductions());
  pm.addPass(createTTToTcpuDot());
  pm.addPass(createTTToTcpuDebug());
  pm.addPass(createTTToTcpuFuncs());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(tcpu::createTcpuHoistMmlaLayouts());
  pm.addPass(tcpu::createTcpuCarryInBuffers());
  pm.addPass(createCanonicalizerPass());
  // Lane masks and the like used only by a partial tile's branch are computed in it.
  pm.addPass(createControlFlowSinkPass());
  pm.addPass(createTcpuExpandMath());
  pm.addPass(createTcpuSliceRows());
  pm.addPass(createTcpuSinkLoads());
}

void buildTritonToLlvmPipeline(OpPassManager& pm, const TcpuEmitTritonLaunchersOptions& launchers) {
  buildTritonToTcpuPipeline(pm);
  tcpu::buildTcpuToLlvmPipeline(pm);
  pm.addPass(createTcpuEmitTritonLaunchers(launchers));
}

void registerTritonPipelines() {
  registerTTToTcpuPasses();
  PassPipelineRegistration<>("triton-to-tcpu",
                             "TTIR -> tcpu and upstream dialects on vectors (stages 1-9)",
                             buildTritonToTcpuPipeline);
  PassPipelineRegistration<>("triton-to-llvm", "TTIR -> the LLVM dialect with launchers",
                             [](OpPassManager& pm) { buildTritonToLlvmPipeline(pm); });
}

}  // namespace mlir::tt
