// --tcpu-lower-to-runtime: each memref-level op becomes a func.call with the exact C
// signature of runtime/include/tcpu/ (pointers !llvm.ptr, int64_t i64, float f32, int i32).
// RUN: tcpu-opt %s --tcpu-lower-to-runtime --canonicalize | FileCheck %s

module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm", "bf16", "dotprod"], vector_bits = 0>} {

// The strings of the variant pins and of tcpu.print are module globals.
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:__tcpu_str_[0-9]+]]("gemm_i8\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WANT:__tcpu_str_[0-9]+]]("gemm_i8:i8mm\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("100%% of %d %lld %lld %.9g\0A\00")

// CHECK-LABEL: func @gemv
// CHECK-SAME: (%[[P:.*]]: memref<?xi8>, %[[X:.*]]: memref<32xi8>, %[[Y:.*]]: memref<64xi32>)
func.func @gemv(%p: memref<?xi8>, %x: memref<32xi8>, %y: memref<64xi32>) -> i32 {
  // CHECK-DAG: %[[K:.*]] = arith.constant 32 : i64
  // CHECK-DAG: %[[N:.*]] = arith.constant 64 : i64
  // CHECK-DAG: %[[PP:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
  // CHECK-DAG: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
  // CHECK-DAG: %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
  // CHECK: %[[S:.*]] = call @tcpu_gemv_i8(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[K]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
  // CHECK: return %[[S]]
  %s = tcpu.gemv_i8 %p, %x, %y : memref<?xi8>, memref<32xi8>, memref<64xi32>
  return %s : i32
}

// CHECK-LABEL: func @all_ops
// CHECK: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
func.func @all_ops(%w: memref<?x?xi8>, %p: memref<?xi8>, %sc: memref<?xf32>, %xb: memref<?xbf16>,
                   %yb: memref<?xbf16>, %xm: memref<?x?xi8>, %ym: memref<?x?xi32>) {
  // CHECK: call @tcpu_pack_weights_i8(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr, i64) -> i32
  %0 = tcpu.pack_weights %w, %p : memref<?x?xi8>, memref<?xi8>
  // CHECK: call @tcpu_gemv_bf16_w8({{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
  %1 = tcpu.gemv_bf16_w8 %p, %sc, %xb, %yb : memref<?xi8>, memref<?xf32>, memref<?xbf16>, memref<?xbf16>
  // CHECK: call @tcpu_gemm_i8({{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> i32
  %2 = tcpu.gemm_i8 %p, %xm, %ym : memref<?xi8>, memref<?x?xi8>, memref<?x?xi32>
  // CHECK: call @tcpu_rms_norm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EPS]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, f32) -> i32
  %3 = tcpu.rms_norm %xb, %xb, %yb eps = 1.0e-5 : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
  // CHECK: call @tcpu_swiglu_bf16({{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> i32
  %4 = tcpu.swiglu %xb, %xb, %yb : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
  return
}

// The KV-cache strides come from the memref layout.
// CHECK-LABEL: func @attention
func.func @attention(%q: memref<16x128xbf16>,
                     %k: memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>,
                     %v: memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>,
                     %out: memref<16x128xbf16>, %len: index) -> i32 {
  // CHECK-DAG: %[[H:.*]] = arith.constant 16 : i64
  // CHECK-DAG: %[[G:.*]] = arith.constant 2 : i64
  // CHECK-DAG: %[[D:.*]] = arith.constant 128 : i64
  // CHECK-DAG: %[[SCALE:.*]] = arith.constant 0.0883788987 : f32
  // CHECK-DAG: %[[BF16:.*]] = arith.constant 2 : index
  // The cache's offset (in elements) is part of its pointer.
  // CHECK: %{{.*}}, %[[KOFF:.*]], %{{.*}}:3, %{{.*}}:3 = memref.extract_strided_metadata %arg1
  // CHECK: %[[KBASE:.*]] = memref.extract_aligned_pointer_as_index %arg1
  // CHECK: %[[KBYTES:.*]] = arith.muli %[[KOFF]], %[[BF16]]
  // CHECK: arith.addi %[[KBASE]], %[[KBYTES]]
  // CHECK: %[[LEN:.*]] = arith.index_cast %arg4 : index to i64
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}}:3, %[[KS:.*]]:3 = memref.extract_strided_metadata %arg1
  // CHECK: %[[KHS:.*]] = arith.index_cast %[[KS]]#0 : index to i64
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}}:3, %[[VS:.*]]:3 = memref.extract_strided_metadata %arg2
  // CHECK: %[[VHS:.*]] = arith.index_cast %[[VS]]#0 : index to i64
  // CHECK: call @tcpu_flash_attn_decode_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[H]], %[[G]], %[[D]], %[[LEN]], %[[KHS]], %[[D]], %[[VHS]], %[[D]], %[[SCALE]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, f32) -> i32
  %s = tcpu.flash_attn_decode %q, %k, %v, %out, %len sm_scale = 0.0883789
      : memref<16x128xbf16>, memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>,
        memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>, memref<16x128xbf16>
  return %s : i32
}

// threads = N: the call runs with N runtime threads and the old count is restored.
// CHECK-LABEL: func @threads
func.func @threads(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) -> i32 {
  // CHECK: %[[OLD:.*]] = call @tcpu_get_num_threads() : () -> i32
  // CHECK: scf.if
  // CHECK: %[[SET:.*]] = func.call @tcpu_set_num_threads(%c4_i32) : (i32) -> i32
  // CHECK: scf.if
  // CHECK: %[[S:.*]] = func.call @tcpu_gemv_i8
  // CHECK: func.call @tcpu_set_num_threads(%[[OLD]])
  // CHECK: scf.yield %[[S]]
  // CHECK: scf.yield %[[SET]]
  // CHECK: scf.yield %[[OLD]]
  %s = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {threads = 4 : i64}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return %s : i32
}

// variant = "v": the kernel runs only if the runtime dispatches to "op:v"; otherwise the op
// returns TCPU_ERR_INVALID_ARGUMENT (-5), and TCPU_ERR_UNKNOWN_OP (-6) if the runtime does
// not know the op.
// CHECK-LABEL: func @variant
func.func @variant(%p: memref<?xi8>, %x: memref<?x?xi8>, %y: memref<?x?xi32>) -> i32 {
  // CHECK-DAG: %[[N:.*]] = llvm.mlir.addressof @[[NAME]] : !llvm.ptr
  // CHECK-DAG: %[[W:.*]] = llvm.mlir.addressof @[[WANT]] : !llvm.ptr
  // CHECK: %[[GOT:.*]] = call @tcpu_kernel_variant(%[[N]]) : (!llvm.ptr) -> !llvm.ptr
  // CHECK: llvm.icmp "eq" %[[GOT]]
  // CHECK: scf.if
  // CHECK: scf.yield %c-6_i32
  // CHECK: func.call @strcmp(%[[GOT]], %[[W]]) : (!llvm.ptr, !llvm.ptr) -> i32
  // CHECK: func.call @tcpu_gemm_i8
  // CHECK: scf.yield %c-5_i32
  %s = tcpu.gemm_i8 %p, %x, %y {tcpu.hints = {variant = "i8mm"}} : memref<?xi8>, memref<?x?xi8>, memref<?x?xi32>
  return %s : i32
}

// CHECK-LABEL: func @debug
func.func @debug(%i: i8, %l: i64, %n: index, %f: f32, %c: i1) {
  // CHECK: %[[FMT:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
  // CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i8 to i32
  // CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
  // CHECK: %[[F:.*]] = arith.extf %{{.*}} : f32 to f64
  // CHECK: llvm.call @printf(%[[FMT]], %[[I]], %{{.*}}, %[[N]], %[[F]]) vararg(!llvm.func<i32 (ptr, ...)>)
  tcpu.print "100% of" %i, %l, %n, %f : i8, i64, index, f32
  // CHECK: cf.assert %{{.*}}, "tcpu.assert failed: c must hold at {{.*}}lower_to_runtime.mlir:[[@LINE+1]]"
  tcpu.assert %c, "c must hold"
  return
}

// The fused kernels of tcpu/fused_mlp.h and tcpu/transformer.h.
// CHECK-LABEL: func @fused
func.func @fused(%pg: memref<?xi8>, %sg: memref<4608xf32>, %pu: memref<?xi8>,
                 %su: memref<4608xf32>, %pd: memref<?xi8>, %sd: memref<1536xf32>,
                 %x: memref<1536xbf16>, %y: memref<1536xbf16>, %shape: !llvm.ptr,
                 %weights: !llvm.ptr, %kc: memref<?xbf16>, %vc: memref<?xbf16>, %cap: index,
                 %pos: index, %ws: memref<?xi8>, %tok: i32, %logits: memref<?xf32>,
                 %next: memref<1xi32>) {
  // CHECK-DAG: %[[HIDDEN:.*]] = arith.constant 1536 : i64
  // CHECK-DAG: %[[INTER:.*]] = arith.constant 4608 : i64
  // CHECK: call @tcpu_fused_mlp_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[HIDDEN]], %[[INTER]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
  %0 = tcpu.fused_mlp %pg, %sg, %pu, %su, %pd, %sd, %x, %y
      : memref<?xi8>, memref<4608xf32>, memref<?xi8>, memref<4608xf32>, memref<?xi8>,
        memref<1536xf32>, memref<1536xbf16>, memref<1536xbf16>
  // CHECK: %[[CAP:.*]] = arith.index_cast %arg12 : index to i64
  // CHECK: %[[POS:.*]] = arith.index_cast %arg13 : index to i64
  // CHECK: %[[WSB:.*]] = memref.dim %arg14
  // CHECK: %[[WSB64:.*]] = arith.index_cast %[[WSB]]
  // CHECK: call @tcpu_transformer_layer_bf16(%arg8, %arg9, %{{.*}}, %{{.*}}, %[[CAP]], %[[POS]], %{{.*}}, %{{.*}}, %[[WSB64]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, i64) -> i32
  %1 = tcpu.transformer_layer %shape, %weights, %kc, %vc, %cap, %pos, %y, %ws
      : !llvm.ptr, !llvm.ptr, memref<?xbf16>, memref<?xbf16>, memref<1536xbf16>, memref<?xi8>
  // CHECK: call @tcpu_decode_step(%arg9, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg15, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> i32
  %2 = tcpu.decode_step %weights, %kc, %vc, %cap, %pos, %tok, %logits, %next, %ws
      : !llvm.ptr, memref<?xbf16>, memref<?xbf16>, memref<?xf32>, memref<1xi32>, memref<?xi8>
  return
}

// CHECK-DAG: func.func private @tcpu_gemv_i8(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
}
