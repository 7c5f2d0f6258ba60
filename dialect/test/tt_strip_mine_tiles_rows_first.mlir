// tt-strip-mine-tiles: when a function's budget cuts both a parallel and a reduced axis, the
// parallel rows are cut first; the reduced axis is cut inside a row chunk only if that chunk is
// still over budget. Inductor's softmax + dropout over 128x16 (philox per lane) had its 16
// columns cut first: the column chunk loops copied a 1x16 index load to the stack, a write
// without the row axis, so the row plan was refused and the 128 rows stayed whole (54 s to
// compile, 872 KB). Rows first: one loop over 8-row chunks, each a whole 8x16 softmax (1 s, 41 KB);
// the column-only load and its assert stay before the loop.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

// CHECK-LABEL: tt.func public @dropout_softmax(
// CHECK: tt.load %{{.*}} : tensor<1x16x!tt.ptr<i64>>
// CHECK: tt.assert %{{.*}} : tensor<1x16xi1>
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<8x16x!tt.ptr<f32>>
// CHECK: "tt.reduce"
// CHECK: (tensor<8x16xf32>) -> tensor<8xf32>
// CHECK-NOT: scf.for
// CHECK: math.exp %{{.*}} : tensor<8x16xf32>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<8x16x!tt.ptr<f32>>
// CHECK-NOT: tensor<128x16xf32>
module {
  tt.func public @dropout_softmax(%in: !tt.ptr<f32>, %idx: !tt.ptr<i64>, %out: !tt.ptr<f32>) {
    %width = arith.constant dense<16> : tensor<128x1xi32>
    %limit = arith.constant dense<16> : tensor<1x16xi64>
    %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %rowoff = arith.muli %rows2, %width : tensor<128x1xi32>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %rb = tt.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x16xi32>
    %cb = tt.broadcast %cols2 : tensor<1x16xi32> -> tensor<128x16xi32>
    %offs = arith.addi %rb, %cb : tensor<128x16xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<128x16x!tt.ptr<f32>>
    %a = tt.addptr %p, %offs : tensor<128x16x!tt.ptr<f32>>, tensor<128x16xi32>
    %x = tt.load %a : tensor<128x16x!tt.ptr<f32>>
    %ip = tt.splat %idx : !tt.ptr<i64> -> tensor<1x16x!tt.ptr<i64>>
    %ia = tt.addptr %ip, %cols2 : tensor<1x16x!tt.ptr<i64>>, tensor<1x16xi32>
    %i = tt.load %ia : tensor<1x16x!tt.ptr<i64>>
    %ok = arith.cmpi slt, %i, %limit : tensor<1x16xi64>
    tt.assert %ok, "index out of bounds: 0 <= tmp < 16" : tensor<1x16xi1>
    %if = arith.sitofp %i : tensor<1x16xi64> to tensor<1x16xf32>
    %ib = tt.broadcast %if : tensor<1x16xf32> -> tensor<128x16xf32>
    %y = arith.addf %x, %ib : tensor<128x16xf32>
    %max = "tt.reduce"(%y) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %m = arith.maxnumf %l, %r : f32
      tt.reduce.return %m : f32
    }) : (tensor<128x16xf32>) -> tensor<128xf32>
    %max2 = tt.expand_dims %max {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %maxb = tt.broadcast %max2 : tensor<128x1xf32> -> tensor<128x16xf32>
    %d = arith.subf %y, %maxb : tensor<128x16xf32>
    %e1 = math.exp %d : tensor<128x16xf32>
    %e2 = math.sin %e1 : tensor<128x16xf32>
    %e3 = math.cos %e2 : tensor<128x16xf32>
    %e4 = math.exp %e3 : tensor<128x16xf32>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<128x16x!tt.ptr<f32>>
    %oa = tt.addptr %op, %offs : tensor<128x16x!tt.ptr<f32>>, tensor<128x16xi32>
    tt.store %oa, %e4 : tensor<128x16x!tt.ptr<f32>>
    tt.return
  }
}
