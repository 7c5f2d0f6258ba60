// StackBufferWrites.h.
#include "StackBufferWrites.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "tcpu/TcpuDialect.h"

namespace mlir::tcpu {
namespace stack_buffer_writes {
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
        isa<memref::MemRefDialect, vector::VectorDialect, TcpuDialect>(user->getDialect());
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

}  // namespace
}  // namespace stack_buffer_writes

Writes WriteCache::WritesOf(Operation* op) {
  auto [it, inserted] = writes_.try_emplace(op, Writes::kNothing);
  if (inserted) it->second = Compute(op);
  return it->second;
}

Writes WriteCache::Compute(Operation* op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
  if (!effects) return Writes::kOther;
  Writes writes = Writes::kNothing;
  for (const MemoryEffects::EffectInstance& effect : *effects) {
    if (!isa<MemoryEffects::Write>(effect.getEffect())) continue;
    Value written = effect.getValue();
    auto [it, inserted] = stack_buffer_.try_emplace(written, false);
    if (inserted) it->second = stack_buffer_writes::IsStackBuffer(written);
    if (!it->second) return Writes::kOther;
    writes = Writes::kStackBuffers;
  }
  return writes;
}

}  // namespace mlir::tcpu
