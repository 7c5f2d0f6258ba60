// Stack buffers of the TTIR-to-tcpu conversion: a tile's lanes go through memory where a loop
// reads or writes them one at a time (a vector.extract or vector.insert at a dynamic lane makes
// the backend store and reload the whole vector for every lane).
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_STACKBUFFER_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_STACKBUFFER_H_

#include <cstdint>

#include "mlir/IR/Builders.h"

namespace mlir::tt {

// A stack buffer of `elements` values of `element` type (an LLVM pointer), allocated once in
// the entry block of the function holding `op` (not per loop iteration).
Value buildEntryBuffer(OpBuilder& b, Operation* op, Type element, int64_t elements);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_STACKBUFFER_H_
