// Loop-carried values (LoopCarried.h).
#include "LoopCarried.h"

namespace mlir::tcpu {

SmallVector<Carried> CarriedValues(scf::ForOp loop) {
  SmallVector<Carried> values;
  Operation* yield = loop.getBody()->getTerminator();
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    values.push_back({&loop.getInitArgsMutable()[i], loop.getRegionIterArg(i),
                      &yield->getOpOperand(i), std::nullopt, loop->getResult(i)});
  }
  return values;
}

SmallVector<Carried> CarriedValues(scf::WhileOp loop) {
  SmallVector<Carried> values;
  Block* before = loop.getBeforeBody();
  Block* after = loop.getAfterBody();
  Operation* forward = after->getTerminator();
  if (!llvm::equal(forward->getOperands(), after->getArguments()) ||
      before->getNumArguments() != after->getNumArguments()) {
    return values;
  }
  scf::ConditionOp condition = loop.getConditionOp();
  for (unsigned i = 0; i < before->getNumArguments(); ++i) {
    values.push_back({&loop.getInitsMutable()[i], before->getArgument(i),
                      &condition.getArgsMutable()[i], after->getArgument(i), loop->getResult(i)});
  }
  return values;
}

}  // namespace mlir::tcpu
