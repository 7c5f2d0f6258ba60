// What an op writes, for the passes that move a load through a pointer past other ops
// (tcpu-sink-loads, tcpu-zip-lane-loads): nothing, only stack buffers (memref.alloca results,
// directly or through views, whose address never leaves the memref ops, so no pointer a Triton
// load holds can reach them), or other memory. A load may pass the first two.
#ifndef TCPU_DIALECT_LIB_TCPUTRANSFORMS_STACKBUFFERWRITES_H_
#define TCPU_DIALECT_LIB_TCPUTRANSFORMS_STACKBUFFERWRITES_H_

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Operation.h"

namespace mlir::tcpu {

// What `op` writes: nothing, only stack buffers, or other memory (or unknown effects).
enum class Writes { kNothing, kStackBuffers, kOther };

// WritesOf each op, asked once: the loads that move write nothing, so no answer changes while
// a pass runs. (Asked anew, the thousands of pack stores between tutorial 03's row loads and
// their uses each walked every use of their buffer, 0.9 s of its compile.)
class WriteCache {
 public:
  Writes WritesOf(Operation* op);

 private:
  Writes Compute(Operation* op);

  llvm::DenseMap<Operation*, Writes> writes_;
  llvm::DenseMap<Value, bool> stack_buffer_;
};

}  // namespace mlir::tcpu

#endif  // TCPU_DIALECT_LIB_TCPUTRANSFORMS_STACKBUFFERWRITES_H_
