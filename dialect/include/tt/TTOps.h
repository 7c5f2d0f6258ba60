// Operations of the tt dialect (generated from TTOps.td).
#ifndef TT_TTOPS_H_
#define TT_TTOPS_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tt/TTDialect.h"
#include "tt/TTTypes.h"

#include "tt/TTEnums.h.inc"

#define GET_OP_CLASSES
#include "tt/TTOps.h.inc"

#endif  // TT_TTOPS_H_
