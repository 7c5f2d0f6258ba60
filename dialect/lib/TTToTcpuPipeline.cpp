// The Triton pipeline in one place: stages 1-29 in order, numbered as TTToTcpuPasses.td and
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
  pm.addPass(createTTUnswitchUniformConditions());  // 1b
  pm.addPass(createTTLoopPointersToOffsets());  // 2
  pm.addPass(createTTSinkLoopReductions());     // 2b
  pm.addPass(createTTStripMineTiles());         // 3
  pm.addPass(createTTSplitWideLoops());         // 4
  pm.addPass(createTTVersionMaskedLoops());     // 5
  pm.addPass(createTTVersionMaskedHistograms());  // 5b
  // tt -> tcpu (lib/TTToTcpu/).
  pm.addPass(createTTToTcpuMemory());                // 6
  pm.addPass(createTTToTcpuAtomics());               // 7
  pm.addPass(createTTToTcpuPointers());              // 8
  pm.addPass(createTTToTcpuShapes());                // 9
  pm.addPass(createTTToTcpuElementwise());           // 10
  pm.addPass(createTTToTcpuReductions());            // 11
  pm.addPass(createTTToTcpuDot());                   // 12
  pm.addPass(createTTToTcpuDebug());                 // 13
  pm.addPass(createTTToTcpuFuncs());                 // 14
  pm.addPass(createReconcileUnrealizedCastsPass());  // 15
  // tcpu -> tcpu (lib/TcpuTransforms/).
  pm.addPass(tcpu::createTcpuHoistMmlaLayouts());  // 16
  pm.addPass(tcpu::createTcpuCarryInBuffers());    // 17
  pm.addPass(createTcpuBufferMmlaBlocks());         // 17b: atomics read the accumulator's blocks
  pm.addPass(createCanonicalizerPass());           // 18
  pm.addPass(createControlFlowSinkPass());         // 19: a partial tile's lane masks in its branch
  pm.addPass(createTcpuExpandMath());              // 20
  pm.addPass(createTcpuFlattenNarrowVectors());    // 21
  pm.addPass(createTcpuDropLeadingUnitDims());     // 21b: 1 x RBLOCK rows sliced as rows
  pm.addPass(createTcpuSliceRows());               // 22
  pm.addPass(createTcpuSinkLoads());               // 23
  pm.addPass(createTcpuZipLaneLoads());            // 23b: row pairs' operands by lane loads
}

void buildTritonToLlvmPipeline(OpPassManager& pm, const TcpuEmitTritonLaunchersOptions& launchers) {
  buildTritonToTcpuPipeline(pm);
  // tcpu -> LLVM (lib/TcpuToLLVM/).
  tcpu::buildTcpuToLlvmPipeline(pm);                     // 24-28
  pm.addPass(createTcpuEmitTritonLaunchers(launchers));  // 29
}

void registerTritonPipelines() {
  registerTTToTcpuPasses();
  PassPipelineRegistration<>("triton-to-tcpu",
                             "TTIR -> tcpu and upstream dialects on vectors (stages 1-23)",
                             buildTritonToTcpuPipeline);
  PassPipelineRegistration<>("triton-to-llvm", "TTIR -> the LLVM dialect with launchers",
                             [](OpPassManager& pm) { buildTritonToLlvmPipeline(pm); });
}

}  // namespace mlir::tt
