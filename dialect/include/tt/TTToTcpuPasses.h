// The Triton pipeline's passes (TTToTcpuPasses.td) and the whole TTIR -> LLVM pipeline.
#ifndef TT_TTTOTCPUPASSES_H_
#define TT_TTTOTCPUPASSES_H_

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "tcpu/TcpuDialect.h"

namespace mlir::tt {

#define GEN_PASS_DECL
#include "tt/TTToTcpuPasses.h.inc"

// The unit attribute the kernel's function carries from tt-to-tcpu-funcs to the launchers.
inline constexpr llvm::StringLiteral kTritonKernelAttrName =
    tcpu::TcpuDialect::kTritonKernelAttrName;

// The kernel arguments every launch must pass as 1 (array<i64>, indices after expansion):
// the innermost strides of tensor descriptor arguments, as Triton's host TensorDescriptor
// requires. tt-lower-block-pointers sets it on the tt.func; tt-to-tcpu-funcs carries it into
// the kernel's tcpu.triton_kernel dictionary (kUnitStrideArgsKey) for the launchers.
inline constexpr llvm::StringLiteral kUnitStrideArgsAttrName = "tt.unit_stride_args";
inline constexpr llvm::StringLiteral kUnitStrideArgsKey = "unit_stride_args";

// The unit attribute a pass puts on a module whose ops it emitted in the order they should run:
// tcpu-slice-rows' slices, each chain before the next, and tcpu-zip-lane-loads' operands,
// loaded just before their SMMLAs. The machine scheduler would interleave the chains again, or
// hoist every load above the SMMLAs and spill (tcpu-compile turns it off). (A tt attribute:
// the tcpu dialect verifies its own; tcpu-compile removes it.)
inline constexpr llvm::StringLiteral kKeepOpOrderAttrName = "tt.keep_op_order";

// True if the module holds tt operations (TTIR): tcpu-compile then runs the TTIR pipeline.
bool isTritonModule(ModuleOp module);

// Stages 1-23 (TTIR -> tcpu and upstream dialects on vectors; TTToTcpuPasses.td lists them).
void buildTritonToTcpuPipeline(OpPassManager& pm);

// TTIR -> LLVM dialect: stages 1-23, the tcpu-to-llvm pipeline (24-28), then the launchers (29:
// for a variant of the kernels, or with a table of variants; see tcpu-emit-triton-launchers).
void buildTritonToLlvmPipeline(OpPassManager& pm,
                               const TcpuEmitTritonLaunchersOptions& launchers = {});

// Registers the passes and the triton-to-llvm pipeline with the tools.
void registerTritonPipelines();

#define GEN_PASS_REGISTRATION
#include "tt/TTToTcpuPasses.h.inc"

}  // namespace mlir::tt

#endif  // TT_TTTOTCPUPASSES_H_
