// tcpu operations (generated from TcpuOps.td).
#ifndef TCPU_TCPUOPS_H_
#define TCPU_TCPUOPS_H_

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tcpu/TcpuDialect.h"

#define GET_OP_CLASSES
#include "tcpu/TcpuOps.h.inc"

#endif  // TCPU_TCPUOPS_H_
