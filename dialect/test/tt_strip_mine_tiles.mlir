// tt-strip-mine-tiles: tiles over the budgets (1024 elements, a 16x32x32 dot) run as scf.for
// loops over chunks of one axis at a time, rows (1-D tiles) in chunks of 256. A row is stored
// chunk by chunk; softmax's row is
// three chunk loops (max, sum, normalize), the max and the sum carried as rows of partials
// (one per lane of a chunk) and reduced after their loops; a product is reduced per chunk and
// the chunks combined in order;
// a 64x64x64 dot is 16x32 tiles over 32-deep K chunks chained through the accumulator (a
// loop over them, or the chunks one after another for a dot on SMMLA or BFMMLA blocks). An
// axis that a scan mixes, or whose loads a plan would move past a store, is left whole.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // A 4096-lane row in 16 chunks of 256: ranges offset by the chunk, loads and stores per chunk.
  // CHECK-LABEL: tt.func @scale_row(
  // CHECK: scf.for %[[C:.*]] = %{{.*}} to %c16_i32 step %{{.*}} : i32 {
  // CHECK:   %[[FIRST:.*]] = arith.muli %[[C]], %c256_i32 : i32
  // CHECK:   tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  // CHECK:   tt.load %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK: }
  // CHECK-NEXT: tt.return
  tt.func @scale_row(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %pid = tt.get_program_id x : i32
    %c4096 = arith.constant 4096 : i32
    %start = arith.muli %pid, %c4096 : i32
    %lanes = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
    %s = tt.splat %start : i32 -> tensor<4096xi32>
    %idx = arith.addi %s, %lanes : tensor<4096xi32>
    %bound = tt.splat %n : i32 -> tensor<4096xi32>
    %mask = arith.cmpi slt, %idx, %bound : tensor<4096xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %idx : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
    %v = tt.load %xp, %mask : tensor<4096x!tt.ptr<f32>>
    %two = arith.constant dense<2.000000e+00> : tensor<4096xf32>
    %w = arith.mulf %v, %two : tensor<4096xf32>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %idx : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
    tt.store %yp, %w, %mask : tensor<4096x!tt.ptr<f32>>
    tt.return
  }

  // Softmax over 2048 lanes: a chunk loop for the max, one for the sum (reloading the row and
  // recomputing exp), one to normalize and store. The max and the sum are rows of partials,
  // starting from the combiners' identities (NaN for maxnumf, -0.0 for addf), that each chunk
  // combines into lane by lane; each is reduced once after its loop.
  // CHECK-LABEL: tt.func @softmax_row(
  // CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<256xf32>
  // CHECK: %[[MAXES:.*]] = scf.for %[[C:.*]] = {{.*}} to %c8_i32 {{.*}} iter_args(%[[ACC:.*]] = %[[NAN]]) -> (tensor<256xf32>)
  // CHECK:   %[[ROW:.*]] = tt.load %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   %[[NEXT:.*]] = arith.maxnumf %[[ACC]], %[[ROW]] : tensor<256xf32>
  // CHECK:   scf.yield %[[NEXT]] : tensor<256xf32>
  // CHECK: %[[MAX:.*]] = "tt.reduce"(%[[MAXES]]) <{axis = 0 : i32}>
  // CHECK:   arith.maxnumf
  // CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : tensor<256xf32>
  // CHECK: %[[SUMS:.*]] = scf.for {{.*}} iter_args(%[[ACC2:.*]] = %[[ZERO]]) -> (tensor<256xf32>)
  // CHECK:   tt.load %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   tt.splat %[[MAX]] : f32 -> tensor<256xf32>
  // CHECK:   %[[E:.*]] = math.exp %{{.*}} : tensor<256xf32>
  // CHECK:   arith.addf %[[ACC2]], %[[E]] : tensor<256xf32>
  // CHECK: %[[SUM:.*]] = "tt.reduce"(%[[SUMS]])
  // CHECK: scf.for
  // CHECK:   tt.splat %[[SUM]] : f32 -> tensor<256xf32>
  // CHECK:   arith.divf %{{.*}} : tensor<256xf32>
  // CHECK:   tt.store %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK-NOT: tensor<2048
  // CHECK: tt.return
  tt.func @softmax_row(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %lanes = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %lanes : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
    %v = tt.load %xp : tensor<2048x!tt.ptr<f32>>
    %max = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<2048xf32>) -> f32
    %ms = tt.splat %max : f32 -> tensor<2048xf32>
    %d = arith.subf %v, %ms : tensor<2048xf32>
    %e = math.exp %d : tensor<2048xf32>
    %sum = "tt.reduce"(%e) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<2048xf32>) -> f32
    %ss = tt.splat %sum : f32 -> tensor<2048xf32>
    %o = arith.divf %e, %ss : tensor<2048xf32>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %lanes : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
    tt.store %yp, %o : tensor<2048x!tt.ptr<f32>>
    tt.return
  }

  // A product has no combiner identity the pass knows: each chunk is reduced, the first
  // chunk's result replaces the zero the loop starts from, later ones go through the combine
  // region in chunk order.
  // CHECK-LABEL: tt.func @product_row(
  // CHECK: %[[PROD:.*]] = scf.for %[[C:.*]] = {{.*}} to %c8_i32 {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
  // CHECK:   %[[IS_FIRST:.*]] = arith.cmpi eq, %[[C]], %{{.*}} : i32
  // CHECK:   tt.load %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   %[[PART:.*]] = "tt.reduce"
  // CHECK:     arith.mulf
  // CHECK:   %[[COMB:.*]] = arith.mulf %[[ACC]], %[[PART]] : f32
  // CHECK:   %[[NEXT:.*]] = arith.select %[[IS_FIRST]], %[[PART]], %[[COMB]] : f32
  // CHECK:   scf.yield %[[NEXT]] : f32
  // CHECK: tt.store %{{.*}}, %[[PROD]] : !tt.ptr<f32>
  tt.func @product_row(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %lanes = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %lanes : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
    %v = tt.load %xp : tensor<2048x!tt.ptr<f32>>
    %prod = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<2048xf32>) -> f32
    tt.store %y, %prod : !tt.ptr<f32>
    tt.return
  }

  // A 64x64x64 dot, one range shared by every axis (as Triton prints it): the copies of the
  // index computations keep M, N and K apart. The accumulator of an outer-product dot stays
  // within 16 NEON registers: 8-row by 8-column tiles over the whole K (4096 multiply-adds,
  // within the block's budget), each 64x8 column block of b loaded once for its 8 row chunks.
  // CHECK-LABEL: tt.func @dot_64(
  // CHECK: scf.for {{.*}} to %c8_i32
  // CHECK:   %[[B:.*]] = tt.load %{{.*}} : tensor<64x8x!tt.ptr<f32>>
  // CHECK:   scf.for {{.*}} to %c8_i32
  // CHECK:     %[[A:.*]] = tt.load %{{.*}} : tensor<8x64x!tt.ptr<f32>>
  // CHECK:     %[[P:.*]] = tt.dot %[[A]], %[[B]], %{{.*}} : tensor<8x64xf32> * tensor<64x8xf32> -> tensor<8x8xf32>
  // CHECK:     tt.store %{{.*}}, %[[P]] : tensor<8x8x!tt.ptr<f32>>
  // CHECK-NOT: tensor<64x64
  // CHECK: tt.return
  tt.func @dot_64(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %lda: i32, %ldb: i32, %ldc: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colsb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %sa = tt.splat %lda : i32 -> tensor<64x1xi32>
    %ra = arith.muli %rows, %sa : tensor<64x1xi32>
    %rab = tt.broadcast %ra : tensor<64x1xi32> -> tensor<64x64xi32>
    %oa = arith.addi %rab, %colsb : tensor<64x64xi32>
    %as = tt.splat %a : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %ap = tt.addptr %as, %oa : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %av = tt.load %ap : tensor<64x64x!tt.ptr<f32>>
    %sb = tt.splat %ldb : i32 -> tensor<64x1xi32>
    %rb = arith.muli %rows, %sb : tensor<64x1xi32>
    %rbb = tt.broadcast %rb : tensor<64x1xi32> -> tensor<64x64xi32>
    %ob = arith.addi %rbb, %colsb : tensor<64x64xi32>
    %bs = tt.splat %b : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %bp = tt.addptr %bs, %ob : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %bv = tt.load %bp : tensor<64x64x!tt.ptr<f32>>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %d = tt.dot %av, %bv, %zero : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
    %sc = tt.splat %ldc : i32 -> tensor<64x1xi32>
    %rc = arith.muli %rows, %sc : tensor<64x1xi32>
    %rcb = tt.broadcast %rc : tensor<64x1xi32> -> tensor<64x64xi32>
    %oc = arith.addi %rcb, %colsb : tensor<64x64xi32>
    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %cp = tt.addptr %cs, %oc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %cp, %d : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }

  // A scan mixes the lanes of its axis: left whole.
  // CHECK-LABEL: tt.func @cumsum_row(
  // CHECK-NOT: scf.for
  // CHECK: "tt.scan"
  // CHECK: }) : (tensor<2048xf32>) -> tensor<2048xf32>
  tt.func @cumsum_row(%x: !tt.ptr<f32>) {
    %lanes = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %lanes : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
    %v = tt.load %xp : tensor<2048x!tt.ptr<f32>>
    %c = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }) : (tensor<2048xf32>) -> tensor<2048xf32>
    tt.store %xp, %c : tensor<2048x!tt.ptr<f32>>
    tt.return
  }

  // The row's load comes before a store the chunk loop would move it past: left whole.
  // CHECK-LABEL: tt.func @load_after_write(
  // CHECK-NOT: scf.for
  // CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<i32>
  // CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2048x!tt.ptr<f32>>
  tt.func @load_after_write(%x: !tt.ptr<f32>, %flag: !tt.ptr<i32>) {
    %lanes = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %lanes : tensor<2048x!tt.ptr<f32>>, tensor<2048xi32>
    %v = tt.load %xp : tensor<2048x!tt.ptr<f32>>
    %one = arith.constant 1 : i32
    tt.store %flag, %one : !tt.ptr<i32>
    %w = arith.addf %v, %v : tensor<2048xf32>
    tt.store %xp, %w : tensor<2048x!tt.ptr<f32>>
    tt.return
  }

  // With bf16 a bf16 dot runs on BFMMLA blocks, whose K chunks tt-version-masked-loops sums
  // into one dot: among axes of one size K shrinks first, and the M and N axes count half
  // against the budgets (each packed operand of b serves twice the rows, each of a twice the
  // columns), so a 64x64x32 dot keeps its 64x64 tile over 16-deep chunks (without the target,
  // 16x32 tiles over 32: parallel axes first).
  module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["bf16"], vector_bits = 0>} {
    // CHECK-LABEL: tt.func @bf16_dot(
    // CHECK-NOT: scf.for
    // CHECK: scf.for {{.*}} to %c2_i32 {{.*}} -> (tensor<64x64xf32>)
    // CHECK:   tt.dot %{{.*}} : tensor<64x16xbf16> * tensor<16x64xbf16> -> tensor<64x64xf32>
    // CHECK-NOT: tensor<64x32xf32>
    // CHECK-NOT: tensor<32x32xf32>
    tt.func @bf16_dot(%a: !tt.ptr<bf16>, %b: !tt.ptr<bf16>, %c: !tt.ptr<f32>, %lda: i32, %ldb: i32, %ldc: i32) {
      %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
      %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
      %m1 = tt.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %sa = tt.splat %lda : i32 -> tensor<64x1xi32>
      %ma = arith.muli %m1, %sa : tensor<64x1xi32>
      %mab = tt.broadcast %ma : tensor<64x1xi32> -> tensor<64x32xi32>
      %ka = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
      %oa = arith.addi %mab, %kab : tensor<64x32xi32>
      %as = tt.splat %a : !tt.ptr<bf16> -> tensor<64x32x!tt.ptr<bf16>>
      %ap = tt.addptr %as, %oa : tensor<64x32x!tt.ptr<bf16>>, tensor<64x32xi32>
      %av = tt.load %ap : tensor<64x32x!tt.ptr<bf16>>
      %kb = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %sb = tt.splat %ldb : i32 -> tensor<32x1xi32>
      %kbs = arith.muli %kb, %sb : tensor<32x1xi32>
      %kbb = tt.broadcast %kbs : tensor<32x1xi32> -> tensor<32x64xi32>
      %nb = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %nbb = tt.broadcast %nb : tensor<1x64xi32> -> tensor<32x64xi32>
      %ob = arith.addi %kbb, %nbb : tensor<32x64xi32>
      %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
      %bp = tt.addptr %bs, %ob : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi32>
      %bv = tt.load %bp : tensor<32x64x!tt.ptr<bf16>>
      %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
      %d = tt.dot %av, %bv, %zero : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
      %sc = tt.splat %ldc : i32 -> tensor<64x1xi32>
      %mc = arith.muli %m1, %sc : tensor<64x1xi32>
      %mcb = tt.broadcast %mc : tensor<64x1xi32> -> tensor<64x64xi32>
      %ncb = tt.broadcast %nb : tensor<1x64xi32> -> tensor<64x64xi32>
      %oc = arith.addi %mcb, %ncb : tensor<64x64xi32>
      %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
      %cp = tt.addptr %cs, %oc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
      tt.store %cp, %d : tensor<64x64x!tt.ptr<f32>>
      tt.return
    }
  }
}
