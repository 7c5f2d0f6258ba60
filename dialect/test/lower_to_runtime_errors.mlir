// --tcpu-lower-to-runtime errors: a clashing declaration, and ops whose lowering waits.
// RUN: tcpu-opt %s --split-input-file --tcpu-lower-to-runtime --verify-diagnostics -o /dev/null

func.func private @tcpu_gemv_i8(memref<?xi8>) -> i32

func.func @wrong_declaration(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) -> i32 {
  // expected-error @+1 {{the module declares @tcpu_gemv_i8 as '(memref<?xi8>) -> i32' but the runtime's C signature is '(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32'}}
  %s = tcpu.gemv_i8 %p, %x, %y : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return %s : i32
}

// -----

func.func @waits(%p: memref<?xi8>, %s: memref<?xf32>, %x: memref<?xbf16>) -> i32 {
  // expected-error @+1 {{lowering 'tcpu.fused_mlp' to the runtime waits for its C header in runtime/include/tcpu/ (fused MLP / transformer); not lowered yet}}
  %0 = tcpu.fused_mlp %p, %s, %p, %s, %p, %s, %x, %x
      : memref<?xi8>, memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<?xi8>,
        memref<?xf32>, memref<?xbf16>, memref<?xbf16>
  return %0 : i32
}
