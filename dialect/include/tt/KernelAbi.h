// The Triton kernel ABI (runtime/include/tcpu/triton.h) in one place: which tt.funcs are
// kernels, how each argument is passed from C, the C header declaring them and the replay
// entries that launch them from a list of values (tcpu/triton_replay.h).
#ifndef TT_KERNELABI_H_
#define TT_KERNELABI_H_

#include <optional>
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

// Appends `suffix` to the name of every function the module defines (its kernels and their
// helpers; declarations keep the external names they refer to), so that kernels of the same
// name from several modules link into one program: NAME becomes NAME<suffix>, and so do
// tcpu_launch_NAME, tcpu_variant_NAME and NAME__<variant>. `suffix` is letters, digits and '_'.
LogicalResult addKernelSuffix(ModuleOp module, StringRef suffix);

// One TTIR kernel argument as the ABI passes it (tcpu/triton.h) and a replay describes it
// (tcpu_replay_param in tcpu/triton_replay.h).
struct KernelArgument {
  // The values of tcpu_replay_kind.
  enum class Kind { kPointer = 1, kInt = 2, kFloat = 3, kDescriptor = 4 };
  Kind kind;
  // A scalar's own type ("i32", "bf16"); the element type a pointer or descriptor addresses.
  std::string element;
  // A descriptor's rank; 0 otherwise.
  int64_t rank = 0;
  // The C parameters it takes: one, or 1 + 2 * rank for a descriptor (base, sizes, strides).
  SmallVector<std::string> c_types;
};

// How an argument of `type` is passed; nullopt for a type the ABI does not pass (a tensor, a
// block pointer, an integer wider than 64 bits, an fp8 scalar, ...).
std::optional<KernelArgument> getKernelArgument(Type type);

// Writes a C source defining tcpu_replay_NAME and tcpu_replay_kernel_NAME (tcpu/triton_replay.h)
// for every kernel of `module`, from its TTIR signature (before descriptors are expanded); fails
// with a diagnostic on an argument type the ABI does not pass.
LogicalResult writeReplayEntries(ModuleOp module, llvm::raw_ostream& os);

}  // namespace mlir::tt

#endif  // TT_KERNELABI_H_
