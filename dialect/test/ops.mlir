// Round trip of every tcpu op: parse, verify, print, parse again.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s --mlir-print-op-generic | tcpu-opt | FileCheck %s

// CHECK-LABEL: func @runtime_ops
func.func @runtime_ops(%w: memref<64x32xi8>, %packed: memref<?xi8>, %x8: memref<32xi8>,
                       %y32: memref<64xi32>, %scales: memref<64xf32>, %xb: memref<32xbf16>,
                       %yb: memref<64xbf16>, %xm: memref<4x32xi8>, %ym: memref<4x64xi32>,
                       %nw: memref<32xbf16>) {
  // CHECK: tcpu.pack_weights %{{.*}}, %{{.*}} : memref<64x32xi8>, memref<?xi8>
  %0 = tcpu.pack_weights %w, %packed : memref<64x32xi8>, memref<?xi8>
  // CHECK: tcpu.gemv_i8 %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8>, memref<32xi8>, memref<64xi32>
  %1 = tcpu.gemv_i8 %packed, %x8, %y32 : memref<?xi8>, memref<32xi8>, memref<64xi32>
  // CHECK: tcpu.gemv_bf16_w8 {{.*}} : memref<?xi8>, memref<64xf32>, memref<32xbf16>, memref<64xbf16>
  %2 = tcpu.gemv_bf16_w8 %packed, %scales, %xb, %yb
      : memref<?xi8>, memref<64xf32>, memref<32xbf16>, memref<64xbf16>
  // CHECK: tcpu.gemm_i8 {{.*}} : memref<?xi8>, memref<4x32xi8>, memref<4x64xi32>
  %3 = tcpu.gemm_i8 %packed, %xm, %ym : memref<?xi8>, memref<4x32xi8>, memref<4x64xi32>
  // CHECK: tcpu.rms_norm {{.*}} eps = 9.99999997E-7 : memref<32xbf16>, memref<32xbf16>, memref<32xbf16>
  %4 = tcpu.rms_norm %xb, %nw, %xb eps = 1.0e-6 : memref<32xbf16>, memref<32xbf16>, memref<32xbf16>
  // CHECK: tcpu.swiglu {{.*}} : memref<32xbf16>, memref<32xbf16>, memref<32xbf16>
  %5 = tcpu.swiglu %xb, %nw, %xb : memref<32xbf16>, memref<32xbf16>, memref<32xbf16>
  return
}

// CHECK-LABEL: func @attention
func.func @attention(%q: memref<16x128xbf16>,
                     %k: memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>,
                     %v: memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>,
                     %out: memref<16x128xbf16>, %len: index) -> i32 {
  // CHECK: tcpu.flash_attn_decode {{.*}}, %{{.*}} sm_scale = 0.0883883461 : memref<16x128xbf16>, memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>
  %s = tcpu.flash_attn_decode %q, %k, %v, %out, %len sm_scale = 0.0883883461
      : memref<16x128xbf16>, memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>,
        memref<2x?x128xbf16, strided<[?, 128, 1], offset: ?>>, memref<16x128xbf16>
  return %s : i32
}

// CHECK-LABEL: func @fused
func.func @fused(%pg: memref<?xi8>, %sg: memref<4608xf32>, %pu: memref<?xi8>,
                 %su: memref<4608xf32>, %pd: memref<?xi8>, %sd: memref<1536xf32>,
                 %x: memref<1536xbf16>, %y: memref<1536xbf16>, %shape: !llvm.ptr,
                 %weights: !llvm.ptr, %kc: memref<?xbf16>, %vc: memref<?xbf16>, %cap: index,
                 %pos: index, %ws: memref<?xi8>, %tok: i32, %logits: memref<?xf32>,
                 %next: memref<1xi32>) {
  // CHECK: tcpu.fused_mlp
  %0 = tcpu.fused_mlp %pg, %sg, %pu, %su, %pd, %sd, %x, %y
      : memref<?xi8>, memref<4608xf32>, memref<?xi8>, memref<4608xf32>, memref<?xi8>,
        memref<1536xf32>, memref<1536xbf16>, memref<1536xbf16>
  // CHECK: tcpu.transformer_layer {{.*}} : !llvm.ptr, !llvm.ptr, memref<?xbf16>
  %1 = tcpu.transformer_layer %shape, %weights, %kc, %vc, %cap, %pos, %y, %ws
      : !llvm.ptr, !llvm.ptr, memref<?xbf16>, memref<?xbf16>, memref<1536xbf16>, memref<?xi8>
  // CHECK: tcpu.decode_step {{.*}} : !llvm.ptr, memref<?xbf16>, memref<?xbf16>, memref<?xf32>, memref<1xi32>, memref<?xi8>
  %2 = tcpu.decode_step %weights, %kc, %vc, %cap, %pos, %tok, %logits, %next, %ws
      : !llvm.ptr, memref<?xbf16>, memref<?xbf16>, memref<?xf32>, memref<1xi32>, memref<?xi8>
  return
}

// CHECK-LABEL: func @vector_ops
func.func @vector_ops(%acc: vector<4xi32>, %a: vector<16xi8>, %sacc: vector<[4]xi32>,
                      %sa: vector<[16]xi8>) -> (vector<4xi32>, vector<[4]xi32>) {
  // CHECK: tcpu.sdot %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi8> into vector<4xi32>
  %0 = tcpu.sdot %acc, %a, %a : vector<16xi8> into vector<4xi32>
  // CHECK: tcpu.sdot %{{.*}}, %{{.*}}, %{{.*}} : vector<[16]xi8> into vector<[4]xi32>
  %1 = tcpu.sdot %sacc, %sa, %sa : vector<[16]xi8> into vector<[4]xi32>
  // CHECK: tcpu.smmla %{{.*}} : vector<16xi8> into vector<4xi32>
  %2 = tcpu.smmla %0, %a, %a : vector<16xi8> into vector<4xi32>
  // CHECK: tcpu.smmla %{{.*}} : vector<[16]xi8> into vector<[4]xi32>
  %3 = tcpu.smmla %1, %sa, %sa : vector<[16]xi8> into vector<[4]xi32>
  // CHECK: tcpu.lookup_bytes %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}]
  %4 = tcpu.lookup_bytes %a, %a, %a, %a[%a]
  // CHECK: tcpu.lookup_bytes %{{.*}}[%{{.*}}]
  %5 = tcpu.lookup_bytes %4[%a]
  return %2, %3 : vector<4xi32>, vector<[4]xi32>
}

// CHECK-LABEL: func @bfmmla
func.func @bfmmla(%acc: vector<4xf32>, %a: vector<8xbf16>) -> vector<4xf32> {
  // CHECK: tcpu.bfmmla %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16> into vector<4xf32>
  %0 = tcpu.bfmmla %acc, %a, %a : vector<8xbf16> into vector<4xf32>
  return %0 : vector<4xf32>
}

// CHECK-LABEL: func @debug_ops
func.func @debug_ops(%i: i32, %f: f32, %n: index, %c: i1) {
  // CHECK: tcpu.print "i f n =" %{{.*}}, %{{.*}}, %{{.*}} : i32, f32, index
  tcpu.print "i f n =" %i, %f, %n : i32, f32, index
  // CHECK: tcpu.print "no values"
  tcpu.print "no values"
  // CHECK: tcpu.assert %{{.*}}, "c must hold"
  tcpu.assert %c, "c must hold"
  return
}
