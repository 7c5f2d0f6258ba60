// tt-strip-mine-tiles: an Inductor reduction loop (`triton_red_*`) within every budget that
// computes a polynomial math function on the tile it carries has the axis it reduces past the
// loop cut to registers as well: each chunk runs the whole loop over its lanes and reduces
// them, and the chunks' sums are added in order. Qwen3's rotary backward (sin and cos of a 2x64
// tile, summed over the positions after a loop of two steps) was 289,405 instructions as one
// 2x64 tile, most of them spills; 86,385 in 2x8 chunks. An axis reduced where it is computed
// (the row max inside the loop below) stays whole: its chunks would reload the row.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @carried_sin_sum(
  // CHECK: scf.for {{.*}} -> (tensor<2xf32>)
  // CHECK: scf.for {{.*}} -> (tensor<2x8xf32>)
  // CHECK: math.sin {{.*}} : tensor<2x8xf32>
  // CHECK: "tt.reduce"({{.*}}) <{axis = 1 : i32}>
  // CHECK: tt.store {{.*}} : tensor<2x1x!tt.ptr<f32>>
  tt.func public @carried_sin_sum(%in_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2x64xf32>
    %stride = arith.constant dense<2> : tensor<1x64xi32>
    %x = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %x2 = tt.expand_dims %x {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %acc = scf.for %off = %c0 to %c128 step %c64 iter_args(%sum = %zero) -> (tensor<2x64xf32>)  : i32 {
      %offs = tt.splat %off : i32 -> tensor<1x64xi32>
      %rr = arith.addi %offs, %r2 : tensor<1x64xi32>
      %rs = arith.muli %rr, %stride : tensor<1x64xi32>
      %xb = tt.broadcast %x2 : tensor<2x1xi32> -> tensor<2x64xi32>
      %rb = tt.broadcast %rs : tensor<1x64xi32> -> tensor<2x64xi32>
      %idx = arith.addi %xb, %rb : tensor<2x64xi32>
      %p = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<2x64x!tt.ptr<f32>>
      %a = tt.addptr %p, %idx : tensor<2x64x!tt.ptr<f32>>, tensor<2x64xi32>
      %v = tt.load %a : tensor<2x64x!tt.ptr<f32>>
      %s = math.sin %v : tensor<2x64xf32>
      %c = math.cos %v : tensor<2x64xf32>
      %sc = arith.mulf %s, %c : tensor<2x64xf32>
      %next = arith.addf %sum, %sc : tensor<2x64xf32>
      scf.yield %next : tensor<2x64xf32>
    }
    %total = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %add = arith.addf %a, %b : f32
      tt.reduce.return %add : f32
    }) : (tensor<2x64xf32>) -> tensor<2xf32>
    %t2 = tt.expand_dims %total {axis = 1 : i32} : tensor<2xf32> -> tensor<2x1xf32>
    %op = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<2x1x!tt.ptr<f32>>
    %oa = tt.addptr %op, %x2 : tensor<2x1x!tt.ptr<f32>>, tensor<2x1xi32>
    tt.store %oa, %t2 : tensor<2x1x!tt.ptr<f32>>
    tt.return
  }

  // CHECK-LABEL: tt.func public @in_place_max(
  // CHECK: scf.for {{.*}} -> (tensor<2x64xf32>)
  // CHECK: math.exp {{.*}} : tensor<2x64xf32>
  // CHECK-NOT: scf.for
  // CHECK: tt.return
  tt.func public @in_place_max(%in_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2x64xf32>
    %stride = arith.constant dense<2> : tensor<1x64xi32>
    %x = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %x2 = tt.expand_dims %x {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %acc = scf.for %off = %c0 to %c128 step %c64 iter_args(%sum = %zero) -> (tensor<2x64xf32>)  : i32 {
      %offs = tt.splat %off : i32 -> tensor<1x64xi32>
      %rr = arith.addi %offs, %r2 : tensor<1x64xi32>
      %rs = arith.muli %rr, %stride : tensor<1x64xi32>
      %xb = tt.broadcast %x2 : tensor<2x1xi32> -> tensor<2x64xi32>
      %rb = tt.broadcast %rs : tensor<1x64xi32> -> tensor<2x64xi32>
      %idx = arith.addi %xb, %rb : tensor<2x64xi32>
      %p = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<2x64x!tt.ptr<f32>>
      %a = tt.addptr %p, %idx : tensor<2x64x!tt.ptr<f32>>, tensor<2x64xi32>
      %v = tt.load %a : tensor<2x64x!tt.ptr<f32>>
      %m = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a0: f32, %b0: f32):
        %mx = arith.maxnumf %a0, %b0 : f32
        tt.reduce.return %mx : f32
      }) : (tensor<2x64xf32>) -> tensor<2xf32>
      %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<2xf32> -> tensor<2x1xf32>
      %mb = tt.broadcast %m2 : tensor<2x1xf32> -> tensor<2x64xf32>
      %d = arith.subf %v, %mb : tensor<2x64xf32>
      %e = math.exp %d : tensor<2x64xf32>
      %next = arith.addf %sum, %e : tensor<2x64xf32>
      scf.yield %next : tensor<2x64xf32>
    }
    %total = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %add = arith.addf %a, %b : f32
      tt.reduce.return %add : f32
    }) : (tensor<2x64xf32>) -> tensor<2xf32>
    %t2 = tt.expand_dims %total {axis = 1 : i32} : tensor<2xf32> -> tensor<2x1xf32>
    %op = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<2x1x!tt.ptr<f32>>
    %oa = tt.addptr %op, %x2 : tensor<2x1x!tt.ptr<f32>>, tensor<2x1xi32>
    tt.store %oa, %t2 : tensor<2x1x!tt.ptr<f32>>
    tt.return
  }
}
