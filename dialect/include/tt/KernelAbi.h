// The Triton kernel ABI (runtime/include/tcpu/triton.h) in one place: which tt.funcs are
// kernels, how each argument is passed from C, and the C header declaring them.
#ifndef TT_KERNELABI_H_
#define TT_KERNELABI_H_

#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinOps.h"
#include "tt/TTOps.h"

namespace mlir::tt {

// The public tt.funcs, or the only tt.func when none is public.
SmallVector<FuncOp> getTritonKernels(ModuleOp module);

// The type a kernel argument of `type` arrives as: i1/i8/i16 as i32, f16/bf16 as f32, the
// rest unchanged (pointers become !llvm.ptr through the type converter).
Type getKernelAbiType(Type type);

// The C type of a kernel argument: void*, int32_t, int64_t, float or double; empty when the
// type cannot be a kernel argument (tensors, block pointers, descriptors).
std::string getKernelCType(Type type);

// Writes a C header declaring NAME and tcpu_launch_NAME for every kernel of `module`;
// fails with a diagnostic on an argument type the ABI does not pass.
LogicalResult writeKernelHeader(ModuleOp module, StringRef guard, llvm::raw_ostream& os);

}  // namespace mlir::tt

#endif  // TT_KERNELABI_H_
