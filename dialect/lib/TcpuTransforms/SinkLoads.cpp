// tcpu-sink-loads: an llvm.load (a row of a Triton tile) that stores into stack buffers separate
// from its first use moves down its block to that use, or to the first op that may write what
// it reads. Passing an op is safe when the op writes no memory, or writes only stack buffers
// (StackBufferWrites.h).
// The loads keep their order relative to everything that may alias them.
#include "StackBufferWrites.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUSINKLOADS
#include "tt/TTToTcpuPasses.h.inc"

namespace sink_loads {
namespace {

// Moves `load` down to its first use or the first op that may write what it reads, when that
// takes it past a store into a stack buffer (a pack the loaded value would otherwise stay live
// across); loads with no such store before their use stay where they are, for the backend to
// schedule.
void Sink(LLVM::LoadOp load, tcpu::WriteCache& cache) {
  if (load.getVolatile_() || load.getOrdering() != LLVM::AtomicOrdering::not_atomic) return;
  Block* block = load->getBlock();
  Operation* first_use = nullptr;
  for (Operation* user : load->getUsers()) {
    Operation* ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor) return;
    if (!first_use || ancestor->isBeforeInBlock(first_use)) first_use = ancestor;
  }
  bool passes_pack = false;
  Operation* stop = load->getNextNode();
  for (; stop && stop != first_use; stop = stop->getNextNode()) {
    tcpu::Writes writes = cache.WritesOf(stop);
    if (writes == tcpu::Writes::kOther) break;
    passes_pack |= writes == tcpu::Writes::kStackBuffers;
  }
  if (stop && passes_pack) load->moveBefore(stop);
}

struct SinkLoads : impl::TcpuSinkLoadsBase<SinkLoads> {
  void runOnOperation() override {
    SmallVector<LLVM::LoadOp> loads;
    getOperation()->walk([&](LLVM::LoadOp load) { loads.push_back(load); });
    tcpu::WriteCache cache;
    for (LLVM::LoadOp load : llvm::reverse(loads)) Sink(load, cache);
  }
};

}  // namespace
}  // namespace sink_loads
}  // namespace mlir::tt
