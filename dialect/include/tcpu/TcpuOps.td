// tcpu operations. Memref-level ops mirror the C ABI of runtime/include/tcpu/ one to one:
// the same operands in the same order, with sizes taken from the memref shapes, and the
// runtime's int status as the result (0 on success, a negative tcpu_status otherwise).
// Types: bf16 is bf16, int8 weights i8, scales f32, packed weights an opaque byte memref.
// Shape and type rules live in the C++ verifiers, which name the offending operand.

#ifndef TCPU_OPS_TD
#define TCPU_OPS_TD

include "tcpu/TcpuDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

//===----------------------------------------------------------------------===//
// Memref-level ops (runtime calls)
//===----------------------------------------------------------------------===//

class Tcpu_RuntimeOp<string mnemonic, list<Trait> traits = []>
    : Tcpu_Op<mnemonic, traits # [MemoryEffects<[MemRead, MemWrite]>]> {
  let results = (outs I32:$status);
  let hasVerifier = 1;
}

def Tcpu_PackWeightsOp : Tcpu_RuntimeOp<"pack_weights"> {
  let summary = "Packs row-major int8 weights [n, k] (tcpu_pack_weights_i8)";
  let arguments = (ins AnyMemRef:$w, AnyMemRef:$packed);
  let assemblyFormat = [{
    $w `,` $packed attr-dict `:` type($w) `,` type($packed)
  }];
}

def Tcpu_GemvI8Op : Tcpu_RuntimeOp<"gemv_i8"> {
  let summary = "y[n] = packed_w[n, k] . x[k] in int32 (tcpu_gemv_i8)";
  let arguments = (ins AnyMemRef:$packed_w, AnyMemRef:$x, AnyMemRef:$y);
  let assemblyFormat = [{
    $packed_w `,` $x `,` $y attr-dict `:` type($packed_w) `,` type($x) `,` type($y)
  }];
}

def Tcpu_GemvBf16W8Op : Tcpu_RuntimeOp<"gemv_bf16_w8"> {
  let summary = "W8A8 GEMV on bf16 activations (tcpu_gemv_bf16_w8)";
  let arguments = (ins AnyMemRef:$packed_w, AnyMemRef:$w_scales, AnyMemRef:$x, AnyMemRef:$y);
  let assemblyFormat = [{
    $packed_w `,` $w_scales `,` $x `,` $y attr-dict `:` type($packed_w) `,` type($w_scales)
    `,` type($x) `,` type($y)
  }];
}

def Tcpu_GemmI8Op : Tcpu_RuntimeOp<"gemm_i8"> {
  let summary = "y[m, n] = x[m, k] . packed_w[n, k]^T in int32 (tcpu_gemm_i8)";
  let arguments = (ins AnyMemRef:$packed_w, AnyMemRef:$x, AnyMemRef:$y);
  let assemblyFormat = [{
    $packed_w `,` $x `,` $y attr-dict `:` type($packed_w) `,` type($x) `,` type($y)
  }];
}

def Tcpu_RmsNormOp : Tcpu_RuntimeOp<"rms_norm"> {
  let summary = "RMSNorm of a bf16 vector (tcpu_rms_norm_bf16)";
  let arguments = (ins AnyMemRef:$x, AnyMemRef:$w, AnyMemRef:$out, F32Attr:$eps);
  let assemblyFormat = [{
    $x `,` $w `,` $out `eps` `=` $eps attr-dict `:` type($x) `,` type($w) `,` type($out)
  }];
}

def Tcpu_SwigluOp : Tcpu_RuntimeOp<"swiglu"> {
  let summary = "out = silu(gate) * up on bf16 vectors (tcpu_swiglu_bf16)";
  let arguments = (ins AnyMemRef:$gate, AnyMemRef:$up, AnyMemRef:$out);
  let assemblyFormat = [{
    $gate `,` $up `,` $out attr-dict `:` type($gate) `,` type($up) `,` type($out)
  }];
}

def Tcpu_FlashAttnDecodeOp : Tcpu_RuntimeOp<"flash_attn_decode"> {
  let summary = "Decode attention over a strided bf16 KV cache (tcpu_flash_attn_decode_bf16)";
  let description = [{
    q: [num_heads, head_dim]; k_cache, v_cache: [num_kv_heads, capacity, head_dim] with any
    head and position strides (the memref layout) and unit innermost stride; out like q.
    Attends over the first `seq_len` positions.
  }];
  let arguments = (ins AnyMemRef:$q, AnyMemRef:$k_cache, AnyMemRef:$v_cache, AnyMemRef:$out,
                   Index:$seq_len, F32Attr:$sm_scale);
  let assemblyFormat = [{
    $q `,` $k_cache `,` $v_cache `,` $out `,` $seq_len `sm_scale` `=` $sm_scale attr-dict `:`
    type($q) `,` type($k_cache) `,` type($v_cache) `,` type($out)
  }];
}

def Tcpu_FusedMlpOp : Tcpu_RuntimeOp<"fused_mlp"> {
  let summary = "y = down(swiglu(gate(x), up(x))) with W8A8 projections (fused MLP)";
  let description = [{
    x, y: [hidden] bf16; gate and up: packed [intermediate, hidden] int8 with f32 scales
    [intermediate]; down: packed [hidden, intermediate] with scales [hidden]
    (tcpu_fused_mlp_bf16, tcpu/fused_mlp.h).
  }];
  let arguments = (ins AnyMemRef:$packed_gate, AnyMemRef:$gate_scales, AnyMemRef:$packed_up,
                   AnyMemRef:$up_scales, AnyMemRef:$packed_down, AnyMemRef:$down_scales,
                   AnyMemRef:$x, AnyMemRef:$y);
  let assemblyFormat = [{
    $packed_gate `,` $gate_scales `,` $packed_up `,` $up_scales `,` $packed_down `,`
    $down_scales `,` $x `,` $y attr-dict `:` type($packed_gate) `,` type($gate_scales) `,`
    type($packed_up) `,` type($up_scales) `,` type($packed_down) `,` type($down_scales) `,`
    type($x) `,` type($y)
  }];
}

def Tcpu_TransformerLayerOp : Tcpu_RuntimeOp<"transformer_layer"> {
  let summary = "One decoder layer for one token, in place on the hidden state";
  let description = [{
    `shape` and `weights` point at the runtime's layer-shape and layer-weights structs; the
    KV caches are flat bf16 buffers of `cache_capacity` positions; `workspace` is caller
    memory (tcpu_transformer_layer_bf16, tcpu/transformer.h).
  }];
  let arguments = (ins LLVM_AnyPointer:$shape, LLVM_AnyPointer:$weights, AnyMemRef:$k_cache,
                   AnyMemRef:$v_cache, Index:$cache_capacity, Index:$position,
                   AnyMemRef:$hidden_state, AnyMemRef:$workspace);
  let assemblyFormat = [{
    $shape `,` $weights `,` $k_cache `,` $v_cache `,` $cache_capacity `,` $position `,`
    $hidden_state `,` $workspace attr-dict `:` type($shape) `,` type($weights) `,`
    type($k_cache) `,` type($v_cache) `,`
    type($hidden_state) `,` type($workspace)
  }];
}

def Tcpu_DecodeStepOp : Tcpu_RuntimeOp<"decode_step"> {
  let summary = "One token through a whole model: logits and the greedy next token";
  let description = [{
    `model` points at the runtime's model-weights struct (tcpu_decode_step,
    tcpu/transformer.h).
  }];
  let arguments = (ins LLVM_AnyPointer:$model, AnyMemRef:$k_cache, AnyMemRef:$v_cache,
                   Index:$cache_capacity, Index:$position, I32:$token, AnyMemRef:$logits,
                   AnyMemRef:$next_token, AnyMemRef:$workspace);
  let assemblyFormat = [{
    $model `,` $k_cache `,` $v_cache `,` $cache_capacity `,` $position `,` $token `,`
    $logits `,` $next_token `,` $workspace attr-dict `:` type($model) `,` type($k_cache) `,`
    type($v_cache)
    `,` type($logits) `,` type($next_token) `,` type($workspace)
  }];
}

//===----------------------------------------------------------------------===//
// Vector-level ops (Arm intrinsics)
//===----------------------------------------------------------------------===//

class Tcpu_Int8MatOp<string mnemonic, string what>
    : Tcpu_Op<mnemonic, [Pure, AllTypesMatch<["acc", "res"]>, AllTypesMatch<["a", "b"]>]> {
  let summary = what;
  let arguments = (ins AnyVector:$acc, AnyVector:$a,
                   AnyVector:$b);
  let results = (outs AnyVector:$res);
  let assemblyFormat = "$acc `,` $a `,` $b attr-dict `:` type($a) `into` type($acc)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isScalable() { return ::llvm::cast<::mlir::VectorType>(getAcc().getType()).isScalable(); }
  }];
}

def Tcpu_SdotOp : Tcpu_Int8MatOp<"sdot",
    "acc[i] += sum_{j<4} a[4i+j] * b[4i+j] (SDOT), on vector<16xi8> or vector<[16]xi8>"> {
  let description = [{
    `vector<4xi32>` accumulators with `vector<16xi8>` operands (NEON SDOT, needs dotprod), or
    `vector<[4]xi32>` with `vector<[16]xi8>` (SVE SDOT, vector-length agnostic).
  }];
}

def Tcpu_SmmlaOp : Tcpu_Int8MatOp<"smmla",
    "acc(2x2) += a(2x8) . b(2x8)^T per 128-bit segment (SMMLA)"> {
  let description = [{
    Same operand shapes as tcpu.sdot; needs i8mm (and SVE for the scalable form).
  }];
}

def Tcpu_BfmmlaOp : Tcpu_Op<"bfmmla",
    [Pure, AllTypesMatch<["acc", "res"]>, AllTypesMatch<["a", "b"]>]> {
  let summary = "acc(2x2) += a(2x4) . b(2x4)^T in f32 from bf16 (BFMMLA)";
  let description = [{
    `vector<4xf32>` accumulator (rows 0 and 1 of a 2x2 block, row-major) with `vector<8xbf16>`
    operands, each two rows of 4 k (NEON BFMMLA, needs bf16). Arm ARM (FPCR.EBF 0): each
    element accumulates two unfused 2-way dot products, the products (exact for bf16 unless
    out of range) and the pair's sum rounded before the sum is added; every rounding is
    round-to-odd, denormal inputs and results are flushed to zero, NaNs are the default NaN.
    So a k-long sum differs from f32 FMAs by a few f32 ulps of the terms' magnitude.
  }];
  let arguments = (ins AnyVector:$acc, AnyVector:$a, AnyVector:$b);
  let results = (outs AnyVector:$res);
  let assemblyFormat = "$acc `,` $a `,` $b attr-dict `:` type($a) `into` type($acc)";
  let hasVerifier = 1;
}

def Tcpu_FmlalOp : Tcpu_Op<"fmlal",
    [Pure, AllTypesMatch<["acc", "res"]>, AllTypesMatch<["a", "b"]>]> {
  let summary = "acc[i] += a[i] * b[i] in f32 from f16 lanes 0-3, or 4-7 with `high` "
                "(FMLAL / FMLAL2)";
  let description = [{
    `vector<4xf32>` accumulator with `vector<8xf16>` operands (NEON FMLAL and FMLAL2, needs
    fp16fml). The product of two f16 values is exact in f32 and the addition fused, so each lane
    rounds once, as an f32 FMA of the widened operands would. A splat `b` becomes the by-element
    form (`FMLAL v.4s, v.4h, v.h[i]`): one instruction per 4 multiply-adds of an outer product.
  }];
  let arguments = (ins AnyVector:$acc, AnyVector:$a, AnyVector:$b, UnitAttr:$high);
  let results = (outs AnyVector:$res);
  let assemblyFormat =
      "(`high` $high^)? $acc `,` $a `,` $b attr-dict `:` type($a) `into` type($acc)";
  let hasVerifier = 1;
}

// A vector<16xi8> (one NEON register of bytes), which the parser can build from nothing.
def Tcpu_ByteVector : VectorOfLengthAndType<[16], [I8]>,
    BuildableType<"::mlir::VectorType::get({16}, $_builder.getI8Type())">;

def Tcpu_LookupBytesOp : Tcpu_Op<"lookup_bytes", [Pure]> {
  let summary = "Byte i of the result is byte indices[i] of the tables one after the other, "
                "or 0 past them (TBL)";
  let description = [{
    `%r = tcpu.lookup_bytes %t0, %t1, %t2, %t3 [%indices]` with one to four `vector<16xi8>`
    tables (NEON TBL of a register list): any byte of up to 64 in one
    instruction (two tables are one micro-op on Cortex-A720, four are four). tt-to-tcpu-dot
    joins the low halves of a's row pairs into SMMLA operands with two tables.
  }];
  let arguments = (ins Variadic<Tcpu_ByteVector>:$tables, Tcpu_ByteVector:$indices);
  let results = (outs Tcpu_ByteVector:$result);
  let assemblyFormat = "$tables `[` $indices `]` attr-dict";
  let hasVerifier = 1;
}

// The SMMLA tile layout of an accumulator c[M, N]: block (p, t), a vector<4xi32>, holds rows
// 2p, 2p+1 x columns c0(t), c1(t) in the order SMMLA keeps them ([r0c0, r0c1, r1c0, r1c1]).
// With column_stride s the columns come in groups of 2s: t = s * g + i pairs columns
// 2s * g + i and 2s * g + i + s (s = 1: neighbours; s = 8: what a 16-column byte transpose of
// the b operand gives). The blocks are vector<(M/2)x(N/2)x4xT>, or vector<TxRxCx4xT> in tiles
// of R x C blocks taken in row-major order (tcpu/MmlaLayout.h), which an accumulator kept in a
// buffer uses so that each tile is one contiguous run of memory.
class Tcpu_MmlaLayoutOp<string mnemonic, string what> : Tcpu_Op<mnemonic, [Pure]> {
  let summary = what;
  let arguments = (ins AnyVector:$source, I64Attr:$column_stride);
  let results = (outs AnyVector:$result);
  let assemblyFormat = [{
    $source attr-dict `:` type($source) `to` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tcpu_ToMmlaBlocksOp : Tcpu_MmlaLayoutOp<"to_mmla_blocks",
    "Rearranges a row-major vector<MxNxT> into SMMLA blocks (vector<(M/2)x(N/2)x4xT> or tiles)"> {
  let description = [{
    `tcpu.to_mmla_blocks %c {column_stride = 8} : vector<16x32xi32> to vector<8x16x4xi32>`.
    An accumulator carried by a loop stays in blocks across iterations
    (tcpu-hoist-mmla-layouts); tcpu-lower-vector-ops turns what remains into shuffles.
  }];
}

def Tcpu_FromMmlaBlocksOp : Tcpu_MmlaLayoutOp<"from_mmla_blocks",
    "Rearranges SMMLA blocks (vector<(M/2)x(N/2)x4xT> or tiles) back into a row-major vector<MxNxT>"> {
  let description = [{
    The inverse of tcpu.to_mmla_blocks with the same column_stride.
  }];
}

// LD1 / ST1 of a list of one to four 128-bit registers: 16 to 64 consecutive bytes of a buffer
// in one instruction where LDP / STP move 32. The buffer is a contiguous memref of static shape
// (identity layout) with the vectors' element type; the vectors are its elements from the
// indices on in row-major order, and must lie inside it.
def Tcpu_LoadVectorsOp : Tcpu_Op<"load_vectors"> {
  let summary = "Loads 1 to 4 consecutive 128-bit vectors from a buffer (LD1 of a register list)";
  let description = [{
    `%v:4 = tcpu.load_vectors %acc[%p, %t, %c0] : memref<8x16x4xi32> -> vector<4xi32>,
    vector<4xi32>, vector<4xi32>, vector<4xi32>` loads the blocks (p, t) .. (p, t + 3). The base
    may instead be an `!llvm.ptr` to the first vector, with no indices: a loop that steps its
    own pointers (tt-to-tcpu-dot's chunk loops, two chunks an iteration, each pointer stepped
    after its load so the backend post-increments it).
  }];
  let arguments = (ins Arg<AnyType, "the buffer, or a pointer to the first vector",
                           [MemRead]>:$base,
                   Variadic<Index>:$indices);
  let results = (outs Variadic<AnyVector>:$vectors);
  let assemblyFormat = [{
    $base `[` $indices `]` attr-dict `:` type($base) `->` type($vectors)
  }];
  let hasVerifier = 1;
}

def Tcpu_BufferPointerOp : Tcpu_Op<"buffer_pointer", [Pure]> {
  let summary = "The address of an element of a buffer, as a pointer derived from it";
  let description = [{
    `%p = tcpu.buffer_pointer %a[%t, %c0, %c0, %c0] : memref<8x16x4x16xi8> -> !llvm.ptr` is the
    address of that element, lowered as a GEP of the buffer's pointer (not through an integer),
    so the backend still knows what the buffer's other accesses may touch.
  }];
  let arguments = (ins AnyMemRef:$base, Variadic<Index>:$indices);
  let results = (outs LLVM_AnyPointer:$pointer);
  let assemblyFormat = [{
    $base `[` $indices `]` attr-dict `:` type($base) `->` type($pointer)
  }];
}

def Tcpu_StoreVectorsOp : Tcpu_Op<"store_vectors", [AttrSizedOperandSegments]> {
  let summary = "Stores 1 to 4 128-bit vectors consecutively into a buffer (ST1 of a register list)";
  let description = [{
    `tcpu.store_vectors %a, %b into %buffer[%i, %c0] : vector<16xi8>, vector<16xi8> into
    memref<4x16xi8>` stores %a at row %i and %b at row %i + 1.
  }];
  let arguments = (ins Variadic<AnyVector>:$vectors,
                   Arg<AnyMemRef, "the buffer", [MemWrite]>:$base, Variadic<Index>:$indices);
  let assemblyFormat = [{
    $vectors `into` $base `[` $indices `]` attr-dict `:` type($vectors) `into` type($base)
  }];
  let hasVerifier = 1;
}

def Tcpu_LoadLanesOp : Tcpu_Op<"load_lanes"> {
  let summary = "Loads 2 to 4 consecutive elements into one lane of as many 128-bit vectors "
                "(LD2/LD3/LD4 of a single structure)";
  let description = [{
    `%a, %b = tcpu.load_lanes %p[1], %x, %y : !llvm.ptr, vector<2xi64>, vector<2xi64>`
    is %x with lane 1 the i64 at %p and %y with lane 1 the i64 at %p + 8; the other lanes
    pass through (LD2 {x.d, y.d}[1]). tcpu-zip-lane-loads builds an SMMLA or BFMMLA operand
    of two rows this way: lane 0 from one row, lane 1 from the next, no ZIP.
  }];
  let arguments = (ins Arg<LLVM_AnyPointer, "the first element", [MemRead]>:$address,
                   I64Attr:$lane, Variadic<AnyVector>:$vectors);
  let results = (outs Variadic<AnyVector>:$results);
  let assemblyFormat = [{
    $address `[` $lane `]` `,` $vectors attr-dict `:` type($address) `,` type($vectors)
    `->` type($results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging ops
//===----------------------------------------------------------------------===//

def Tcpu_PrintOp : Tcpu_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Prints a prefix and scalar values on stdout (through printf)";
  let arguments = (ins StrAttr:$prefix, Variadic<AnyType>:$args);
  let assemblyFormat = "$prefix attr-dict ($args^ `:` type($args))?";
  let hasVerifier = 1;
}

def Tcpu_AssertOp : Tcpu_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stops the program with a message when the condition is false";
  let arguments = (ins I1:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
}

#endif  // TCPU_OPS_TD
