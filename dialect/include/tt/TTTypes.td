// Types of the tt dialect and the type constraints its ops use.

#ifndef TT_TYPES_TD
#define TT_TYPES_TD

include "tt/TTDialect.td"
include "mlir/IR/BuiltinTypes.td"

// `!tt.ptr<f32>`, `!tt.ptr<f32, 1>`, `!tt.ptr<tensor<64x64xf16>>` (a block pointer).
def TT_PointerType : TypeDef<TT_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "A pointer to global memory holding scalars of the pointee type (or a block)";
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
}

// `!tt.tensordesc<tensor<64x64xf16>>` (Triton 3.2-3.4) or `!tt.tensordesc<64x64xf16>`
// (later): a descriptor of a 2-D (or n-D) block of a strided tensor in global memory.
def TT_TensorDescType : TypeDef<TT_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "A tensor descriptor: the block shape it loads and stores";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let hasCustomAssemblyFormat = 1;
}

// Element types Triton tensors hold.
def TT_Float : AnyTypeOf<[F8E4M3FNUZ, F8E4M3FN, F8E4M3B11FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16,
                          F32, F64],
                         "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

// A pointer to scalars, and a pointer to a tensor (a block pointer). Both are
// tt::PointerType, so the ops that name one print it without the `!tt.ptr` prefix, as
// Triton does (`: <tensor<128x64xf16>>`).
def TT_Ptr : DialectType<TT_Dialect,
    CPred<"::llvm::isa<::mlir::tt::PointerType>($_self) && "
          "!::llvm::isa<::mlir::RankedTensorType>("
          "::llvm::cast<::mlir::tt::PointerType>($_self).getPointeeType())">,
    "ptr", "::mlir::tt::PointerType">;
def TT_TensorPtr : DialectType<TT_Dialect,
    CPred<"::llvm::isa<::mlir::tt::PointerType>($_self) && "
          "::llvm::isa<::mlir::RankedTensorType>("
          "::llvm::cast<::mlir::tt::PointerType>($_self).getPointeeType())">,
    "block pointer", "::mlir::tt::PointerType">;

def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_FpIntTensor : AnyTypeOf<[TT_FloatTensor, TT_IntTensor]>;
def TT_Tensor : AnyTypeOf<[TT_FpIntTensor, TT_PtrTensor]>;

def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

#endif  // TT_TYPES_TD
