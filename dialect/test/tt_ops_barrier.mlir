// Round trip of the barriers Triton dumps carry: gpu.barrier and ttg.barrier with one or
// several memories (`local`, `local|global_read|global_write`, ...); unknown or missing
// memories are verifier errors naming them.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics | tcpu-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @barriers(
  tt.func public @barriers(%x_ptr: !tt.ptr<f32>) {
    // CHECK: gpu.barrier
    // CHECK-NEXT: ttg.barrier local
    // CHECK-NEXT: ttg.barrier local|global_read|global_write
    // CHECK-NEXT: ttg.barrier tensor_read|tensor_write
    gpu.barrier
    ttg.barrier local
    ttg.barrier local|global_read|global_write
    ttg.barrier tensor_read|tensor_write
    tt.return
  }
}

// -----

tt.func @f() {
  // expected-error @+1 {{'ttg.barrier' op unknown memory 'shared'; expected local, global_read, global_write, tensor_read or tensor_write}}
  ttg.barrier shared
  tt.return
}

// -----

tt.func @f() {
  // expected-error @+1 {{'ttg.barrier' op needs at least one memory (e.g. local)}}
  "ttg.barrier"() {spaces = []} : () -> ()
  tt.return
}
