// Operations of TTIR. Assembly formats follow what Triton prints; C++ verifiers (TTOps.cpp)
// check shapes and element types and name the operand that is wrong.

#ifndef TT_OPS_TD
#define TT_OPS_TD

include "tt/TTDialect.td"
include "tt/TTTypes.td"
include "tt/TTEnums.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TT_GlobalMemory : Resource<"::mlir::tt::GlobalMemory">;

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [AffineScope, AutomaticAllocationScope, CallableOpInterface,
                               FunctionOpInterface, IsolatedFromAbove, OpAsmOpInterface,
                               HasParent<"::mlir::ModuleOp">]> {
  let summary = "A Triton function: the kernel (public) or a helper reached by tt.call";
  let description = [{
    `tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32)
    attributes {noinline = false} { ... }`. Argument attributes Triton sets
    (`tt.divisibility`, `tt.pointer_range`, `tt.nv_tma_desc`, ...) are kept as written.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return isExternal() ? nullptr : &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    bool isDeclaration() { return isExternal(); }
  }];
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "Returns from a tt.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, std::nullopt); }]>];
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
                               DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a tt.func of the same module";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "This program's id along grid axis x, y or z";
  let arguments = (ins TT_ProgramDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "The grid's size along axis x, y or z";
  let arguments = (ins TT_ProgramDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tensor creation and shapes
//===----------------------------------------------------------------------===//

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "The 1-D i32 tensor start, start+1, ..., end-1";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "A tensor with every element equal to a scalar";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Repeats size-1 dimensions of a tensor to a larger size";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Inserts a size-1 dimension at `axis`";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "The same elements in row-major order under another shape";
  let description = [{
    `allow_reorder` lets the compiler permute elements (Triton 3.0 printed it as
    `{allow_reorder = false}`, later versions as a keyword); this SDK always keeps the
    row-major order, which every permutation allows.
  }];
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder, UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permutes the dimensions of a tensor (tl.trans, tl.permute)";
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_CatOp : TT_Op<"cat", [NoMemoryEffect, SameTypeOperands,
                             SameOperandsAndResultElementType]> {
  let summary = "Concatenates two tensors along dimension 0";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [NoMemoryEffect, SameTypeOperands]> {
  let summary = "Stacks two tensors along a new minor dimension of size 2";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [NoMemoryEffect,
    TypesMatchWith<"outLHS and outRHS types match", "outLHS", "outRHS", "$_self">]> {
  let summary = "Splits a tensor whose last dimension is 2 into its two halves";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and casts
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, Elementwise, SameOperandsAndResultShape,
    TypesMatchWith<"result type matches ptr type", "result", "ptr", "$_self">]> {
  let summary = "ptr + offset elements (i32 or i64 offsets, scalar or tensor)";
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
}

def TT_AdvanceOp : TT_Op<"advance", [Pure,
    TypesMatchWith<"result type matches ptr type", "result", "ptr", "$_self">]> {
  let summary = "Moves a block pointer by a number of elements in each dimension";
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_IntToPtrOp : TT_Op<"int_to_ptr", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "i64 address to pointer";
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_PtrToIntOp : TT_Op<"ptr_to_int", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "Pointer to i64 address";
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TT_BitcastOp : TT_Op<"bitcast", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "Reinterprets bits between types of one width (pointers included)";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Elementwise, SameOperandsAndResultShape, Pure]> {
  let summary = "Float conversion with an explicit rounding mode (fp8, bf16, f16, f32, f64)";
  let arguments = (ins TT_FloatLike:$src, OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat =
      "$src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise math
//===----------------------------------------------------------------------===//

def TT_ClampFOp : TT_Op<"clampf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "min(max(x, lo), hi); propagateNan = all returns NaN for a NaN input";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat =
      "$x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)";
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "Correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "Correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Elementwise, SameOperandsAndResultType, Pure]> {
  let summary = "High half of the unsigned 2N-bit product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [Elementwise,
    SameVariadicOperandSize, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>]> {
  let summary = "A library math function applied elementwise (libdevice names)";
  let description = [{
    `%y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true,
    symbol = "__nv_expf"} : (tensor<128xf32>) -> tensor<128xf32>`. The lowering maps known
    libdevice-style names (`__nv_expf`, `__nv_tanhf`, `__nv_rsqrtf`, ...) to vector math.
    With `pure = true` it has no memory effects and is speculatable (as in Triton): it can be
    moved, copied and split like any elementwise op; otherwise it may read and write any
    memory.
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname, StrAttr:$libpath,
                       StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
}

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TypesMatchWith<"mask has the source's shape", "src", "mask",
                   "::mlir::tt::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">]> {
  let summary = "Counts of the values 0 .. bins-1 in a 1-D integer tensor";
  let arguments = (ins TT_IntTensor:$src, Optional<TT_BoolTensor>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TT_GlobalMemory>]>,
    TypesMatchWith<"result matches ptr type", "ptr", "result", "::mlir::tt::getPointeeType($_self)">,
    TypesMatchWith<"mask type matches ptr type", "ptr", "mask",
                   "::mlir::tt::getI1SameShape(::mlir::tt::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">,
    TypesMatchWith<"other matches ptr type", "ptr", "other", "::mlir::tt::getPointeeType($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Loads through a pointer, a tensor of pointers or a block pointer";
  let description = [{
    Lanes whose `mask` is false are not read and take `other` (undefined without it).
    Cache and eviction hints and `isVolatile` are accepted and have no effect on a CPU.
  }];
  let arguments = (ins AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr,
                       Optional<TT_BoolLike>:$mask, Optional<TT_Type>:$other,
                       DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
                       OptionalAttr<TT_PaddingOptionAttr>:$padding,
                       DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict,
                       DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TT_StoreOp : TT_Op<"store", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>,
    TypesMatchWith<"value type matches ptr type", "ptr", "value",
                   "::mlir::tt::getPointeeType($_self)">,
    TypesMatchWith<"mask type matches ptr type", "ptr", "mask",
                   "::mlir::tt::getI1SameShape(::mlir::tt::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Stores through a pointer, a tensor of pointers or a block pointer";
  let arguments = (ins AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>:$ptr, TT_Type:$value,
                       Optional<TT_BoolLike>:$mask,
                       DefaultValuedAttr<DenseI32ArrayAttr, "::llvm::ArrayRef<int32_t>{}">:$boundaryCheck,
                       DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [SameOperandsAndResultShape,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>,
    TypesMatchWith<"ptr type matches value type", "val", "ptr",
                   "::mlir::tt::getPointerTypeSameShape($_self)">,
    TypesMatchWith<"mask type matches value type", "val", "mask",
                   "::mlir::tt::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Atomically applies an operation at ptr and returns the old value";
  let arguments = (ins TT_RMWOpAttr:$atomic_rmw_op, TT_PtrLike:$ptr, TT_Type:$val,
                       Optional<TT_BoolLike>:$mask, TT_MemSemanticAttr:$sem,
                       TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [SameOperandsAndResultShape,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Atomic compare-and-swap at ptr; returns the old value";
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val, TT_MemSemanticAttr:$sem,
                       TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base points at the block's elements", "result", "base",
                   "::mlir::tt::getBlockBaseType($_self)">]> {
  let summary = "A block pointer: base, shape, strides, block offsets and order";
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "A tensor descriptor over a strided tensor in global memory";
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
                       OptionalAttr<TT_PaddingOptionAttr>:$padding);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "Loads the block at the given element indices (out-of-bounds elements are 0)";
  let arguments = (ins TT_TensorDescType:$desc, Variadic<I32>:$indices,
                       DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Stores a block at the given element indices (out-of-bounds elements dropped)";
  let arguments = (ins TT_TensorDescType:$desc, TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans, dot
//===----------------------------------------------------------------------===//

def TT_ReduceOp : TT_Op<"reduce", [Pure, SameOperandsShape, SingleBlock]> {
  let summary = "Reduces tensors along `axis` with the combine region";
  let description = [{
    Printed in generic form by Triton: `"tt.reduce"(%x) <{axis = 0 : i32}> ({ ^bb0(%a: f32,
    %b: f32): ... tt.reduce.return %r : f32 }) : (tensor<128xf32>) -> f32`. Several operands
    reduce together (argmax: values and indices); the region takes 2 x N scalars.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [HasParent<"ReduceOp">, Pure, Terminator,
                                                ReturnLike]> {
  let summary = "Terminator of tt.reduce's combine region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SameOperandsAndResultShape, SingleBlock]> {
  let summary = "Inclusive scan along `axis` with the combine region (reverse: from the end)";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [HasParent<"ScanOp">, Pure, Terminator,
                                            ReturnLike]> {
  let summary = "Terminator of tt.scan's combine region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_DotOp : TT_Op<"dot", [Pure,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "d = a x b + c (f16/bf16/f32 -> f32, i8 -> i32)";
  let description = [{
    `inputPrecision` (tf32, tf32x3, ieee, bf16x3, bf16x6) chooses GPU tensor-core tricks for
    f32 inputs; on a CPU every f32 dot is computed in IEEE f32. `maxNumImpreciseAcc` is
    accepted and ignored (f32 accumulation is exact to IEEE on a CPU).
  }];
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b, TT_FpIntTensor:$c,
                       DefaultValuedAttr<TT_InputPrecisionAttr, "::mlir::tt::InputPrecision::IEEE">:$inputPrecision,
                       DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Prints a prefix and values (tl.device_print)";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TT_Type>:$args,
                       OptionalAttr<DenseI32ArrayAttr>:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Aborts the program with a message when any element of the condition is false";
  let description = [{
    Triton 3.0 and 3.1 also print the source file, function and line:
    `tt.assert %c, "msg", "k.py", "kernel", 12 : tensor<128xi1>`.
  }];
  let arguments = (ins TT_BoolLike:$condition, StrAttr:$message, OptionalAttr<StrAttr>:$file,
                       OptionalAttr<StrAttr>:$func, OptionalAttr<I32Attr>:$line);
  let assemblyFormat = [{
    $condition `,` $message (`,` $file^ `,` $func `,` $line)? attr-dict `:` type($condition)
  }];
}

//===----------------------------------------------------------------------===//
// Constructs of Triton 3.0-3.7's TTIR beyond the core set: they parse and verify here so
// that a dump is read whole; which of them lower, and why the others are refused, is
// listed in dialect/README.md (the refusals name the op and its location).
//===----------------------------------------------------------------------===//

def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    TypesMatchWith<"result is the tensor's element type", "src", "result",
                   "::llvm::cast<::mlir::ShapedType>($_self).getElementType()">]> {
  let summary = "The single element of a one-element tensor (Triton >= 3.5)";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "result[i] = src[i with indices[i] along axis] (tl.gather, Triton >= 3.3)";
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [Elementwise]> {
  let summary = "GPU inline assembly applied to packed groups of elements";
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element, Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = "$asm_string attr-dict ($args^ `:` type($args))? `->` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [SameOperandsAndResultShape,
                                                    RecursiveMemoryEffects]> {
  let summary = "Applies a scalar region to `pack` elements at a time (Triton >= 3.5)";
  let description = [{
    Printed in generic form: `"tt.map_elementwise"(%x) <{pack = 1 : i32}> ({ ^bb0(%a: f32):
    ... tt.map_elementwise.return %r : f32 }) : (tensor<64xf32>) -> tensor<64xf32>`.
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region AnyRegion:$scalarOp);
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [
    HasParent<"MapElementwiseOp">, Pure, Terminator, ReturnLike]> {
  let summary = "Terminator of tt.map_elementwise's region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "d = scale(a, a_scale) x scale(b, b_scale) + c (microscaling formats)";
  let description = [{
    Triton 3.2 prints a scale for a only; 3.3 and later make both optional and add
    `fastMath` (and later `lhs_k_pack` / `rhs_k_pack`), kept in the attribute dictionary.
  }];
  let arguments = (ins RankedTensorOf<[TT_Float, I8]>:$a, RankedTensorOf<[TT_Float, I8]>:$b,
                       TT_FloatTensor:$c,
                       Optional<RankedTensorOf<[TT_Float, I8]>>:$a_scale,
                       Optional<RankedTensorOf<[TT_Float, I8]>>:$b_scale,
                       TT_ScaleDotElemTypeAttr:$a_elem_type, TT_ScaleDotElemTypeAttr:$b_elem_type,
                       OptionalAttr<BoolAttr>:$fastMath);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)
  }];
}

def TT_ReinterpretTensorDescOp : TT_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "A raw (GPU TMA) descriptor pointer read as a tensor descriptor";
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "Rows x_offsets of a descriptor's tensor, from column y_offset";
  let arguments = (ins TT_TensorDescType:$desc, RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Stores the rows of src at rows x_offsets of a descriptor's tensor";
  let arguments = (ins TT_TensorDescType:$desc, RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
                       TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Combines a block into memory at the given indices (TMA reduction)";
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDescType:$desc,
                       TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
}

def TT_ExperimentalDescriptorLoadOp : TT_Op<"experimental_descriptor_load", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "Triton 3.0-3.2's TMA load through a raw descriptor pointer (or descriptor)";
  let arguments = (ins AnyTypeOf<[TT_Ptr, TT_TensorDescType]>:$desc, Variadic<I32>:$indices,
                       DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
}

def TT_ExperimentalDescriptorStoreOp : TT_Op<"experimental_descriptor_store", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Triton 3.0-3.2's TMA store through a raw descriptor pointer (or descriptor)";
  let arguments = (ins AnyTypeOf<[TT_Ptr, TT_TensorDescType]>:$desc, TT_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
}

def TT_ExperimentalTensormapCreateOp : TT_Op<"experimental_tensormap_create", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>,
    AttrSizedOperandSegments]> {
  let summary = "Writes an NVIDIA TMA descriptor (tensormap) on the device";
  let arguments = (ins TT_Ptr:$desc_ptr, TT_Ptr:$global_address, Variadic<I32>:$box_dim,
                       Variadic<I32>:$global_dim, Variadic<I64>:$global_stride,
                       Variadic<I32>:$element_stride, I32Attr:$elem_type,
                       I32Attr:$interleave_layout, I32Attr:$swizzle_mode, I32Attr:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,`
    `[` $global_stride `]` `,` `[` $element_stride `]` attr-dict `:`
    functional-type(operands, results)
  }];
}

def TT_ExperimentalTensormapFenceproxyAcquireOp : TT_Op<
    "experimental_tensormap_fenceproxy_acquire", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "An NVIDIA proxy fence on a tensormap";
  let arguments = (ins TT_Ptr:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

#endif  // TT_OPS_TD
