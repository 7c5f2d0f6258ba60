// The tt dialect (TTIR), generated from TTDialect.td.
#ifndef TT_TTDIALECT_H_
#define TT_TTDIALECT_H_

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "tt/TTDialect.h.inc"

namespace mlir::tt {
// The resource tt.load / tt.store / atomics read and write.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<tt::GlobalMemory>"; }
};
}  // namespace mlir::tt

#endif  // TT_TTDIALECT_H_
