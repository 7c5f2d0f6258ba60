// Why the CPU backend refuses a tt op that no stage lowered: the reason tt-to-tcpu-funcs
// gives with the op's name and location.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_REFUSEDOPS_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_REFUSEDOPS_H_

#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Operation.h"

namespace mlir::tt {

// The reason `op` (a tt op left after every lowering stage) cannot run on the CPU backend,
// e.g. that its body is GPU assembly; a generic reason for ops without a listed one.
llvm::StringRef refusalReason(Operation* op);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_REFUSEDOPS_H_
