// tt-strip-mine-tiles: a block's only dot whose outer-product accumulator is over 16 NEON
// registers makes the function over budget by itself (tutorial 03's 16x32 f32 tile is within
// the tile and multiply-add budgets): the tile runs as 8x8 chunks, each with the whole K loop,
// its accumulator in registers. Two dots in one block (attention: scores reduced along the keys,
// then P V) within the other budgets stay whole.
// RUN: tcpu-opt %s --tt-loop-pointers-to-offsets --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func @matmul_16x32(
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8x8xf32>
  // CHECK:   tt.dot %{{.*}} : tensor<8x32xf32> * tensor<32x8xf32> -> tensor<8x8xf32>
  // CHECK: tt.store %{{.*}} : tensor<8x8x!tt.ptr<f32>>
  // CHECK-NOT: tensor<16x32xf32>
  // CHECK: tt.return
  tt.func @matmul_16x32(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k_tiles: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
    %a_step = arith.constant dense<32> : tensor<16x32xi32>
    %b_step = arith.constant dense<1024> : tensor<32x32xi32>
    %m = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %n = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %k = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %m_rows = arith.muli %m2, %c32 : tensor<16x1xi32>
    %ka = tt.expand_dims %k {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %a_rows = tt.broadcast %m_rows : tensor<16x1xi32> -> tensor<16x32xi32>
    %a_cols = tt.broadcast %ka : tensor<1x32xi32> -> tensor<16x32xi32>
    %a_offs = arith.addi %a_rows, %a_cols : tensor<16x32xi32>
    %a_base = tt.splat %a : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %a_ptrs = tt.addptr %a_base, %a_offs : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    %c32k = arith.constant dense<32> : tensor<32x1xi32>
    %kb = tt.expand_dims %k {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %k_rows = arith.muli %kb, %c32k : tensor<32x1xi32>
    %nb = tt.expand_dims %n {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %b_rows = tt.broadcast %k_rows : tensor<32x1xi32> -> tensor<32x32xi32>
    %b_cols = tt.broadcast %nb : tensor<1x32xi32> -> tensor<32x32xi32>
    %b_offs = arith.addi %b_rows, %b_cols : tensor<32x32xi32>
    %b_base = tt.splat %b : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
    %b_ptrs = tt.addptr %b_base, %b_offs : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    %acc:3 = scf.for %i = %c0 to %k_tiles step %c1 iter_args(%sum = %zero, %ap = %a_ptrs, %bp = %b_ptrs) -> (tensor<16x32xf32>, tensor<16x32x!tt.ptr<f32>>, tensor<32x32x!tt.ptr<f32>>) : i32 {
      %av = tt.load %ap : tensor<16x32x!tt.ptr<f32>>
      %bv = tt.load %bp : tensor<32x32x!tt.ptr<f32>>
      %d = tt.dot %av, %bv, %sum, inputPrecision = ieee : tensor<16x32xf32> * tensor<32x32xf32> -> tensor<16x32xf32>
      %an = tt.addptr %ap, %a_step : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
      %bn = tt.addptr %bp, %b_step : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
      scf.yield %d, %an, %bn : tensor<16x32xf32>, tensor<16x32x!tt.ptr<f32>>, tensor<32x32x!tt.ptr<f32>>
    }
    %n_cols = tt.broadcast %nb : tensor<1x32xi32> -> tensor<16x32xi32>
    %c_offs = arith.addi %a_rows, %n_cols : tensor<16x32xi32>
    %c_base = tt.splat %c : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %c_ptrs = tt.addptr %c_base, %c_offs : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    tt.store %c_ptrs, %acc#0 : tensor<16x32x!tt.ptr<f32>>
    tt.return
  }

  // Scores of 16 queries by 16 keys, their row maximum, and P V into a 16x32 accumulator: two
  // dots in one block, within the tile and multiply-add budgets, stay whole.
  // CHECK-LABEL: tt.func @attention_step(
  // CHECK-NOT: scf.for
  // CHECK: tt.dot %{{.*}} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  // CHECK: tt.dot %{{.*}} : tensor<16x16xf32> * tensor<16x32xf32> -> tensor<16x32xf32>
  // CHECK-NOT: scf.for
  // CHECK: tt.return
  tt.func @attention_step(%q: tensor<16x32xf32>, %kt: tensor<32x16xf32>, %v: tensor<16x32xf32>, %o: !tt.ptr<f32>) {
    %zero_s = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %zero_o = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
    %s = tt.dot %q, %kt, %zero_s, inputPrecision = ieee : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
    %max = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<16x16xf32>) -> tensor<16xf32>
    %max2 = tt.expand_dims %max {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %maxb = tt.broadcast %max2 : tensor<16x1xf32> -> tensor<16x16xf32>
    %shifted = arith.subf %s, %maxb : tensor<16x16xf32>
    %p = math.exp %shifted : tensor<16x16xf32>
    %out = tt.dot %p, %v, %zero_o, inputPrecision = ieee : tensor<16x16xf32> * tensor<16x32xf32> -> tensor<16x32xf32>
    %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c32 = arith.constant dense<32> : tensor<16x1xi32>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %r3 = arith.muli %r2, %c32 : tensor<16x1xi32>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %rb = tt.broadcast %r3 : tensor<16x1xi32> -> tensor<16x32xi32>
    %cb = tt.broadcast %c2 : tensor<1x32xi32> -> tensor<16x32xi32>
    %offs = arith.addi %rb, %cb : tensor<16x32xi32>
    %base = tt.splat %o : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %offs : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    tt.store %ptrs, %out : tensor<16x32x!tt.ptr<f32>>
    tt.return
  }
}
