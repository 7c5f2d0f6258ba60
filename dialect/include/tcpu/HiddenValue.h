// An i64 the backend cannot see through: an empty inline asm returns it. The lowerings use it
// where LLVM's folding or hoisting of a known value costs instructions: a second base for reads
// beyond LDP's reach (tcpu-buffer-mmla-blocks), a chunk loop's pointer step that keeps every LD1
// post-indexed, and the start of packed lists' indices that keeps their addresses from being
// hoisted out of a K loop and spilled (tt-to-tcpu-dot's MmlaTiles).
#ifndef TCPU_HIDDENVALUE_H_
#define TCPU_HIDDENVALUE_H_

#include <string>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcpu {

// `value` (an i64 constant) returned by an empty inline asm without side effects. With
// `depends_on` (i64 values), the asm reads them too, so it stays wherever they change (a loop
// cannot hoist it).
inline Value HiddenI64(OpBuilder& b, Location loc, int64_t value, ValueRange depends_on = {}) {
  SmallVector<Value> inputs{b.create<arith::ConstantIntOp>(loc, value, 64)};
  llvm::append_range(inputs, depends_on);
  std::string constraints = "=r,0";
  for (size_t i = 0; i < depends_on.size(); ++i) constraints += ",r";
  return b
      .create<LLVM::InlineAsmOp>(loc, b.getI64Type(), inputs, /*asm_string=*/"", constraints,
                                 /*has_side_effects=*/false, /*is_align_stack=*/false,
                                 LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

}  // namespace mlir::tcpu

#endif  // TCPU_HIDDENVALUE_H_
