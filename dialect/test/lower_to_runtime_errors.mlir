// --tcpu-lower-to-runtime errors: a clashing declaration, a runtime name taken by another symbol.
// RUN: tcpu-opt %s --split-input-file --tcpu-lower-to-runtime --verify-diagnostics -o /dev/null

func.func private @tcpu_gemv_i8(memref<?xi8>) -> i32

func.func @wrong_declaration(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) -> i32 {
  // expected-error @+1 {{the module declares @tcpu_gemv_i8 as '(memref<?xi8>) -> i32' but the runtime's C signature is '(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32'}}
  %s = tcpu.gemv_i8 %p, %x, %y : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return %s : i32
}

// -----

llvm.mlir.global internal constant @tcpu_swiglu_bf16(0 : i32) : i32

func.func @symbol_taken(%x: memref<?xbf16>) -> i32 {
  // expected-error @+1 {{symbol @tcpu_swiglu_bf16 is a 'llvm.mlir.global'; the lowering needs it for the runtime function '(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> i32'}}
  %0 = tcpu.swiglu %x, %x, %x : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
  return %0 : i32
}
