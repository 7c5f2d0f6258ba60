// The Triton pipeline in one place: stages 1-27 in order, numbered as TTToTcpuPasses.td and
// dialect/README.md list them.
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
  // tt -> tt (lib/TTTransforms/).
  pm.addPass(createTTLowerBlockPointers());     // 1
  pm.addPass(createTTLoopPointersToOffsets());  // 2
  pm.addPass(createTTStripMineTiles());         // 3
  pm.addPass(createTTSplitWideLoops());         // 3
  pm.addPass(createTTVersionMaskedLoops());     // 4
  // tt -> tcpu (lib/TTToTcpu/).
  pm.addPass(createTTToTcpuMemory());                // 5
  pm.addPass(createTTToTcpuAtomics());               // 6
  pm.addPass(createTTToTcpuPointers());              // 7
  pm.addPass(createTTToTcpuShapes());                // 8
  pm.addPass(createTTToTcpuElementwise());           // 9
  pm.addPass(createTTToTcpuReductions());            // 10
  pm.addPass(createTTToTcpuDot());                   // 11
  pm.addPass(createTTToTcpuDebug());                 // 12
  pm.addPass(createTTToTcpuFuncs());                 // 13
  pm.addPass(createReconcileUnrealizedCastsPass());  // 14
  // tcpu -> tcpu (lib/TcpuTransforms/).
  pm.addPass(tcpu::createTcpuHoistMmlaLayouts());  // 15
  pm.addPass(tcpu::createTcpuCarryInBuffers());    // 16
  pm.addPass(createCanonicalizerPass());           // 17
  pm.addPass(createControlFlowSinkPass());         // 18: a partial tile's lane masks in its branch
  pm.addPass(createTcpuExpandMath());              // 19
  pm.addPass(createTcpuSliceRows());               // 20
  pm.addPass(createTcpuSinkLoads());               // 21
}

void buildTritonToLlvmPipeline(OpPassManager& pm, const TcpuEmitTritonLaunchersOptions& launchers) {
  buildTritonToTcpuPipeline(pm);
  // tcpu -> LLVM (lib/TcpuToLLVM/).
  tcpu::buildTcpuToLlvmPipeline(pm);                     // 22-26
  pm.addPass(createTcpuEmitTritonLaunchers(launchers));  // 27
}

void registerTritonPipelines() {
  registerTTToTcpuPasses();
  PassPipelineRegistration<>("triton-to-tcpu",
                             "TTIR -> tcpu and upstream dialects on vectors (stages 1-21)",
                             buildTritonToTcpuPipeline);
  PassPipelineRegistration<>("triton-to-llvm", "TTIR -> the LLVM dialect with launchers",
                             [](OpPassManager& pm) { buildTritonToLlvmPipeline(pm); });
}

}  // namespace mlir::tt
