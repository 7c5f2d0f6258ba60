// #tcpu.target: the hardware a module is compiled for (FlagTree's unified hardware
// abstraction). Passes read it to choose lowerings; tcpu-compile turns it into -mattr.

#ifndef TCPU_ATTRS_TD
#define TCPU_ATTRS_TD

include "tcpu/TcpuDialect.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Tcpu_TargetAttr : AttrDef<Tcpu_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "Target architecture, features and SVE vector length";
  let description = [{
    `#tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm", "bf16"], vector_bits = 0>`.
    `vector_bits = 0` means vector-length agnostic (scalable SVE code); 128 … 2048 (a
    multiple of 128) fixes the SVE vector length. Features: "neon", "dotprod", "i8mm",
    "bf16", "sve", "sve2", "fp16" (FEAT_FP16: f16 arithmetic, LLVM's +fullfp16) and
    "fp16fml" (FEAT_FHM: FMLAL/FMLAL2, f16 products into f32).
  }];
  let parameters = (ins "StringAttr":$arch, "ArrayAttr":$features, "int64_t":$vector_bits);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // True if `feature` is listed or implied (sve2 implies sve, fp16fml fp16; everything
    // implies neon).
    bool hasFeature(::llvm::StringRef feature) const;
    // The LLVM -mattr string for the AArch64 backend, e.g. "+neon,+i8mm,+sve,+sve2,+lse"
    // (+lse for every arch after armv8-a).
    std::string getLlvmFeatureString() const;
  }];
}

#endif  // TCPU_ATTRS_TD
