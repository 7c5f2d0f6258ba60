// tcpu-sink-loads: an llvm.load (a row of a Triton tile) that stores into stack buffers separate
// from its first use moves down its block to that use, or to the first op that may write what
// it reads. Passing an op is safe when the op writes no memory, or writes only stack buffers:
// memref.alloca results, directly or through views of them, whose address never leaves the
// memref ops (so no pointer a load holds can reach them).
// The loads keep their order relative to everything that may alias them.
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "tcpu/TcpuDialect.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUSINKLOADS
#include "tt/TTToTcpuPasses.h.inc"

namespace sink_loads {
namespace {

// Whether the address of `buffer` (a memref.alloca or a view of one) leaves the memref ops:
// taken as a pointer or an index, cast to another type, or passed to an op that is not a
// view, a memref or vector access or a tcpu op. Such a buffer may be what a load reads.
bool AddressEscapes(Value buffer) {
  for (OpOperand& use : buffer.getUses()) {
    Operation* user = use.getOwner();
    if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() == buffer && AddressEscapes(user->getResult(0))) return true;
      continue;
    }
    if (isa<memref::ExtractAlignedPointerAsIndexOp, memref::ExtractStridedMetadataOp,
            UnrealizedConversionCastOp>(user)) {
      return true;
    }
    bool accesses =
        isa<memref::MemRefDialect, vector::VectorDialect, tcpu::TcpuDialect>(user->getDialect());
    if (!accesses) return true;
  }
  return false;
}

// Whether `value` is a stack buffer (memref.alloca) or a view of one whose address no load
// through a pointer can hold.
bool IsStackBuffer(Value value) {
  while (value) {
    Operation* op = value.getDefiningOp();
    if (!op) return false;
    if (isa<memref::AllocaOp>(op)) return !AddressEscapes(value);
    if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
      value = view.getViewSource();
      continue;
    }
    return false;
  }
  return false;
}

// What `op` writes: nothing, only stack buffers, or other memory (or unknown effects).
enum class Writes { kNothing, kStackBuffers, kOther };

// WritesOf each op, asked once: the loads that move write nothing, so no answer changes while
// the pass runs. (Asked anew, the thousands of pack stores between tutorial 03's row loads and
// their uses each walked every use of their buffer, 0.9 s of its compile.)
class WriteCache {
 public:
  Writes WritesOf(Operation* op) {
    auto [it, inserted] = writes_.try_emplace(op, Writes::kNothing);
    if (inserted) it->second = Compute(op);
    return it->second;
  }

 private:
  Writes Compute(Operation* op) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
    if (!effects) return Writes::kOther;
    Writes writes = Writes::kNothing;
    for (const MemoryEffects::EffectInstance& effect : *effects) {
      if (!isa<MemoryEffects::Write>(effect.getEffect())) continue;
      Value written = effect.getValue();
      auto [it, inserted] = stack_buffer_.try_emplace(written, false);
      if (inserted) it->second = IsStackBuffer(written);
      if (!it->second) return Writes::kOther;
      writes = Writes::kStackBuffers;
    }
    return writes;
  }

  llvm::DenseMap<Operation*, Writes> writes_;
  llvm::DenseMap<Value, bool> stack_buffer_;
};

// Moves `load` down to its first use or the first op that may write what it reads, when that
// takes it past a store into a stack buffer (a pack the loaded value would otherwise stay live
// across); loads with no such store before their use stay where they are, for the backend to
// schedule.
void Sink(LLVM::LoadOp load, WriteCache& cache) {
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
    Writes writes = cache.WritesOf(stop);
    if (writes == Writes::kOther) break;
    passes_pack |= writes == Writes::kStackBuffers;
  }
  if (stop && passes_pack) load->moveBefore(stop);
}

struct SinkLoads : impl::TcpuSinkLoadsBase<SinkLoads> {
  void runOnOperation() override {
    SmallVector<LLVM::LoadOp> loads;
    getOperation()->walk([&](LLVM::LoadOp load) { loads.push_back(load); });
    WriteCache cache;
    for (LLVM::LoadOp load : llvm::reverse(loads)) Sink(load, cache);
  }
};

}  // namespace
}  // namespace sink_loads
}  // namespace mlir::tt
