// Round trip of the tt ops that make and reshape tensors, as Triton 3.x prints them:
// tt.make_range, tt.splat (scalars and pointers), tt.broadcast, tt.expand_dims, tt.reshape
// (allow_reorder / efficient_layout as keywords, and Triton 3.0's {allow_reorder = false}),
// tt.trans (order), tt.cat, tt.join, tt.split, and the program ids.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @shapes(
  tt.func public @shapes(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    // CHECK: tt.get_program_id x : i32
    // CHECK: tt.get_program_id y : i32
    // CHECK: tt.get_program_id z : i32
    // CHECK: tt.get_num_programs x : i32
    // CHECK: tt.get_num_programs y : i32
    // CHECK: tt.get_num_programs z : i32
    %pid_m = tt.get_program_id x : i32
    %pid_n = tt.get_program_id y : i32
    %pid_k = tt.get_program_id z : i32
    %num_pid_m = tt.get_num_programs x : i32
    %num_pid_n = tt.get_num_programs y : i32
    %num_pid_k = tt.get_num_programs z : i32
    // CHECK: %[[RM:[a-z0-9_#]+]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    // CHECK: tt.make_range {end = 48 : i32, start = 16 : i32} : tensor<32xi32>
    %offs_m = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %offs_n = tt.make_range {end = 48 : i32, start = 16 : i32} : tensor<32xi32>
    // CHECK: tt.splat %{{.*}} : i32 -> tensor<16xi32>
    // CHECK: tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    %s = tt.splat %pid_m : i32 -> tensor<16xi32>
    %ptrs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
    // CHECK: %[[COL:[a-z0-9_#]+]] = tt.expand_dims %[[RM]] {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    // CHECK: %[[ROW:[a-z0-9_#]+]] = tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %a = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %b = tt.expand_dims %offs_n {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    // CHECK: tt.broadcast %[[COL]] : tensor<16x1xi32> -> tensor<16x32xi32>
    // CHECK: tt.broadcast %[[ROW]] : tensor<1x32xi32> -> tensor<16x32xi32>
    %a_1 = tt.broadcast %a : tensor<16x1xi32> -> tensor<16x32xi32>
    %b_2 = tt.broadcast %b : tensor<1x32xi32> -> tensor<16x32xi32>
    %offs = arith.addi %a_1, %b_2 : tensor<16x32xi32>
    %x_ptrs = tt.addptr %ptrs, %offs : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    %x = tt.load %x_ptrs : tensor<16x32x!tt.ptr<f32>>
    // Reshape: plain, the keywords of Triton >= 3.1, and 3.0's attribute spelling.
    // CHECK: tt.reshape %[[X:[a-z0-9_#]+]] : tensor<16x32xf32> -> tensor<512xf32>
    // CHECK: tt.reshape %[[X]] allow_reorder : tensor<16x32xf32> -> tensor<32x16xf32>
    // CHECK: tt.reshape %[[X]] allow_reorder efficient_layout : tensor<16x32xf32> -> tensor<8x64xf32>
    // CHECK: tt.reshape %[[X]] : tensor<16x32xf32> -> tensor<2x8x32xf32>
    // CHECK: tt.reshape %[[X]] allow_reorder : tensor<16x32xf32> -> tensor<4x128xf32>
    %flat = tt.reshape %x : tensor<16x32xf32> -> tensor<512xf32>
    %r1 = tt.reshape %x allow_reorder : tensor<16x32xf32> -> tensor<32x16xf32>
    %r2 = tt.reshape %x allow_reorder efficient_layout : tensor<16x32xf32> -> tensor<8x64xf32>
    %r3 = tt.reshape %x {allow_reorder = false} : tensor<16x32xf32> -> tensor<2x8x32xf32>
    %r4 = tt.reshape %x {allow_reorder = true} : tensor<16x32xf32> -> tensor<4x128xf32>
    // CHECK: tt.trans %[[X]] {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
    // CHECK: tt.trans %{{.*}} {order = array<i32: 2, 0, 1>} : tensor<2x8x32xf32> -> tensor<32x2x8xf32>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
    %t3 = tt.trans %r3 {order = array<i32: 2, 0, 1>} : tensor<2x8x32xf32> -> tensor<32x2x8xf32>
    // CHECK: tt.cat %[[X]], %[[X]] : tensor<16x32xf32> -> tensor<32x32xf32>
    %c = tt.cat %x, %x : tensor<16x32xf32> -> tensor<32x32xf32>
    // CHECK: %[[J:[a-z0-9_#]+]] = tt.join %[[X]], %[[X]] : tensor<16x32xf32> -> tensor<16x32x2xf32>
    // CHECK: %{{.*}}, %{{.*}} = tt.split %[[J]] : tensor<16x32x2xf32> -> tensor<16x32xf32>
    %j = tt.join %x, %x : tensor<16x32xf32> -> tensor<16x32x2xf32>
    %lo, %hi = tt.split %j : tensor<16x32x2xf32> -> tensor<16x32xf32>
    tt.return
  }
}
