// #tcpu.target (generated from TcpuAttrs.td).
#ifndef TCPU_TCPUATTRS_H_
#define TCPU_TCPUATTRS_H_

#include <string>

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "tcpu/TcpuDialect.h"

#define GET_ATTRDEF_CLASSES
#include "tcpu/TcpuAttrs.h.inc"

namespace mlir::tcpu {

// The #tcpu.target of the module enclosing `op`, or null if there is none (then passes
// assume the Armv8-A baseline: NEON only).
TargetAttr getEnclosingTarget(Operation* op);

// Whether `target` (null: the Armv8-A baseline) has `feature`.
bool targetHasFeature(TargetAttr target, llvm::StringRef feature);

}  // namespace mlir::tcpu

#endif  // TCPU_TCPUATTRS_H_
