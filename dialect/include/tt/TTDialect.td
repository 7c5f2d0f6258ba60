// The `tt` dialect: Triton's IR (TTIR) as Triton 3.0-3.7 prints it, written from Triton's
// documented semantics and printed syntax. The SDK parses and verifies it, then lowers it
// through the tcpu dialect to aarch64 code (the stages of lib/TTToTcpuPipeline.cpp).

#ifndef TT_DIALECT_TD
#define TT_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::tt";
  let summary = "Triton IR (TTIR): tensors of values and of pointers, programs on a grid";
  let description = [{
    A Triton kernel is a `tt.func` run once per program id of a 3-D grid. Values are scalars
    or statically shaped tensors (`tensor<64x32xf16>`); memory is reached through
    `!tt.ptr<T>` and tensors of them, block pointers (`!tt.ptr<tensor<...>>`) or tensor
    descriptors (`!tt.tensordesc<...>`).
  }];
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::LLVM::LLVMDialect",
  ];
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

class TT_Op<string mnemonic, list<Trait> traits = []> : Op<TT_Dialect, mnemonic, traits>;

#endif  // TT_DIALECT_TD
