#include "dialect/tools/tcpu-compile/broadcast_folded_splats.h"

#include <optional>
#include <utility>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/TargetLowering.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace tcpu_tools {
namespace {

// The element a fixed-width splat shuffle repeats, as (source vector, lane); nullopt for any
// other value.
std::optional<std::pair<llvm::Value*, int>> SplatSource(llvm::Value* value) {
  auto* shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value);
  if (!shuffle || !llvm::isa<llvm::FixedVectorType>(shuffle->getType())) return std::nullopt;
  llvm::ArrayRef<int> mask = shuffle->getShuffleMask();
  if (mask.empty() || mask.front() < 0 || !llvm::all_equal(mask)) return std::nullopt;
  // A fixed-width shuffle's inputs are fixed-width too.
  auto* input = llvm::cast<llvm::FixedVectorType>(shuffle->getOperand(0)->getType());
  int lanes = static_cast<int>(input->getNumElements()), lane = mask.front();
  return lane < lanes ? std::make_pair(shuffle->getOperand(0), lane)
                      : std::make_pair(shuffle->getOperand(1), lane - lanes);
}

// The splat as its one element inserted into every lane, just before `before`.
llvm::Value* BroadcastBefore(llvm::Instruction* before, llvm::Type* type, llvm::Value* source,
                             int lane) {
  llvm::IRBuilder<> builder(before);
  llvm::Value* element = builder.CreateExtractElement(source, builder.getInt64(lane));
  llvm::Value* vector = llvm::PoisonValue::get(type);
  unsigned lanes = llvm::cast<llvm::FixedVectorType>(type)->getNumElements();
  for (unsigned i = 0; i < lanes; ++i) {
    vector = builder.CreateInsertElement(vector, element, builder.getInt64(i));
  }
  return vector;
}

// Replaces each splat that the backend would fold into `user` (its own operand, by the target's
// CodeGenPrepare hook) with a broadcast of the element just before it.
void BroadcastSplatsOf(llvm::Instruction& user, const llvm::TargetLowering& lowering) {
  llvm::SmallVector<llvm::Use*, 4> uses;
  if (llvm::isa<llvm::PHINode>(user) || !lowering.shouldSinkOperands(&user, uses)) return;
  llvm::SmallSetVector<llvm::Instruction*, 4> maybe_dead;
  for (llvm::Use* use : uses) {
    if (use->getUser() != &user) continue;  // a link of a chain (a splat of an extend): left
    auto* def = llvm::dyn_cast<llvm::Instruction>(use->get());
    auto splat = def ? SplatSource(def) : std::nullopt;
    if (!splat) continue;
    use->set(BroadcastBefore(&user, def->getType(), splat->first, splat->second));
    maybe_dead.insert(def);
  }
  // Defined before `user` (in its block or one dominating it): never the next to visit.
  for (llvm::Instruction* def : maybe_dead) {
    if (def->use_empty()) def->eraseFromParent();
  }
}

}  // namespace

void BroadcastFoldedSplats(llvm::Function& function, const llvm::TargetMachine& machine) {
  if (function.isDeclaration()) return;
  const llvm::TargetLowering* lowering =
      machine.getSubtargetImpl(function)->getTargetLowering();
  if (!lowering) return;
  for (llvm::BasicBlock& block : function) {
    for (llvm::Instruction& instruction : llvm::make_early_inc_range(block)) {
      BroadcastSplatsOf(instruction, *lowering);
    }
  }
}

}  // namespace tcpu_tools
