// Every verifier error of the tcpu ops names the operand and what it expected.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics

func.func @f(%w: memref<64xi8>, %p: memref<?xi8>) {
  // expected-error @+1 {{operand 'w' must be a rank-2 memref of 'i8', got 'memref<64xi8>'}}
  %0 = tcpu.pack_weights %w, %p : memref<64xi8>, memref<?xi8>
  return
}

// -----

func.func @f(%w: memref<0x8xi8>, %p: memref<?xi8>) {
  // expected-error @+1 {{operand 'w' has 0 in dimension 0; the runtime needs sizes >= 1}}
  %0 = tcpu.pack_weights %w, %p : memref<0x8xi8>, memref<?xi8>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<32xi8>, %y: memref<64xf32>) {
  // expected-error @+1 {{operand 'y' must be a rank-1 memref of 'i32', got 'memref<64xf32>'}}
  %0 = tcpu.gemv_i8 %p, %x, %y : memref<?xi8>, memref<32xi8>, memref<64xf32>
  return
}

// -----

func.func @f(%p: memref<?xi16>, %x: memref<32xi8>, %y: memref<64xi32>) {
  // expected-error @+1 {{operand 'packed_w' must be a rank-1 memref of 'i8', got 'memref<?xi16>'}}
  %0 = tcpu.gemv_i8 %p, %x, %y : memref<?xi16>, memref<32xi8>, memref<64xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<64xi8, strided<[2]>>, %y: memref<64xi32>) {
  // expected-error @+1 {{operand 'x' must have the identity (contiguous row-major) layout, got 'memref<64xi8, strided<[2]>>'}}
  %0 = tcpu.gemv_i8 %p, %x, %y : memref<?xi8>, memref<64xi8, strided<[2]>>, memref<64xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %s: memref<32xf32>, %x: memref<32xbf16>, %y: memref<64xbf16>) {
  // expected-error @+1 {{operand 'w_scales' has 32 in dimension 0 but 'y' has 64 in dimension 0; both are n (one scale per output)}}
  %0 = tcpu.gemv_bf16_w8 %p, %s, %x, %y : memref<?xi8>, memref<32xf32>, memref<32xbf16>, memref<64xbf16>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %s: memref<64xf32>, %x: memref<32xf16>, %y: memref<64xbf16>) {
  // expected-error @+1 {{operand 'x' must be a rank-1 memref of 'bf16', got 'memref<32xf16>'}}
  %0 = tcpu.gemv_bf16_w8 %p, %s, %x, %y : memref<?xi8>, memref<64xf32>, memref<32xf16>, memref<64xbf16>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<4x32xi8>, %y: memref<8x64xi32>) {
  // expected-error @+1 {{operand 'y' has 8 in dimension 0 but 'x' has 4 in dimension 0; both are m (rows)}}
  %0 = tcpu.gemm_i8 %p, %x, %y : memref<?xi8>, memref<4x32xi8>, memref<8x64xi32>
  return
}

// -----

func.func @f(%x: memref<32xbf16>, %w: memref<16xbf16>) {
  // expected-error @+1 {{operand 'w' has 16 in dimension 0 but 'x' has 32 in dimension 0; both are d}}
  %0 = tcpu.rms_norm %x, %w, %x eps = 1.0e-6 : memref<32xbf16>, memref<16xbf16>, memref<32xbf16>
  return
}

// -----

func.func @f(%x: memref<32xbf16>) {
  // expected-error @+1 {{attribute 'eps' = 0.000000e+00; expected a finite value > 0}}
  %0 = tcpu.rms_norm %x, %x, %x eps = 0.0 : memref<32xbf16>, memref<32xbf16>, memref<32xbf16>
  return
}

// -----

func.func @f(%x: memref<32xbf16>, %o: memref<33xbf16>) {
  // expected-error @+1 {{operand 'out' has 33 in dimension 0 but 'gate' has 32 in dimension 0; both are n}}
  %0 = tcpu.swiglu %x, %x, %o : memref<32xbf16>, memref<32xbf16>, memref<33xbf16>
  return
}

// -----

func.func @f(%q: memref<16x128xbf16>, %k: memref<3x?x128xbf16>, %o: memref<16x128xbf16>, %n: index) {
  // expected-error @+1 {{operand 'q' has 16 heads, not a multiple of the 3 KV heads of 'k_cache' (GQA)}}
  %0 = tcpu.flash_attn_decode %q, %k, %k, %o, %n sm_scale = 0.125
      : memref<16x128xbf16>, memref<3x?x128xbf16>, memref<3x?x128xbf16>, memref<16x128xbf16>
  return
}

// -----

func.func @f(%q: memref<16x128xbf16>, %k: memref<2x?x64xbf16>, %o: memref<16x128xbf16>, %n: index) {
  // expected-error @+1 {{operand 'k_cache' has 64 in dimension 2 but 'q' has 128 in dimension 1; both are head_dim}}
  %0 = tcpu.flash_attn_decode %q, %k, %k, %o, %n sm_scale = 0.125
      : memref<16x128xbf16>, memref<2x?x64xbf16>, memref<2x?x64xbf16>, memref<16x128xbf16>
  return
}

// -----

func.func @f(%q: memref<16x128xbf16>, %k: memref<2x?x128xbf16, strided<[?, ?, 2]>>, %o: memref<16x128xbf16>, %n: index) {
  // expected-error @+1 {{operand 'k_cache' must be strided with a unit innermost stride}}
  %0 = tcpu.flash_attn_decode %q, %k, %k, %o, %n sm_scale = 0.125
      : memref<16x128xbf16>, memref<2x?x128xbf16, strided<[?, ?, 2]>>,
        memref<2x?x128xbf16, strided<[?, ?, 2]>>, memref<16x128xbf16>
  return
}

// -----

func.func @f(%q: memref<16x128xbf16>, %k: memref<2x?x128xbf16>, %o: memref<16x128xbf16>, %n: index) {
  // expected-error @+1 {{attribute 'sm_scale' = -1.000000e+00; expected a finite value > 0}}
  %0 = tcpu.flash_attn_decode %q, %k, %k, %o, %n sm_scale = -1.0
      : memref<16x128xbf16>, memref<2x?x128xbf16>, memref<2x?x128xbf16>, memref<16x128xbf16>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %s: memref<4608xf32>, %su: memref<4096xf32>, %sd: memref<1536xf32>, %x: memref<1536xbf16>) {
  // expected-error @+1 {{operand 'up_scales' has 4096 in dimension 0 but 'gate_scales' has 4608 in dimension 0; both are intermediate}}
  %0 = tcpu.fused_mlp %p, %s, %p, %su, %p, %sd, %x, %x
      : memref<?xi8>, memref<4608xf32>, memref<?xi8>, memref<4096xf32>, memref<?xi8>,
        memref<1536xf32>, memref<1536xbf16>, memref<1536xbf16>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %s: memref<4608xf32>, %sd: memref<1024xf32>, %x: memref<1536xbf16>) {
  // expected-error @+1 {{operand 'down_scales' has 1024 in dimension 0 but 'x' has 1536 in dimension 0; both are hidden}}
  %0 = tcpu.fused_mlp %p, %s, %p, %s, %p, %sd, %x, %x
      : memref<?xi8>, memref<4608xf32>, memref<?xi8>, memref<4608xf32>, memref<?xi8>,
        memref<1024xf32>, memref<1536xbf16>, memref<1536xbf16>
  return
}

// -----

func.func @f(%sh: !llvm.ptr, %kc: memref<?xf32>, %h: memref<?xbf16>, %ws: memref<?xi8>, %n: index) {
  // expected-error @+1 {{operand 'k_cache' must be a rank-1 memref of 'bf16', got 'memref<?xf32>'}}
  %0 = tcpu.transformer_layer %sh, %sh, %kc, %h, %n, %n, %h, %ws
      : !llvm.ptr, !llvm.ptr, memref<?xf32>, memref<?xbf16>, memref<?xbf16>, memref<?xi8>
  return
}

// -----

func.func @f(%m: !llvm.ptr, %kc: memref<?xbf16>, %l: memref<?xf32>, %nt: memref<2xi32>, %ws: memref<?xi8>, %n: index, %t: i32) {
  // expected-error @+1 {{operand 'next_token' must hold 1 element, got 'memref<2xi32>'}}
  %0 = tcpu.decode_step %m, %kc, %kc, %n, %n, %t, %l, %nt, %ws
      : !llvm.ptr, memref<?xbf16>, memref<?xbf16>, memref<?xf32>, memref<2xi32>, memref<?xi8>
  return
}

// -----

func.func @f(%acc: vector<8xi32>, %a: vector<16xi8>) {
  // expected-error @+1 {{operand 'acc' must be vector<4xi32> or vector<[4]xi32>, got 'vector<8xi32>'}}
  %0 = tcpu.sdot %acc, %a, %a : vector<16xi8> into vector<8xi32>
  return
}

// -----

func.func @f(%acc: vector<[4]xi32>, %a: vector<16xi8>) {
  // expected-error @+1 {{operand 'a' must be 'vector<[16]xi8>' to match the scalable accumulator 'vector<[4]xi32>', got 'vector<16xi8>'}}
  %0 = tcpu.sdot %acc, %a, %a : vector<16xi8> into vector<[4]xi32>
  return
}

// -----

func.func @f(%acc: vector<4xi32>, %a: vector<8xi16>) {
  // expected-error @+1 {{operand 'a' must be 'vector<16xi8>' to match the fixed accumulator 'vector<4xi32>', got 'vector<8xi16>'}}
  %0 = tcpu.smmla %acc, %a, %a : vector<8xi16> into vector<4xi32>
  return
}

// -----

func.func @f(%v: vector<4xi32>) {
  // expected-error @+1 {{operand #0 must be a scalar integer, index or float of at most 64 bits, got 'vector<4xi32>'}}
  tcpu.print "v" %v : vector<4xi32>
  return
}

// -----

func.func @f(%acc: vector<4xi32>, %a: vector<16xi8>, %b: vector<16xi16>) {
  // expected-error @+1 {{failed to verify that all of {a, b} have same type}}
  %0 = "tcpu.sdot"(%acc, %a, %b) : (vector<4xi32>, vector<16xi8>, vector<16xi16>) -> vector<4xi32>
  return
}

// -----

func.func @f(%c: vector<3x4xi32>) {
  // expected-error @+1 {{needs M even and N a multiple of 2 x column_stride = 2, got 'vector<3x4xi32>' with column_stride 1}}
  %0 = tcpu.to_mmla_blocks %c {column_stride = 1 : i64} : vector<3x4xi32> to vector<1x2x4xi32>
  return
}

// -----

func.func @f(%b2: vector<2x1x4xi32>) {
  // expected-error @+1 {{blocks of 'vector<2x4xi32>' must be 'vector<1x2x4xi32>' or tiles of them, TxRxCx4 with R dividing 1, C dividing 2 and T = 1/R x 2/C, got 'vector<2x1x4xi32>'}}
  %0 = tcpu.from_mmla_blocks %b2 {column_stride = 1 : i64} : vector<2x1x4xi32> to vector<2x4xi32>
  return
}

// -----

func.func @f(%m: memref<4x16xi8>, %v: vector<16xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.store_vectors' op moves 1 to 4 vectors (one LD1/ST1 register list), got 5}}
  tcpu.store_vectors %v, %v, %v, %v, %v into %m[%c0, %c0] : vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8> into memref<4x16xi8>
  return
}

// -----

func.func @f(%m: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.load_vectors' op needs fixed 128-bit vectors (NEON registers), got 'vector<8xi32>'}}
  %v = tcpu.load_vectors %m[%c0] : memref<8xi32> -> vector<8xi32>
  return
}

// -----

func.func @f(%m: memref<16xi8>, %v: vector<16xi8>, %w: vector<4xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.store_vectors' op needs vectors of one type, got 'vector<16xi8>' and 'vector<4xi32>'}}
  tcpu.store_vectors %v, %w into %m[%c0] : vector<16xi8>, vector<4xi32> into memref<16xi8>
  return
}

// -----

func.func @f(%p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.load_vectors' op takes no indices with a pointer base, got 1}}
  %v = tcpu.load_vectors %p[%c0] : !llvm.ptr -> vector<16xi8>
  return
}

// -----

func.func @f(%p: i64) {
  // expected-error @+1 {{'tcpu.load_vectors' op needs a memref buffer or an !llvm.ptr, got 'i64'}}
  %v = tcpu.load_vectors %p[] : i64 -> vector<16xi8>
  return
}

// -----

func.func @f(%m: memref<16xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.load_vectors' op buffer element type 'i8' differs from the vectors' 'i32'}}
  %v = tcpu.load_vectors %m[%c0] : memref<16xi8> -> vector<4xi32>
  return
}

// -----

func.func @f(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.load_vectors' op needs a contiguous buffer of static shape, got 'memref<?xi8>'}}
  %v = tcpu.load_vectors %m[%c0] : memref<?xi8> -> vector<16xi8>
  return
}

// -----

func.func @f(%m: memref<4x16xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tcpu.load_vectors' op has 1 indices for the rank-2 buffer 'memref<4x16xi8>'}}
  %v = tcpu.load_vectors %m[%c0] : memref<4x16xi8> -> vector<16xi8>
  return
}

// -----

func.func @f(%m: memref<4x16xi8>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'tcpu.load_vectors' op reaches element 79 of the 64-element buffer 'memref<4x16xi8>'}}
  %v:3 = tcpu.load_vectors %m[%c2, %c0] : memref<4x16xi8> -> vector<16xi8>, vector<16xi8>, vector<16xi8>
  return
}

// -----

func.func @f(%m: memref<4x16xi8>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'tcpu.load_vectors' op index 4 is outside 'memref<4x16xi8>'}}
  %v = tcpu.load_vectors %m[%c4, %c0] : memref<4x16xi8> -> vector<16xi8>
  return
}

// -----

func.func @f(%t: vector<16xi8>) {
  // expected-error @+1 {{'tcpu.lookup_bytes' op looks up in 1 to 4 tables (one TBL register list), got 5}}
  %0 = tcpu.lookup_bytes %t, %t, %t, %t, %t[%t]
  return
}

// -----

func.func @f(%acc: vector<4xi32>, %a: vector<8xbf16>) {
  // expected-error @+1 {{operand 'acc' must be 'vector<4xf32>', got 'vector<4xi32>'}}
  %0 = tcpu.bfmmla %acc, %a, %a : vector<8xbf16> into vector<4xi32>
  return
}

// -----

func.func @f(%acc: vector<4xf32>, %a: vector<16xi8>) {
  // expected-error @+1 {{operand 'a' must be 'vector<8xbf16>' (two rows of 4 k), got 'vector<16xi8>'}}
  %0 = tcpu.bfmmla %acc, %a, %a : vector<16xi8> into vector<4xf32>
  return
}

// -----

func.func @f(%p: !llvm.ptr, %a: vector<2xi64>) {
  // expected-error @+1 {{'tcpu.load_lanes' op fills one lane of 2 to 4 vectors (LD2, LD3 or LD4), got 1}}
  %v = tcpu.load_lanes %p[0], %a : !llvm.ptr, vector<2xi64> -> vector<2xi64>
  return
}

// -----

func.func @f(%p: !llvm.ptr, %a: vector<2xi64>) {
  // expected-error @+1 {{'tcpu.load_lanes' op lane 2 is outside 'vector<2xi64>'}}
  %v:2 = tcpu.load_lanes %p[2], %a, %a : !llvm.ptr, vector<2xi64>, vector<2xi64> -> vector<2xi64>, vector<2xi64>
  return
}

// -----

func.func @f(%p: !llvm.ptr, %a: vector<2xi64>, %b: vector<4xi32>) {
  // expected-error @+1 {{'tcpu.load_lanes' op results must have the vectors' types}}
  %v:2 = tcpu.load_lanes %p[0], %a, %b : !llvm.ptr, vector<2xi64>, vector<4xi32> -> vector<2xi64>, vector<2xi64>
  return
}

// -----

func.func @f(%p: !llvm.ptr, %a: vector<2xi64>, %b: vector<4xi32>) {
  // expected-error @+1 {{'tcpu.load_lanes' op needs vectors of one type, got 'vector<2xi64>' and 'vector<4xi32>'}}
  %v:2 = tcpu.load_lanes %p[0], %a, %b : !llvm.ptr, vector<2xi64>, vector<4xi32> -> vector<2xi64>, vector<4xi32>
  return
}

// -----

func.func @f(%p: !llvm.ptr, %a: vector<4xi64>) {
  // expected-error @+1 {{'tcpu.load_lanes' op needs fixed 128-bit vectors (NEON registers), got 'vector<4xi64>'}}
  %v:2 = tcpu.load_lanes %p[0], %a, %a : !llvm.ptr, vector<4xi64>, vector<4xi64> -> vector<4xi64>, vector<4xi64>
  return
}

// -----

func.func @f(%p: !llvm.ptr, %a: vector<1xi128>) {
  // expected-error @+1 {{'tcpu.load_lanes' op loads lanes of i8, i16, i32, i64, f16, bf16, f32 or f64 (what LD2-LD4 take), got 'vector<1xi128>'}}
  %v:2 = tcpu.load_lanes %p[0], %a, %a : !llvm.ptr, vector<1xi128>, vector<1xi128> -> vector<1xi128>, vector<1xi128>
  return
}
