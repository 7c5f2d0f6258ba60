// The tcpu dialect (generated from TcpuDialect.td).
#ifndef TCPU_TCPUDIALECT_H_
#define TCPU_TCPUDIALECT_H_

#include "mlir/IR/Dialect.h"

#include "tcpu/TcpuDialect.h.inc"

#endif  // TCPU_TCPUDIALECT_H_
