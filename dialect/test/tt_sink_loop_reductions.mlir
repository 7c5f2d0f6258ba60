// tt-sink-loop-reductions: a loop accumulating tiles that are only reduced along an outer axis
// after it reduces each iteration's tile and carries the row (tutorial 05's dw/db sums). The
// accumulation must combine as the reduction does: addition from zero, max or min from any
// splat. Along the last axis, from a nonzero sum, with another use of the accumulator, or with
// a different combination, the loop stays as it is.
// RUN: tcpu-opt %s --tt-sink-loop-reductions | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @column_sums(
  // CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<8xf32>
  // CHECK: %[[SUMS:[0-9]+]] = scf.for %{{.+}} iter_args(%[[ROW:.+]] = %[[ZERO]]) -> (tensor<8xf32>)
  // CHECK: %[[TILE:[0-9]+]] = tt.load
  // CHECK: %[[PARTIAL:[0-9]+]] = "tt.reduce"(%[[TILE]]) <{axis = 0 : i32}>
  // CHECK: arith.addf
  // CHECK: (tensor<4x8xf32>) -> tensor<8xf32>
  // CHECK: %[[NEXT:[0-9]+]] = arith.addf %[[ROW]], %[[PARTIAL]] : tensor<8xf32>
  // CHECK: scf.yield %[[NEXT]] : tensor<8xf32>
  // CHECK-NOT: tt.reduce
  // CHECK: tt.store %{{.+}}, %[[SUMS]] : tensor<8x!tt.ptr<f32>>
  tt.func public @column_sums(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
    %ptrs = tt.splat %in : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
    %acc = scf.for %i = %c0 to %n step %c4 iter_args(%a = %zero) -> (tensor<4x8xf32>) : i32 {
      %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
      %next = arith.addf %a, %x : tensor<4x8xf32>
      scf.yield %next : tensor<4x8xf32>
    }
    %sum = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x8xf32>) -> tensor<8xf32>
    %outs = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    tt.store %outs, %sum : tensor<8x!tt.ptr<f32>>
    tt.return
  }

  // Max from -inf, the tile on the left of the update, integer and float in one loop; the
  // loop's other results stay tiles.
  // CHECK-LABEL: tt.func public @column_max(
  // CHECK: %[[NEG:.+]] = arith.constant dense<0xFF800000> : tensor<8xf32>
  // CHECK: scf.for %{{.+}} iter_args(%[[M:.+]] = %[[NEG]], %[[T:.+]] = %{{.+}}) -> (tensor<8xf32>, tensor<4x8xi32>)
  // CHECK: %[[PM:[0-9]+]] = "tt.reduce"(%{{[0-9]+}}) <{axis = 0 : i32}>
  // CHECK: arith.maxnumf %[[PM]], %[[M]] : tensor<8xf32>
  // CHECK: arith.addi %[[T]], %{{.+}} : tensor<4x8xi32>
  tt.func public @column_max(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) -> tensor<4x8xi32> {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %ninf = arith.constant dense<0xFF800000> : tensor<4x8xf32>
    %ones = arith.constant dense<1> : tensor<4x8xi32>
    %ptrs = tt.splat %in : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
    %acc:2 = scf.for %i = %c0 to %n step %c4 iter_args(%a = %ninf, %t = %ones) -> (tensor<4x8xf32>, tensor<4x8xi32>) : i32 {
      %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
      %next = arith.maxnumf %x, %a : tensor<4x8xf32>
      %count = arith.addi %t, %ones : tensor<4x8xi32>
      scf.yield %next, %count : tensor<4x8xf32>, tensor<4x8xi32>
    }
    %max = "tt.reduce"(%acc#0) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %m = arith.maxnumf %l, %r : f32
      tt.reduce.return %m : f32
    }) : (tensor<4x8xf32>) -> tensor<8xf32>
    %outs = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    tt.store %outs, %max : tensor<8x!tt.ptr<f32>>
    tt.return %acc#1 : tensor<4x8xi32>
  }

  // Left alone: a reduction along the last axis, a sum from one, an accumulator also stored,
  // and a max accumulated into a sum.
  // CHECK-LABEL: tt.func public @kept(
  // CHECK-COUNT-4: scf.for {{.+}} -> (tensor<4x8xf32>)
  // CHECK-COUNT-4: "tt.reduce"(%{{[0-9#]+}})
  tt.func public @kept(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<4x8xf32>
    %ptrs = tt.splat %in : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
    %outs = tt.splat %out : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
    %row_outs = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %col_outs = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %last = scf.for %i = %c0 to %n step %c4 iter_args(%a = %zero) -> (tensor<4x8xf32>) : i32 {
      %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
      %next = arith.addf %a, %x : tensor<4x8xf32>
      scf.yield %next : tensor<4x8xf32>
    }
    %from_one = scf.for %i = %c0 to %n step %c4 iter_args(%a = %one) -> (tensor<4x8xf32>) : i32 {
      %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
      %next = arith.addf %a, %x : tensor<4x8xf32>
      scf.yield %next : tensor<4x8xf32>
    }
    %stored = scf.for %i = %c0 to %n step %c4 iter_args(%a = %zero) -> (tensor<4x8xf32>) : i32 {
      %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
      %next = arith.addf %a, %x : tensor<4x8xf32>
      tt.store %outs, %a : tensor<4x8x!tt.ptr<f32>>
      scf.yield %next : tensor<4x8xf32>
    }
    %mixed = scf.for %i = %c0 to %n step %c4 iter_args(%a = %zero) -> (tensor<4x8xf32>) : i32 {
      %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
      %next = arith.maxnumf %a, %x : tensor<4x8xf32>
      scf.yield %next : tensor<4x8xf32>
    }
    %r0 = "tt.reduce"(%last) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x8xf32>) -> tensor<4xf32>
    tt.store %col_outs, %r0 : tensor<4x!tt.ptr<f32>>
    %r1 = "tt.reduce"(%from_one) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x8xf32>) -> tensor<8xf32>
    tt.store %row_outs, %r1 : tensor<8x!tt.ptr<f32>>
    %r2 = "tt.reduce"(%stored) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x8xf32>) -> tensor<8xf32>
    tt.store %row_outs, %r2 : tensor<8x!tt.ptr<f32>>
    %r3 = "tt.reduce"(%mixed) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x8xf32>) -> tensor<8xf32>
    tt.store %row_outs, %r3 : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}
