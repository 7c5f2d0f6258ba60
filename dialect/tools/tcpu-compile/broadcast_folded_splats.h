// Before code generation, each splat that the AArch64 backend folds into its user (a lane of a
// vector repeated, the operand of an FMLA, FMLAL, FMUL or MUL by element) becomes, just before
// that user, the same element inserted into every lane. SelectionDAG lowers both forms to the
// same DUP of a lane and folds it into the by-element instruction: the code is the same.
//
// Why: LLVM 19's CodeGenPrepare sinks such splats into their users' blocks, and for each
// instruction whose operands it considers sinking it numbers every instruction of the block,
// then sweeps the function again after any change. The kernels' unrolled dots are blocks of
// thousands of instructions with thousands of FMLALs by element on splats that LICM hoisted
// out of their loops: fp16 causal attention spent 14.7 of its 16.4 seconds there. A broadcast
// already in the user's block is no shuffle: CodeGenPrepare has nothing to consider.
#ifndef TCPU_DIALECT_TOOLS_TCPU_COMPILE_BROADCAST_FOLDED_SPLATS_H_
#define TCPU_DIALECT_TOOLS_TCPU_COMPILE_BROADCAST_FOLDED_SPLATS_H_

#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

namespace tcpu_tools {

void BroadcastFoldedSplats(llvm::Function& function, const llvm::TargetMachine& machine);

}  // namespace tcpu_tools

#endif  // TCPU_DIALECT_TOOLS_TCPU_COMPILE_BROADCAST_FOLDED_SPLATS_H_
