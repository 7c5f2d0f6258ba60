// tt-loop-pointers-to-offsets: tensors of pointers carried by scf.for and advanced by a splat
// step (a tt.splat of a scalar, or a splat constant) become one i64 element offset from the
// initial tensor; the body and the loop's users see tt.addptr %p0, splat(%offset). A tensor
// advanced by a non-uniform step stays as it is.
// RUN: tcpu-opt %s --tt-loop-pointers-to-offsets | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @k_loop(
  // CHECK-SAME: %[[A:[^:]+]]: !tt.ptr<i8>, %[[N:[^:]+]]: i32, %[[STEP:[^:]+]]: i32
  // CHECK: %[[P0:[0-9]+]] = tt.addptr %{{[0-9]+}}, %{{[0-9]+}} : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
  // CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
  // CHECK: %[[LOOP:[0-9]+]]:3 = scf.for %{{.+}} iter_args(%[[OFF_P:.+]] = %[[ZERO]], %[[OFF_Q:.+]] = %[[ZERO]], %[[R:.+]] = %[[P0]]) -> (i64, i64, tensor<16x!tt.ptr<i8>>)
  // CHECK: %[[SP:[0-9]+]] = tt.splat %[[OFF_P]] : i64 -> tensor<16xi64>
  // CHECK: %[[PTR_P:[0-9]+]] = tt.addptr %[[P0]], %[[SP]] : tensor<16x!tt.ptr<i8>>, tensor<16xi64>
  // CHECK: %[[SQ:[0-9]+]] = tt.splat %[[OFF_Q]] : i64 -> tensor<16xi64>
  // CHECK: %[[PTR_Q:[0-9]+]] = tt.addptr %[[P0]], %[[SQ]]
  // CHECK: %[[V:[0-9]+]] = tt.load %[[PTR_P]]
  // CHECK: tt.store %[[PTR_Q]], %[[V]]
  // The ramp step is not uniform: that pointer stays loop-carried.
  // CHECK: %[[NEXT_R:[0-9]+]] = tt.addptr %[[R]], %{{[0-9]+}} : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
  // CHECK: %[[WIDE:[0-9]+]] = arith.extsi %[[STEP]] : i32 to i64
  // CHECK: %[[NEXT_P:[0-9]+]] = arith.addi %[[OFF_P]], %[[WIDE]] : i64
  // CHECK: %[[C32:.+]] = arith.constant 32 : i32
  // CHECK: %[[C32_WIDE:[0-9]+]] = arith.extsi %[[C32]] : i32 to i64
  // CHECK: %[[NEXT_Q:[0-9]+]] = arith.addi %[[OFF_Q]], %[[C32_WIDE]] : i64
  // CHECK: scf.yield %[[NEXT_P]], %[[NEXT_Q]], %[[NEXT_R]] : i64, i64, tensor<16x!tt.ptr<i8>>
  // CHECK: %[[FINAL:[0-9]+]] = tt.splat %[[LOOP]]#0 : i64 -> tensor<16xi64>
  // CHECK: %[[AFTER:[0-9]+]] = tt.addptr %[[P0]], %[[FINAL]]
  // CHECK: tt.store %[[AFTER]]
  tt.func public @k_loop(%a: !tt.ptr<i8>, %n: i32, %step: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %offsets = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %base = tt.splat %a : !tt.ptr<i8> -> tensor<16x!tt.ptr<i8>>
    %p0 = tt.addptr %base, %offsets : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
    %inc = tt.splat %step : i32 -> tensor<16xi32>
    %k32 = arith.constant dense<32> : tensor<16xi32>
    %out:3 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %q = %p0, %r = %p0) -> (tensor<16x!tt.ptr<i8>>, tensor<16x!tt.ptr<i8>>, tensor<16x!tt.ptr<i8>>) : i32 {
      %v = tt.load %p : tensor<16x!tt.ptr<i8>>
      tt.store %q, %v : tensor<16x!tt.ptr<i8>>
      %p_next = tt.addptr %p, %inc : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
      %q_next = tt.addptr %q, %k32 : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
      %r_next = tt.addptr %r, %offsets : tensor<16x!tt.ptr<i8>>, tensor<16xi32>
      scf.yield %p_next, %q_next, %r_next : tensor<16x!tt.ptr<i8>>, tensor<16x!tt.ptr<i8>>, tensor<16x!tt.ptr<i8>>
    }
    %zero = arith.constant dense<0> : tensor<16xi8>
    tt.store %out#0, %zero : tensor<16x!tt.ptr<i8>>
    tt.return
  }
}

// A tensor of integers advanced by a splat (flex attention's `offs_n += BLOCK_N`, compared with
// the query rows for its mask) is carried as a scalar of its element type: %t = %t0 + splat.
// CHECK-LABEL: tt.func public @index_induction(
// CHECK: %[[T0:[0-9]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[LOOP:[0-9]+]] = scf.for %{{.+}} iter_args(%[[OFF:.+]] = %[[ZERO]]) -> (i32)
// CHECK: %[[S:[0-9]+]] = tt.splat %[[OFF]] : i32 -> tensor<16xi32>
// CHECK: %[[T:[0-9]+]] = arith.addi %[[T0]], %[[S]] : tensor<16xi32>
// CHECK: arith.cmpi sge, %{{.+}}, %[[T]] : tensor<16xi32>
// CHECK: %[[NEXT:[0-9]+]] = arith.addi %[[OFF]], %{{.+}} : i32
// CHECK: scf.yield %[[NEXT]] : i32
// CHECK: %[[S1:[0-9]+]] = tt.splat %[[LOOP]] : i32 -> tensor<16xi32>
// CHECK: %[[R:[0-9]+]] = arith.addi %[[T0]], %[[S1]] : tensor<16xi32>
// CHECK: tt.return %[[R]] : tensor<16xi32>
module {
  tt.func public @index_induction(%out: !tt.ptr<i1>, %rows: tensor<16xi32>, %n: i32, %block: i32) -> tensor<16xi32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %t0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (tensor<16xi32>) : i32 {
      %mask = arith.cmpi sge, %rows, %t : tensor<16xi32>
      %p = tt.splat %out : !tt.ptr<i1> -> tensor<16x!tt.ptr<i1>>
      tt.store %p, %mask : tensor<16x!tt.ptr<i1>>
      %s = tt.splat %block : i32 -> tensor<16xi32>
      %next = arith.addi %t, %s : tensor<16xi32>
      scf.yield %next : tensor<16xi32>
    }
    tt.return %r : tensor<16xi32>
  }
}
