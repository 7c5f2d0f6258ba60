// tt-strip-mine-tiles: a reduction cut into chunks combines them with its own combine
// region, applied to the chunks' partial results. Inductor's Welford combine (var_mean)
// uses a 0.0 that canonicalization hoisted out of the region to the function's entry: on
// tensor partials it is splat to their shape (it made `arith.cmpf` with a tensor and an f32
// operand, which the verifier refused).
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @welford_rows(
  // CHECK: scf.for {{.*}} -> (tensor<8xf32>, tensor<8xf32>)
  // CHECK: "tt.reduce"
  // CHECK: tt.splat %{{.*}} : f32 -> tensor<8xf32>
  // CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : tensor<8xf32>
  tt.func public @welford_rows(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %ones = arith.constant dense<1.000000e+00> : tensor<8x512xf32>
    %width = arith.constant dense<512> : tensor<8x1xi32>
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %rowoff = arith.muli %rows2, %width : tensor<8x1xi32>
    %cols = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
    %rb = tt.broadcast %rowoff : tensor<8x1xi32> -> tensor<8x512xi32>
    %cb = tt.broadcast %cols2 : tensor<1x512xi32> -> tensor<8x512xi32>
    %offs = arith.addi %rb, %cb : tensor<8x512xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<8x512x!tt.ptr<f32>>
    %a = tt.addptr %p, %offs : tensor<8x512x!tt.ptr<f32>>, tensor<8x512xi32>
    %x = tt.load %a : tensor<8x512x!tt.ptr<f32>>
    %mean, %weight = "tt.reduce"(%x, %ones) <{axis = 1 : i32}> ({
    ^bb0(%m1: f32, %w1: f32, %m2: f32, %w2: f32):
      %nw = arith.addf %w1, %w2 : f32
      %empty = arith.cmpf oeq, %nw, %zero : f32
      %ratio = arith.divf %w2, %nw : f32
      %r = arith.select %empty, %zero, %ratio : f32
      %d = arith.subf %m2, %m1 : f32
      %dm = arith.mulf %d, %r : f32
      %m = arith.addf %m1, %dm : f32
      tt.reduce.return %m, %nw : f32, f32
    }) : (tensor<8x512xf32>, tensor<8x512xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %oa = tt.addptr %op, %rows : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %oa, %mean : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}
