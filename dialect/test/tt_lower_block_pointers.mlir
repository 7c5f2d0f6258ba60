// tt-lower-block-pointers: a block pointer (tt.make_tensor_ptr, tt.advance) or a tensor
// descriptor is a base, sizes and strides; a load or store through it becomes a tensor of
// pointers base + sum_d (offset_d + i_d) * stride_d, masked to 0 <= offset_d + i_d < size_d
// along the checked dimensions (all of them for descriptors), reading NaN for padding = nan
// and 0 otherwise. A loop carrying a block pointer carries its i32 offsets. A !tt.tensordesc
// kernel argument becomes the base, the sizes and the strides (i64), outermost first.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics --tt-lower-block-pointers | FileCheck %s

// CHECK-LABEL: tt.func public @copy(
// CHECK-SAME: %[[SRC:[a-z0-9]+]]: !tt.ptr<f32>, %{{[a-z0-9]+}}: !tt.ptr<f32>, %[[M:[a-z0-9]+]]: i64, %[[N:[a-z0-9]+]]: i64, %[[LD:[a-z0-9]+]]: i64)
// CHECK: scf.for %{{.*}} iter_args(%[[ROW:.*]] = %{{.*}}, %[[COL:.*]] = %{{.*}}) -> (i32, i32)
// CHECK:   %[[R:.*]] = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
// CHECK:   %[[RS:.*]] = tt.splat %[[ROW]] : i32 -> tensor<4xi32>
// CHECK:   %[[RI:.*]] = arith.addi %[[RS]], %[[R]] : tensor<4xi32>
// CHECK:   %[[RW:.*]] = arith.extsi %[[RI]] : tensor<4xi32> to tensor<4xi64>
// CHECK:   %[[RE:.*]] = tt.expand_dims %[[RW]] {axis = 1 : i32} : tensor<4xi64> -> tensor<4x1xi64>
// CHECK:   %[[RB:.*]] = tt.broadcast %[[RE]] : tensor<4x1xi64> -> tensor<4x8xi64>
// CHECK:   %[[LDS:.*]] = tt.splat %[[LD]] : i64 -> tensor<4x8xi64>
// CHECK:   arith.muli %[[RB]], %[[LDS]] : tensor<4x8xi64>
// CHECK:   arith.cmpi sge, %[[RB]], %{{.*}} : tensor<4x8xi64>
// CHECK:   %[[MS:.*]] = tt.splat %[[M]] : i64 -> tensor<4x8xi64>
// CHECK:   arith.cmpi slt, %[[RB]], %[[MS]] : tensor<4x8xi64>
// CHECK:   tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
// CHECK:   %[[BASE:.*]] = tt.splat %[[SRC]] : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
// CHECK:   %[[PTRS:.*]] = tt.addptr %[[BASE]], %{{.*}} : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi64>
// CHECK:   %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<4x8xf32>
// CHECK:   %[[X:.*]] = tt.load %[[PTRS]], %{{.*}}, %[[NAN]] : tensor<4x8x!tt.ptr<f32>>
// CHECK:   tt.store %{{.*}}, %[[X]], %{{.*}} : tensor<4x8x!tt.ptr<f32>>
// CHECK:   %[[NEXT_ROW:.*]] = arith.addi %[[ROW]], %{{.*}} : i32
// CHECK:   %[[NEXT_COL:.*]] = arith.addi %[[COL]], %{{.*}} : i32
// CHECK:   scf.yield %[[NEXT_ROW]], %[[NEXT_COL]] : i32, i32
// CHECK-NOT: tt.make_tensor_ptr
// CHECK-NOT: tt.advance
module {
  tt.func public @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %m: i64, %n: i64, %ld: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c4 = arith.constant 4 : i32
    %c3 = arith.constant 3 : i32
    %c1_i32 = arith.constant 1 : i32
    %p = tt.make_tensor_ptr %src, [%m, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
    %q = tt.make_tensor_ptr %dst, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
    %r = scf.for %i = %c0 to %c3 step %c1_i32 iter_args(%a = %p) -> (!tt.ptr<tensor<4x8xf32>>) : i32 {
      %x = tt.load %a {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<4x8xf32>>
      tt.store %q, %x {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4x8xf32>>
      %a2 = tt.advance %a, [%c4, %c0] : <tensor<4x8xf32>>
      scf.yield %a2 : !tt.ptr<tensor<4x8xf32>>
    }
    tt.return
  }
}

// -----

// The innermost stride is an argument: the load is versioned on it being 1. That version
// multiplies by the constant, so its rows are consecutive elements, loaded as vectors; the
// other keeps the argument (every lane its own access).
// CHECK-LABEL: tt.func public @descriptor(
// CHECK-SAME: %[[BASE:[a-z0-9]+]]: !tt.ptr<f16>, %[[S0:[a-z0-9]+]]: i64, %[[S1:[a-z0-9]+]]: i64, %[[T0:[a-z0-9]+]]: i64, %[[T1:[a-z0-9]+]]: i64, %{{[a-z0-9]+}}: i32)
// CHECK-SAME: attributes {tt.unit_stride_args = array<i64: 4>}
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[UNIT:.*]] = arith.cmpi eq, %[[T1]], %[[ONE]] : i64
// CHECK: %[[X:.*]] = scf.if %[[UNIT]] -> (tensor<2x16xf16>) {
// CHECK:   tt.splat %[[T0]] : i64 -> tensor<2x16xi64>
// CHECK:   tt.splat %[[S0]] : i64 -> tensor<2x16xi64>
// CHECK:   tt.splat %[[ONE]] : i64 -> tensor<2x16xi64>
// CHECK:   tt.splat %[[S1]] : i64 -> tensor<2x16xi64>
// CHECK:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x16xf16>
// CHECK:   %[[UNIT_X:.*]] = tt.load %{{.*}}, %{{.*}}, %[[ZERO]] : tensor<2x16x!tt.ptr<f16>>
// CHECK:   scf.yield %[[UNIT_X]]
// CHECK: } else {
// CHECK:   tt.splat %[[T0]] : i64 -> tensor<2x16xi64>
// CHECK:   tt.splat %[[T1]] : i64 -> tensor<2x16xi64>
// CHECK:   tt.load
// CHECK: tt.reshape %[[X]] : tensor<2x16xf16> -> tensor<32xf16>
module {
  tt.func public @descriptor(%d: !tt.tensordesc<tensor<2x16xf16>>, %i: i32) -> tensor<32xf16> {
    %x = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<2x16xf16>> -> tensor<32xf16>
    tt.return %x : tensor<32xf16>
  }
}

// -----

// Every descriptor argument's innermost stride is listed, at its index after expansion, for the
// launcher (Triton's TensorDescriptor makes it 1); a kernel without one has no list.
// CHECK-LABEL: tt.func public @two_descriptors(
// CHECK-SAME: %{{[a-z0-9]+}}: !tt.ptr<f32>, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: !tt.ptr<f32>, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64)
// CHECK-SAME: attributes {tt.unit_stride_args = array<i64: 4, 8>}
// CHECK-LABEL: tt.func public @no_descriptor(
// CHECK-NOT: tt.unit_stride_args
module {
  tt.func public @two_descriptors(%a: !tt.tensordesc<tensor<2x4xf32>>, %i: i32, %b: !tt.tensordesc<tensor<8xf32>>) {
    %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<2x4xf32>> -> tensor<8xf32>
    tt.descriptor_store %b[%i], %x : !tt.tensordesc<tensor<8xf32>>, tensor<8xf32>
    tt.return
  }
  tt.func public @no_descriptor(%p: !tt.ptr<f32>) {
    tt.return
  }
}

// -----

module {
  tt.func private @helper(%p: !tt.ptr<tensor<4xf32>>) {
    tt.return
  }
  tt.func public @passes_block_pointer(%src: !tt.ptr<f32>, %n: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %src, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xf32>>
    // expected-error @+1 {{'tt.call' on a block pointer or tensor descriptor is not supported by the CPU backend}}
    tt.call @helper(%p) : (!tt.ptr<tensor<4xf32>>) -> ()
    tt.return
  }
}
