// tt-version-masked-loops: a K loop (it holds a tt.dot) whose loads have range-versus-bound
// masks runs its body twice over: unmasked when the scalar test says every mask is on, the
// original otherwise. The mask computations move above the first load so the test can be
// built there. A loop without a dot is left alone.
// RUN: tcpu-opt %s --tt-version-masked-loops | FileCheck %s

module {
  // CHECK-LABEL: tt.func @k_loop(
  // CHECK: scf.for
  // CHECK: %[[MASK:[0-9]+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1x8xi32>
  // CHECK: %[[ON:[0-9]+]] = arith.cmpi slt, %c7_i64, %{{.*}} : i64
  // CHECK: %[[DOT:[0-9]+]] = scf.if %{{[0-9]+}} -> (tensor<2x2xi32>) {
  // CHECK:   %[[A:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<2x8x!tt.ptr<i8>>
  // CHECK:   tt.dot %[[A]]
  // CHECK: } else {
  // CHECK:   tt.load %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} : tensor<2x8x!tt.ptr<i8>>
  // CHECK:   tt.dot
  // CHECK: }
  // CHECK: scf.yield %[[DOT]] : tensor<2x2xi32>
  tt.func @k_loop(%a: !tt.ptr<i8>, %b: tensor<8x2xi8>, %k: i32, %n: i32) -> tensor<2x2xi32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %zero = arith.constant dense<0> : tensor<2x2xi32>
    %other = arith.constant dense<0> : tensor<2x8xi8>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<2x2xi32>) : i32 {
      %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %col1 = tt.expand_dims %col {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
      %col2 = tt.broadcast %col1 : tensor<1x8xi32> -> tensor<2x8xi32>
      %base = tt.splat %a : !tt.ptr<i8> -> tensor<2x8x!tt.ptr<i8>>
      %ptrs = tt.addptr %base, %col2 : tensor<2x8x!tt.ptr<i8>>, tensor<2x8xi32>
      %start = arith.muli %i, %c8 : i32
      %left = arith.subi %k, %start : i32
      %bound = tt.splat %left : i32 -> tensor<1x8xi32>
      %in = arith.cmpi slt, %col1, %bound : tensor<1x8xi32>
      %mask = tt.broadcast %in : tensor<1x8xi1> -> tensor<2x8xi1>
      %x = tt.load %ptrs, %mask, %other : tensor<2x8x!tt.ptr<i8>>
      %d = tt.dot %x, %b, %acc : tensor<2x8xi8> * tensor<8x2xi8> -> tensor<2x2xi32>
      scf.yield %d : tensor<2x2xi32>
    }
    tt.return %r : tensor<2x2xi32>
  }

  // CHECK-LABEL: tt.func @no_dot(
  // CHECK-NOT: scf.if
  // CHECK: tt.return
  tt.func @no_dot(%a: !tt.ptr<f32>, %n: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %base = tt.splat %a : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
      %ptrs = tt.addptr %base, %col : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
      %bound = tt.splat %m : i32 -> tensor<8xi32>
      %mask = arith.cmpi slt, %col, %bound : tensor<8xi32>
      %x = tt.load %ptrs, %mask : tensor<8x!tt.ptr<f32>>
      tt.store %ptrs, %x, %mask : tensor<8x!tt.ptr<f32>>
    }
    tt.return
  }
}
