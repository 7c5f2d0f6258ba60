// tt-strip-mine-tiles: a reshape keeps an axis where a dimension of one side spans the same
// lanes as a dimension of the other: 64x128 -> 4096x2x1 keeps the 64 rows as the leading 4096,
// 64 lanes a row, and 8192 -> 64x128 keeps them as the 8192, 128 lanes a row. The rows are
// chunked there in those units (a make_range of the 8192 starts at the chunk's first row times
// 128). Inductor's sort views its 8x128 tile as 512x2x1 ... 8x2x64 for each step of its bitonic
// network; with its rows whole it was 21 s and 704 KB, one row a chunk 3 s and 163 KB.
// A reshape whose other dimensions are mixed (128x64, transposed back onto the rows) fixes
// them: those rows stay whole.
// RUN: tcpu-opt %s --tt-strip-mine-tiles -split-input-file | FileCheck %s

// CHECK-LABEL: tt.func public @pair_sums(
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[ROWS:.*]] = arith.constant 2 : i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[I]], %[[ROWS]] : i32
// CHECK: tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
// CHECK: %[[UNIT:.*]] = arith.constant 128 : i32
// CHECK: arith.muli %[[FIRST]], %[[UNIT]] : i32
// CHECK: tt.reshape %{{.*}} : tensor<256xi32> -> tensor<2x128xi32>
// CHECK: tt.load %{{.*}} : tensor<2x128x!tt.ptr<f32>>
// CHECK: tt.reshape %{{.*}} : tensor<2x128xf32> -> tensor<128x2x1xf32>
// CHECK: (tensor<128x2x1xf32>) -> tensor<128x1xf32>
// CHECK: tt.reshape %{{.*}} : tensor<128x2x1xf32> -> tensor<2x128xf32>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<2x128x!tt.ptr<f32>>
// CHECK-NOT: tensor<64x128xf32>
module {
  tt.func public @pair_sums(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %lanes = tt.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32>
    %offs = tt.reshape %lanes : tensor<8192xi32> -> tensor<64x128xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
    %a = tt.addptr %p, %offs : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
    %x = tt.load %a : tensor<64x128x!tt.ptr<f32>>
    %pairs = tt.reshape %x : tensor<64x128xf32> -> tensor<4096x2x1xf32>
    %sum = "tt.reduce"(%pairs) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<4096x2x1xf32>) -> tensor<4096x1xf32>
    %sum3 = tt.expand_dims %sum {axis = 1 : i32} : tensor<4096x1xf32> -> tensor<4096x1x1xf32>
    %sumb = tt.broadcast %sum3 : tensor<4096x1x1xf32> -> tensor<4096x2x1xf32>
    %y = arith.subf %sumb, %pairs : tensor<4096x2x1xf32>
    %back = tt.reshape %y : tensor<4096x2x1xf32> -> tensor<64x128xf32>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
    %oa = tt.addptr %op, %offs : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
    tt.store %oa, %back : tensor<64x128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @mixed_rows(
// CHECK-NOT: scf.for
// CHECK: tt.load %{{.*}} : tensor<64x128x!tt.ptr<f32>>
// CHECK: tt.trans
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x128x!tt.ptr<f32>>
module {
  tt.func public @mixed_rows(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %lanes = tt.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32>
    %offs = tt.reshape %lanes : tensor<8192xi32> -> tensor<64x128xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
    %a = tt.addptr %p, %offs : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
    %x = tt.load %a : tensor<64x128x!tt.ptr<f32>>
    %view = tt.reshape %x : tensor<64x128xf32> -> tensor<128x64xf32>
    %t = tt.trans %view {order = array<i32: 1, 0>} : tensor<128x64xf32> -> tensor<64x128xf32>
    %y = arith.addf %x, %t : tensor<64x128xf32>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
    %oa = tt.addptr %op, %offs : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
    tt.store %oa, %y : tensor<64x128x!tt.ptr<f32>>
    tt.return
  }
}
