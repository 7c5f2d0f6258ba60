// Passes of the tcpu dialect and the --tcpu-to-llvm pipeline.
#ifndef TCPU_TCPUPASSES_H_
#define TCPU_TCPUPASSES_H_

#include <memory>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tcpu {

#define GEN_PASS_DECL
#include "tcpu/TcpuPasses.h.inc"

// Everything from tcpu + memref/vector/scf/arith/func down to the LLVM dialect.
void buildTcpuToLlvmPipeline(OpPassManager& pm);

// Registers tcpu and every upstream dialect the tools read (tcpu-opt, tcpu-compile): the
// inputs of the tcpu-to-llvm pipeline and what it produces.
void registerTcpuToolDialects(DialectRegistry& registry);

// Registers the tcpu-to-llvm pipeline (registerTcpuPasses(), generated, registers the passes).
void registerTcpuPipelines();

#define GEN_PASS_REGISTRATION
#include "tcpu/TcpuPasses.h.inc"

}  // namespace mlir::tcpu

#endif  // TCPU_TCPUPASSES_H_
