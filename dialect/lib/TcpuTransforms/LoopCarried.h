// The values an scf.for or a do-while scf.while carries from one iteration to the next, for
// the passes that move something of a carried value out of its loop (tcpu-hoist-mmla-layouts:
// its layout conversions; tcpu-carry-in-buffers: its trips through a stack buffer).
#ifndef TCPU_DIALECT_LIB_TCPUTRANSFORMS_LOOPCARRIED_H_
#define TCPU_DIALECT_LIB_TCPUTRANSFORMS_LOOPCARRIED_H_

#include <optional>

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tcpu {

struct Carried {
  OpOperand* init;                         // its value before the loop
  BlockArgument argument;                  // where the body reads it
  OpOperand* yielded;                      // the terminator operand giving the next value
  std::optional<BlockArgument> forwarded;  // scf.while: the region that only forwards it
  OpResult result;                         // the loop's result
};

SmallVector<Carried> CarriedValues(scf::ForOp loop);

// An scf.while whose body is its condition region (a do-while): the condition passes the next
// values and the other region forwards them unchanged. Nothing for any other scf.while.
SmallVector<Carried> CarriedValues(scf::WhileOp loop);

}  // namespace mlir::tcpu

#endif  // TCPU_DIALECT_LIB_TCPUTRANSFORMS_LOOPCARRIED_H_
