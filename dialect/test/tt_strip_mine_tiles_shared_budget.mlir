// tt-strip-mine-tiles: the dots of one block are straight-line code together, so they share
// the 16x32x32 multiply-add budget (two 8x8x256 dots in one block are over it, though each
// alone is not); an outer-product dot's accumulator stays within 16 NEON registers. And an axis that cannot be strip-mined (a dot's K when its operand is loaded
// before the loop holding the dot) is refused before any axis is rewritten, so that the others'
// chunks are chosen without it: attention's key axis is cut once, into one level of chunk loops
// (max; then sum and P V), not cut for a budget shared with the head dimension and cut again
// inside its own chunk loops.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // Two 16x32x32 products of the same b in one block, each accumulator cut to 8x8 (16 NEON
  // registers): two chunks of 8 rows, in each four chunks of 8 columns of b, both products per
  // chunk.
  // CHECK-LABEL: tt.func @two_dots(
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c2_i32{{.*}} step
  // CHECK:   scf.for %{{.*}} = %{{.*}} to %c4_i32{{.*}} step
  // CHECK:     tt.dot %{{.*}} : tensor<8x32xf32> * tensor<32x8xf32> -> tensor<8x8xf32>
  // CHECK:     tt.store
  // CHECK:     tt.dot %{{.*}} : tensor<8x32xf32> * tensor<32x8xf32> -> tensor<8x8xf32>
  // CHECK:     tt.store
  // CHECK:   }
  // CHECK: }
  // CHECK-NEXT: tt.return
  tt.func @two_dots(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %d: !tt.ptr<f32>) {
    %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %c32k = arith.constant dense<32> : tensor<32x1xi32>
    %m = tt.expand_dims %r16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %ms = arith.muli %m, %c32 : tensor<16x1xi32>
    %mb = tt.broadcast %ms : tensor<16x1xi32> -> tensor<16x32xi32>
    %n = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %nb = tt.broadcast %n : tensor<1x32xi32> -> tensor<16x32xi32>
    %o16 = arith.addi %mb, %nb : tensor<16x32xi32>
    %k = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %ks = arith.muli %k, %c32k : tensor<32x1xi32>
    %kb = tt.broadcast %ks : tensor<32x1xi32> -> tensor<32x32xi32>
    %nb32 = tt.broadcast %n : tensor<1x32xi32> -> tensor<32x32xi32>
    %o32 = arith.addi %kb, %nb32 : tensor<32x32xi32>
    %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %ap = tt.addptr %as, %o16 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    %av = tt.load %ap : tensor<16x32x!tt.ptr<f32>>
    %bs = tt.splat %b : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
    %bp = tt.addptr %bs, %o32 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    %bv = tt.load %bp : tensor<32x32x!tt.ptr<f32>>
    %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
    %p = tt.dot %av, %bv, %zero : tensor<16x32xf32> * tensor<32x32xf32> -> tensor<16x32xf32>
    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %cp = tt.addptr %cs, %o16 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    tt.store %cp, %p : tensor<16x32x!tt.ptr<f32>>
    %q = tt.dot %av, %bv, %zero : tensor<16x32xf32> * tensor<32x32xf32> -> tensor<16x32xf32>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %dp = tt.addptr %ds, %o16 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    tt.store %dp, %q : tensor<16x32x!tt.ptr<f32>>
    tt.return
  }

  // Two 8x8x256 products of the same operands in one block: each alone is within the
  // 16x32x32 multiply-add budget and its 8x8 accumulator within the registers, together they
  // are over the budget: K in two 128-deep chunks, both products chained through their
  // accumulators.
  // CHECK-LABEL: tt.func @two_deep_dots(
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c2_i32{{.*}} step %{{.*}} iter_args
  // CHECK:   tt.dot %{{.*}} : tensor<8x128xf32> * tensor<128x8xf32> -> tensor<8x8xf32>
  // CHECK:   tt.dot %{{.*}} : tensor<8x128xf32> * tensor<128x8xf32> -> tensor<8x8xf32>
  // CHECK:   scf.yield
  // CHECK: tt.store
  // CHECK: tt.store
  // CHECK-NEXT: tt.return
  tt.func @two_deep_dots(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %d: !tt.ptr<f32>) {
    %r8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %r256 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %c256 = arith.constant dense<256> : tensor<8x1xi32>
    %c8 = arith.constant dense<8> : tensor<256x1xi32>
    %c8m = arith.constant dense<8> : tensor<8x1xi32>
    %m = tt.expand_dims %r8 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %ma = arith.muli %m, %c256 : tensor<8x1xi32>
    %mab = tt.broadcast %ma : tensor<8x1xi32> -> tensor<8x256xi32>
    %k = tt.expand_dims %r256 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %kb = tt.broadcast %k : tensor<1x256xi32> -> tensor<8x256xi32>
    %oa = arith.addi %mab, %kb : tensor<8x256xi32>
    %kr = tt.expand_dims %r256 {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
    %ks = arith.muli %kr, %c8 : tensor<256x1xi32>
    %ksb = tt.broadcast %ks : tensor<256x1xi32> -> tensor<256x8xi32>
    %n = tt.expand_dims %r8 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %nb = tt.broadcast %n : tensor<1x8xi32> -> tensor<256x8xi32>
    %ob = arith.addi %ksb, %nb : tensor<256x8xi32>
    %as = tt.splat %a : !tt.ptr<f32> -> tensor<8x256x!tt.ptr<f32>>
    %ap = tt.addptr %as, %oa : tensor<8x256x!tt.ptr<f32>>, tensor<8x256xi32>
    %av = tt.load %ap : tensor<8x256x!tt.ptr<f32>>
    %bs = tt.splat %b : !tt.ptr<f32> -> tensor<256x8x!tt.ptr<f32>>
    %bp = tt.addptr %bs, %ob : tensor<256x8x!tt.ptr<f32>>, tensor<256x8xi32>
    %bv = tt.load %bp : tensor<256x8x!tt.ptr<f32>>
    %zero = arith.constant dense<0.000000e+00> : tensor<8x8xf32>
    %p = tt.dot %av, %bv, %zero : tensor<8x256xf32> * tensor<256x8xf32> -> tensor<8x8xf32>
    %q = tt.dot %av, %bv, %zero : tensor<8x256xf32> * tensor<256x8xf32> -> tensor<8x8xf32>
    %mc = arith.muli %m, %c8m : tensor<8x1xi32>
    %mcb = tt.broadcast %mc : tensor<8x1xi32> -> tensor<8x8xi32>
    %ncb = tt.broadcast %n : tensor<1x8xi32> -> tensor<8x8xi32>
    %oc = arith.addi %mcb, %ncb : tensor<8x8xi32>
    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
    %cp = tt.addptr %cs, %oc : tensor<8x8x!tt.ptr<f32>>, tensor<8x8xi32>
    tt.store %cp, %p : tensor<8x8x!tt.ptr<f32>>
    %ds = tt.splat %d : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
    %dp = tt.addptr %ds, %oc : tensor<8x8x!tt.ptr<f32>>, tensor<8x8xi32>
    tt.store %dp, %q : tensor<8x8x!tt.ptr<f32>>
    tt.return
  }

  // Attention over blocks of 64 keys, q (16 x 64) loaded before the key loop: the head
  // dimension of Q K^T stays whole, the queries run in two chunks of 8, and in the key loop
  // the key axis is one level of eight 8-key chunk loops (Q K^T's 8x8 accumulator within 16
  // NEON registers): the maximum, then the sum and P V, with no chunk loop inside another.
  // The first loop stores each chunk of Q K^T to a stack copy of the 8x64 scores, which the
  // second reads back instead of computing Q K^T (and loading K) again.
  // CHECK-LABEL: tt.func @attention(
  // CHECK: %[[SCORES:.*]] = llvm.alloca %{{.*}} x f32 {alignment = 16 : i64}
  // CHECK: %[[ADDRESS:.*]] = llvm.ptrtoint %[[SCORES]]
  // CHECK: %[[COPY:.*]] = tt.int_to_ptr %[[ADDRESS]]
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c2_i32{{.*}} step
  // CHECK:   tt.load %{{.*}} : tensor<8x64x!tt.ptr<f32>>
  // CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
  // CHECK:     scf.for %{{.*}} = %{{.*}} to %c8_i32{{.*}} step
  // CHECK-NOT:   scf.for
  // CHECK:       %[[QK:.*]] = tt.dot %{{.*}} : tensor<8x64xf32> * tensor<64x8xf32> -> tensor<8x8xf32>
  // CHECK-NOT:   scf.for
  // CHECK:       tt.splat %[[COPY]]
  // CHECK:       tt.store %{{.*}}, %[[QK]] : tensor<8x8x!tt.ptr<f32>>
  // CHECK:       "tt.reduce"
  // CHECK:       scf.yield
  // CHECK:     scf.for %{{.*}} = %{{.*}} to %c8_i32{{.*}} step
  // CHECK-NOT:   scf.for
  // CHECK-NOT:   tensor<64x8xf32> -> tensor<8x8xf32>
  // CHECK:       tt.splat %[[COPY]]
  // CHECK:       tt.load %{{.*}} : tensor<8x8x!tt.ptr<f32>>
  // CHECK-NOT:   scf.for
  // CHECK-NOT:   tensor<64x8xf32> -> tensor<8x8xf32>
  // CHECK:       "tt.reduce"
  // CHECK-NOT:   scf.for
  // CHECK:       tt.dot %{{.*}} : tensor<8x8xf32> * tensor<8x64xf32> -> tensor<8x64xf32>
  // CHECK:       scf.yield
  // CHECK:   tt.store %{{.*}} : tensor<8x!tt.ptr<f32>>
  // CHECK:   tt.store %{{.*}} : tensor<8x64x!tt.ptr<f32>>
  tt.func @attention(%Q: !tt.ptr<f32>, %K: !tt.ptr<f32>, %V: !tt.ptr<f32>, %O: !tt.ptr<f32>,
                     %L: !tt.ptr<f32>, %n_ctx: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %rm = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rd = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %stride_m = arith.constant dense<64> : tensor<16x1xi32>
    %stride_n = arith.constant dense<64> : tensor<64x1xi32>
    %m = tt.expand_dims %rm {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %ms = arith.muli %m, %stride_m : tensor<16x1xi32>
    %mb = tt.broadcast %ms : tensor<16x1xi32> -> tensor<16x64xi32>
    %d = tt.expand_dims %rd {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %db = tt.broadcast %d : tensor<1x64xi32> -> tensor<16x64xi32>
    %qo = arith.addi %mb, %db : tensor<16x64xi32>
    %qs = tt.splat %Q : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
    %qp = tt.addptr %qs, %qo : tensor<16x64x!tt.ptr<f32>>, tensor<16x64xi32>
    %q = tt.load %qp : tensor<16x64x!tt.ptr<f32>>
    %n = tt.expand_dims %rn {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %ns = arith.muli %n, %stride_n : tensor<64x1xi32>
    %nb = tt.broadcast %ns : tensor<64x1xi32> -> tensor<64x64xi32>
    %db64 = tt.broadcast %d : tensor<1x64xi32> -> tensor<64x64xi32>
    %kvo = arith.addi %nb, %db64 : tensor<64x64xi32>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
    %l0 = arith.constant dense<1.000000e+00> : tensor<16xf32>
    %m0 = arith.constant dense<0xFF800000> : tensor<16xf32>
    %r:3 = scf.for %start = %c0 to %n_ctx step %c64 iter_args(%acc = %acc0, %l_i = %l0, %m_i = %m0) -> (tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>) : i32 {
      %row = arith.muli %start, %c64 : i32
      %kbase = tt.addptr %K, %row : !tt.ptr<f32>, i32
      %ks = tt.splat %kbase : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
      %kp = tt.addptr %ks, %kvo : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
      %k = tt.load %kp : tensor<64x64x!tt.ptr<f32>>
      %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x64xf32> -> tensor<64x64xf32>
      %zero = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
      %s = tt.dot %q, %kt, %zero : tensor<16x64xf32> * tensor<64x64xf32> -> tensor<16x64xf32>
      %mx = "tt.reduce"(%s) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %z = arith.maxnumf %x, %y : f32
        tt.reduce.return %z : f32
      }) : (tensor<16x64xf32>) -> tensor<16xf32>
      %m_new = arith.maxnumf %m_i, %mx : tensor<16xf32>
      %me = tt.expand_dims %m_new {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
      %mbc = tt.broadcast %me : tensor<16x1xf32> -> tensor<16x64xf32>
      %sm = arith.subf %s, %mbc : tensor<16x64xf32>
      %p = math.exp2 %sm : tensor<16x64xf32>
      %sum = "tt.reduce"(%p) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %z = arith.addf %x, %y : f32
        tt.reduce.return %z : f32
      }) : (tensor<16x64xf32>) -> tensor<16xf32>
      %diff = arith.subf %m_i, %m_new : tensor<16xf32>
      %alpha = math.exp2 %diff : tensor<16xf32>
      %ae = tt.expand_dims %alpha {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
      %ab = tt.broadcast %ae : tensor<16x1xf32> -> tensor<16x64xf32>
      %scaled = arith.mulf %acc, %ab : tensor<16x64xf32>
      %vbase = tt.addptr %V, %row : !tt.ptr<f32>, i32
      %vs = tt.splat %vbase : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
      %vp = tt.addptr %vs, %kvo : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
      %v = tt.load %vp : tensor<64x64x!tt.ptr<f32>>
      %acc_new = tt.dot %p, %v, %scaled : tensor<16x64xf32> * tensor<64x64xf32> -> tensor<16x64xf32>
      %l_scaled = arith.mulf %l_i, %alpha : tensor<16xf32>
      %l_new = arith.addf %l_scaled, %sum : tensor<16xf32>
      scf.yield %acc_new, %l_new, %m_new : tensor<16x64xf32>, tensor<16xf32>, tensor<16xf32>
    }
    %ls = tt.splat %L : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %lp = tt.addptr %ls, %rm : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %lp, %r#1 : tensor<16x!tt.ptr<f32>>
    %os = tt.splat %O : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
    %op = tt.addptr %os, %qo : tensor<16x64x!tt.ptr<f32>>, tensor<16x64xi32>
    tt.store %op, %r#0 : tensor<16x64x!tt.ptr<f32>>
    tt.return
  }
}
