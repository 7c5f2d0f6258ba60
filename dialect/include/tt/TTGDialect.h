// The ttg dialect: the TritonGPU barrier TTIR dumps may carry (TTGOps.td).
#ifndef TT_TTGDIALECT_H_
#define TT_TTGDIALECT_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "tt/TTGDialect.h.inc"

#define GET_OP_CLASSES
#include "tt/TTGOps.h.inc"

#endif  // TT_TTGDIALECT_H_
