// tcpu.hints: FlagTree's `#@hint` as an operation attribute, e.g.
//   {tcpu.hints = {variant = "i8mm", threads = 4 : i64}}
// `variant` pins the runtime variant an op may run, `threads` its thread count.
#ifndef TCPU_HINTS_H_
#define TCPU_HINTS_H_

#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

namespace mlir::tcpu {

struct Hints {
  std::optional<std::string> variant;  // e.g. "dotprod"
  std::optional<int64_t> threads;      // 1..kMaxThreads
};

inline constexpr int64_t kMaxThreads = 1024;  // tcpu_set_num_threads accepts 1..1024

// What the runtime knows about one memref-level op.
struct RuntimeOpInfo {
  llvm::StringRef runtime_name;              // tcpu_kernel_variant() name, e.g. "gemv_i8"
  llvm::ArrayRef<llvm::StringRef> variants;  // the variants the runtime builds for it
};

// The runtime's view of `op`, or nullopt for ops that are not runtime calls (or whose
// variants the runtime does not report yet).
std::optional<RuntimeOpInfo> getRuntimeOpInfo(Operation* op);

// The target feature a runtime variant needs ("" for ref and neon).
llvm::StringRef featureForVariant(llvm::StringRef variant);

// Checks `hints` on `op` against the op and the module's #tcpu.target; emits an error on
// `op` naming what is wrong.
LogicalResult verifyHints(Operation* op, Attribute hints);

// The hints of `op` (assumed verified); empty if it has none.
Hints getHints(Operation* op);

}  // namespace mlir::tcpu

#endif  // TCPU_HINTS_H_
