// tt-to-tcpu-debug drops gpu.barrier and ttg.barrier: a Triton program runs on one CPU
// thread, so there is nothing to synchronize. The whole pipeline then compiles the kernel.
// RUN: tcpu-opt %s --tt-to-tcpu-debug | FileCheck %s
// RUN: tcpu-opt %s --triton-to-llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: tt.func public @sync_copy(
// CHECK: tt.store
// CHECK-NOT: gpu.barrier
// CHECK-NOT: ttg.barrier
// CHECK: tt.load
// CHECK-NOT: barrier
// LLVM-LABEL: llvm.func @sync_copy(
// LLVM-NOT: gpu.barrier
// LLVM-NOT: ttg.barrier
// LLVM: llvm.func @tcpu_launch_sync_copy(
module {
  tt.func public @sync_copy(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>) {
    %v = arith.constant 1.0 : f32
    tt.store %x_ptr, %v : !tt.ptr<f32>
    gpu.barrier
    ttg.barrier local
    ttg.barrier local|global_read|global_write
    %w = tt.load %x_ptr : !tt.ptr<f32>
    tt.store %y_ptr, %w : !tt.ptr<f32>
    tt.return
  }
}
