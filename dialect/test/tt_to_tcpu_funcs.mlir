// tt-to-tcpu-funcs: every tt.func becomes a func.func with six trailing i32 parameters
// (pid_x, pid_y, pid_z, grid_x, grid_y, grid_z) that tt.get_program_id / tt.get_num_programs
// read and tt.call passes along. The kernel (the public tt.func) takes its arguments as C
// passes them (pointer as !llvm.ptr, i1 as i32, f16 as f32, narrowed on entry), is marked
// tcpu.triton_kernel, and scf keeps working on the converted types.
// RUN: tcpu-opt %s --tt-to-tcpu-funcs | FileCheck %s

// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %[[X:[a-z0-9]+]]: i32, %{{[a-z0-9]+}}: i32, %[[PIDY:[a-z0-9]+]]: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32) -> i32 {
// CHECK-NEXT: arith.addi %[[X]], %[[PIDY]] : i32

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %[[N:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: i32, %[[H:[a-z0-9]+]]: f32, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: f32,
// CHECK-SAME: %[[PID_X:[a-z0-9]+]]: i32, %[[PID_Y:[a-z0-9]+]]: i32, %[[PID_Z:[a-z0-9]+]]: i32, %[[GRID_X:[a-z0-9]+]]: i32, %[[GRID_Y:[a-z0-9]+]]: i32, %[[GRID_Z:[a-z0-9]+]]: i32)
// CHECK-SAME: attributes {tcpu.triton_kernel}
// CHECK: arith.trunci %[[B]] : i32 to i1
// CHECK: arith.truncf %[[H]] : f32 to f16
// CHECK: call @helper(%[[PID_X]], %[[PID_X]], %[[PID_Y]], %[[PID_Z]], %[[GRID_X]], %[[GRID_Y]], %[[GRID_Z]]) : (i32, i32, i32, i32, i32, i32, i32) -> i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args
// CHECK:   arith.addi %{{.*}}, %[[GRID_Z]] : i32
// CHECK-NOT: tt.

// What the launcher needs goes into the dictionary: the kernel's hints and the arguments every
// launch passes as 1 (tt-lower-block-pointers' tt.unit_stride_args).
// CHECK-LABEL: func.func @launch_facts(
// CHECK-SAME: attributes {tcpu.triton_kernel = {threads = 2 : i64, unit_stride_args = array<i64: 1>}}
module {
  tt.func private @helper(%x: i32) -> i32 {
    %pid = tt.get_program_id y : i32
    %r = arith.addi %x, %pid : i32
    tt.return %r : i32
  }
  tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %b: i1, %h: f16, %w: i64, %x: f32) attributes {noinline = false} {
    %pid = tt.get_program_id x : i32
    %grid = tt.get_num_programs z : i32
    %r = tt.call @helper(%pid) : (i32) -> i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (i32) : i32 {
      %a = arith.addi %acc, %grid : i32
      scf.yield %a : i32
    }
    tt.return
  }
  tt.func public @launch_facts(%p: !tt.ptr<f32>, %unit: i64) attributes {tcpu.hints = {threads = 2 : i64}, tt.unit_stride_args = array<i64: 1>} {
    tt.return
  }
}
