// The tcpu dialect: TritonCPU's Arm64 builtins (FlagTree's TLE ops) as MLIR operations.

#ifndef TCPU_DIALECT_TD
#define TCPU_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tcpu_Dialect : Dialect {
  let name = "tcpu";
  let cppNamespace = "::mlir::tcpu";
  let summary = "Arm64 LLM kernels (TLE builtins) for the TritonCPU backend";
  let description = [{
    Memref-level operations call the tcpu runtime's C ABI (runtime/include/tcpu/); vector
    operations lower to MLIR's arm_neon and arm_sve intrinsics. A module carries a
    `#tcpu.target` attribute under `tcpu.target`; an operation may carry `tcpu.hints`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // Corrections of upstream vector canonicalizations (VectorCanonicalizations.cpp).
  let hasCanonicalizer = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"];
  let extraClassDeclaration = [{
    // Defined next to the attribute storage classes (TcpuAttrs.cpp).
    void registerAttributes();
    // Attribute names the dialect owns on other operations.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tcpu.target";
    static constexpr ::llvm::StringLiteral kHintsAttrName = "tcpu.hints";
    // Marks the function a Triton kernel became (tt-to-tcpu-funcs), for the launchers.
    static constexpr ::llvm::StringLiteral kTritonKernelAttrName = "tcpu.triton_kernel";
  }];
}

class Tcpu_Op<string mnemonic, list<Trait> traits = []> : Op<Tcpu_Dialect, mnemonic, traits>;

#endif  // TCPU_DIALECT_TD
