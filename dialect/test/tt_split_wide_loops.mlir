// tt-split-wide-loops: a loop carrying rows wider than the registers (or, carrying nothing,
// computing such rows) whose body works lane by lane becomes one loop per slice of lanes. The
// slices' results feed their own reductions, combined in lane order. Loops whose body mixes
// lanes, whose results are used whole, or that are narrow already are left alone.
// RUN: tcpu-opt %s --tt-split-wide-loops | FileCheck %s
// RUN: tcpu-opt %s --tt-split-wide-loops=carried-registers=16 | FileCheck %s --check-prefix=WIDE

module {
  // A 64-lane f32 sum (16 registers) in slices of 32 lanes (8 registers).
  // CHECK-LABEL: tt.func @row_sum(
  // CHECK: %[[R0:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  // CHECK: %[[S0:.*]] = scf.for {{.*}} -> (tensor<32xf32>)
  // CHECK:   arith.addi %{{.*}}, %[[R0]] : tensor<32xi32>
  // CHECK:   tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<f32>>
  // CHECK:   arith.addf %{{.*}} : tensor<32xf32>
  // CHECK: %[[P0:.*]] = "tt.reduce"(%[[S0]])
  // CHECK: %[[R1:.*]] = tt.make_range {end = 64 : i32, start = 32 : i32} : tensor<32xi32>
  // CHECK: %[[S1:.*]] = scf.for {{.*}} -> (tensor<32xf32>)
  // CHECK:   arith.addi %{{.*}}, %[[R1]] : tensor<32xi32>
  // CHECK: %[[P1:.*]] = "tt.reduce"(%[[S1]])
  // CHECK: %[[SUM:.*]] = arith.addf %[[P0]], %[[P1]] : f32
  // CHECK-NOT: scf.for
  // CHECK: tt.return %[[SUM]] : f32
  // WIDE-LABEL: tt.func @row_sum(
  // WIDE-COUNT-1: scf.for
  // WIDE-NOT: scf.for
  tt.func @row_sum(%x: !tt.ptr<f32>, %n: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %bound = tt.splat %n : i32 -> tensor<64xi32>
    %acc = scf.for %off = %c0 to %n step %c64 iter_args(%sum = %zero) -> (tensor<64xf32>) : i32 {
      %o = tt.splat %off : i32 -> tensor<64xi32>
      %idx = arith.addi %o, %cols : tensor<64xi32>
      %ptrs = tt.addptr %base, %idx : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %mask = arith.cmpi slt, %idx, %bound : tensor<64xi32>
      %v = tt.load %ptrs, %mask, %zero : tensor<64x!tt.ptr<f32>>
      %next = arith.addf %sum, %v : tensor<64xf32>
      scf.yield %next : tensor<64xf32>
    }
    %total = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64xf32>) -> f32
    tt.return %total : f32
  }

  // An argmax carried as two rows (values and indices, 8 bytes a lane): slices of 16 lanes,
  // combined by the two-operand combine region.
  // CHECK-LABEL: tt.func @row_argmax(
  // WIDE-LABEL: tt.func @row_argmax(
  // CHECK-COUNT-4: scf.for {{.*}} -> (tensor<16xf32>, tensor<16xi32>)
  // CHECK-NOT: scf.for
  // CHECK: tt.return
  tt.func @row_argmax(%x: !tt.ptr<f32>, %n: i32) -> (f32, i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %low = arith.constant dense<0xFF800000> : tensor<64xf32>
    %none = arith.constant dense<0> : tensor<64xi32>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %r:2 = scf.for %off = %c0 to %n step %c64 iter_args(%best = %low, %at = %none) -> (tensor<64xf32>, tensor<64xi32>) : i32 {
      %o = tt.splat %off : i32 -> tensor<64xi32>
      %idx = arith.addi %o, %cols : tensor<64xi32>
      %ptrs = tt.addptr %base, %idx : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %v = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
      %better = arith.cmpf ogt, %v, %best : tensor<64xf32>
      %nb = arith.select %better, %v, %best : tensor<64xi1>, tensor<64xf32>
      %na = arith.select %better, %idx, %at : tensor<64xi1>, tensor<64xi32>
      scf.yield %nb, %na : tensor<64xf32>, tensor<64xi32>
    }
    %m:2 = "tt.reduce"(%r#0, %r#1) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %b, %a : f32
      %v = arith.select %gt, %b, %a : f32
      %i = arith.select %gt, %bi, %ai : i32
      tt.reduce.return %v, %i : f32, i32
    }) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
    tt.return %m#0, %m#1 : f32, i32
  }

  // Nothing carried, a 64-lane f32 row loaded, scaled and stored: slices of 32 lanes.
  // CHECK-LABEL: tt.func @row_scale(
  // CHECK: scf.for
  // CHECK:   tt.store %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<f32>>
  // CHECK: scf.for
  // CHECK:   tt.store %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<f32>>
  // CHECK-NOT: scf.for
  tt.func @row_scale(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32, %s: f32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    scf.for %off = %c0 to %n step %c64 : i32 {
      %o = tt.splat %off : i32 -> tensor<64xi32>
      %idx = arith.addi %o, %cols : tensor<64xi32>
      %p = tt.addptr %xs, %idx : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %q = tt.addptr %ys, %idx : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %v = tt.load %p : tensor<64x!tt.ptr<f32>>
      %k = tt.splat %s : f32 -> tensor<64xf32>
      %w = arith.mulf %v, %k : tensor<64xf32>
      tt.store %q, %w : tensor<64x!tt.ptr<f32>>
    }
    tt.return
  }

  // Left alone: the body reduces across lanes; the result is stored whole; the row fits.
  // CHECK-LABEL: tt.func @not_split(
  // CHECK-COUNT-3: scf.for
  // CHECK-NOT: scf.for
  tt.func @not_split(%x: !tt.ptr<f32>, %n: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %small = arith.constant dense<0.000000e+00> : tensor<16xf32>
    %f0 = arith.constant 0.000000e+00 : f32
    %base = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %ptrs = tt.addptr %base, %cols : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %mixed = scf.for %i = %c0 to %n step %c1 iter_args(%t = %f0) -> (f32) : i32 {
      %v = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
      %r = "tt.reduce"(%v) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tt.reduce.return %s : f32
      }) : (tensor<64xf32>) -> f32
      %u = arith.addf %t, %r : f32
      scf.yield %u : f32
    }
    %whole = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64xf32>) : i32 {
      %v = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
      %a = arith.addf %acc, %v : tensor<64xf32>
      scf.yield %a : tensor<64xf32>
    }
    tt.store %ptrs, %whole : tensor<64x!tt.ptr<f32>>
    %narrow = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %small) -> (tensor<16xf32>) : i32 {
      %a = arith.addf %acc, %acc : tensor<16xf32>
      scf.yield %a : tensor<16xf32>
    }
    tt.return %mixed : f32
  }
}
