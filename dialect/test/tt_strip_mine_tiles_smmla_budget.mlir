// tt-strip-mine-tiles: an SMMLA dot's multiply-adds count half against the dot budget (one
// SMMLA does 32 of them), and its M and N axes count half against every budget, as BFMMLA's do
// (every packed operand of b serves all the tile's rows, every one of a all its columns): a
// split-K matmul's 64x64x32 int8 K step stays one tile, its rows of a and columns of b packed
// once a K step (as 32x32 tiles over the whole K step, each tile packed its own rows of a and
// columns of b: every operand twice).
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

// CHECK-LABEL: tt.func @smmla(
// CHECK-NOT: scf.for
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (tensor<64x32x!tt.ptr<i8>>, tensor<32x64x!tt.ptr<i8>>, tensor<64x64xi32>)
// CHECK-NOT: scf.for
// CHECK:   tt.dot %{{.*}} : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
// CHECK: }
// CHECK-NOT: scf.for
// CHECK: tt.store %{{.*}} : tensor<64x64x!tt.ptr<i32>>
// CHECK-NOT: tensor<32x32xi8>
module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["dotprod", "i8mm"], vector_bits = 0>} {
  tt.func @smmla(%a: !tt.ptr<i8>, %b: !tt.ptr<i8>, %c: !tt.ptr<i32>, %steps: i32) {
    %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %c64m = arith.constant dense<64> : tensor<64x1xi32>
    %c64k = arith.constant dense<64> : tensor<32x1xi32>
    %step_a = arith.constant dense<32> : tensor<64x32xi32>
    %step_b = arith.constant dense<2048> : tensor<32x64xi32>
    %m = tt.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %am = arith.muli %m, %c64m : tensor<64x1xi32>
    %amb = tt.broadcast %am : tensor<64x1xi32> -> tensor<64x32xi32>
    %ka = tt.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %kab = tt.broadcast %ka : tensor<1x32xi32> -> tensor<64x32xi32>
    %ao = arith.addi %amb, %kab : tensor<64x32xi32>
    %as = tt.splat %a : !tt.ptr<i8> -> tensor<64x32x!tt.ptr<i8>>
    %ap = tt.addptr %as, %ao : tensor<64x32x!tt.ptr<i8>>, tensor<64x32xi32>
    %kb = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %bk = arith.muli %kb, %c64k : tensor<32x1xi32>
    %bkb = tt.broadcast %bk : tensor<32x1xi32> -> tensor<32x64xi32>
    %n = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %bnb = tt.broadcast %n : tensor<1x64xi32> -> tensor<32x64xi32>
    %bo = arith.addi %bkb, %bnb : tensor<32x64xi32>
    %bs = tt.splat %b : !tt.ptr<i8> -> tensor<32x64x!tt.ptr<i8>>
    %bp = tt.addptr %bs, %bo : tensor<32x64x!tt.ptr<i8>>, tensor<32x64xi32>
    %zero = arith.constant dense<0> : tensor<64x64xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%pa = %ap, %pb = %bp, %sum = %zero) -> (tensor<64x32x!tt.ptr<i8>>, tensor<32x64x!tt.ptr<i8>>, tensor<64x64xi32>) : i32 {
      %av = tt.load %pa : tensor<64x32x!tt.ptr<i8>>
      %bv = tt.load %pb : tensor<32x64x!tt.ptr<i8>>
      %d = tt.dot %av, %bv, %sum : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
      %na = tt.addptr %pa, %step_a : tensor<64x32x!tt.ptr<i8>>, tensor<64x32xi32>
      %nb = tt.addptr %pb, %step_b : tensor<32x64x!tt.ptr<i8>>, tensor<32x64xi32>
      scf.yield %na, %nb, %d : tensor<64x32x!tt.ptr<i8>>, tensor<32x64x!tt.ptr<i8>>, tensor<64x64xi32>
    }
    %cm = tt.broadcast %am : tensor<64x1xi32> -> tensor<64x64xi32>
    %cn = tt.broadcast %n : tensor<1x64xi32> -> tensor<64x64xi32>
    %co = arith.addi %cm, %cn : tensor<64x64xi32>
    %cs = tt.splat %c : !tt.ptr<i32> -> tensor<64x64x!tt.ptr<i32>>
    %cp = tt.addptr %cs, %co : tensor<64x64x!tt.ptr<i32>>, tensor<64x64xi32>
    tt.store %cp, %acc#2 : tensor<64x64x!tt.ptr<i32>>
    tt.return
  }
}
