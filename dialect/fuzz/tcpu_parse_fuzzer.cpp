// libFuzzer target: any bytes, parsed as an MLIR module with the tcpu dialect (and the
// upstream dialects its tests use), verified, printed, and put through the tcpu lowerings.
// Bad input must end in a diagnostic, never a crash, a hang, an out-of-bounds access or
// undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "tcpu/TcpuDialect.h"
#include "tcpu/TcpuPasses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tcpu::TcpuDialect, mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::vector::VectorDialect>();
  // A fresh single-threaded context per input: nothing uniqued by one input affects the next.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics are the expected outcome for most inputs; swallow them.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  std::string text(reinterpret_cast<const char*>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module) return 0;
  if (mlir::failed(mlir::verify(*module))) return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  // The lowerings must cope with anything the verifier accepts (they may fail, with a
  // diagnostic, e.g. on a target without the needed feature).
  mlir::PassManager pm(&context);
  pm.addPass(mlir::tcpu::createTcpuLowerToRuntime());
  pm.addPass(mlir::tcpu::createTcpuLowerVectorOps());
  (void)pm.run(*module);
  return 0;
}
