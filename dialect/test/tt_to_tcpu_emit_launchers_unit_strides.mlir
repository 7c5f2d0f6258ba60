// tcpu-emit-triton-launchers with the kernel's unit_stride_args (tensor descriptors' innermost
// strides, which Triton's TensorDescriptor makes 1): tcpu_launch_NAME refuses any other value
// before it packs or runs anything (tcpu_triton_refuse_stride names the argument and value),
// and NAME__programs runs programs only when each is 1, so that LLVM takes them as 1 in the
// program loop (an inlined kernel keeps only its unit-stride version of each access).
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics --tcpu-emit-triton-launchers | FileCheck %s

module {
  llvm.func @copy(%x: !llvm.ptr, %m: i64, %n: i64, %ld: i64, %unit: i64, %y: !llvm.ptr, %k: i64, %unit_y: i64, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel = {threads = 2 : i64, unit_stride_args = array<i64: 4, 7>}} {
    llvm.return
  }
}

// CHECK: llvm.func @copy({{.*}}) attributes {always_inline} {
// The program loop starts only when count > 0 and both strides are 1.
// CHECK-LABEL: llvm.func internal @copy__programs(
// CHECK: %[[FIELD:.*]] = llvm.getelementptr %arg0[0, 4]
// CHECK: %[[UNIT:.*]] = llvm.load %[[FIELD]] : !llvm.ptr -> i64
// CHECK: %[[FIELD_Y:.*]] = llvm.getelementptr %arg0[0, 7]
// CHECK: %[[UNIT_Y:.*]] = llvm.load %[[FIELD_Y]] : !llvm.ptr -> i64
// CHECK: %[[ANY:.*]] = llvm.icmp "sgt" %arg4, %{{.*}} : i64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[IS_UNIT:.*]] = llvm.icmp "eq" %[[UNIT]], %[[ONE]] : i64
// CHECK: %[[BOTH:.*]] = llvm.and %[[ANY]], %[[IS_UNIT]] : i1
// CHECK: %[[ONE_Y:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[IS_UNIT_Y:.*]] = llvm.icmp "eq" %[[UNIT_Y]], %[[ONE_Y]] : i64
// CHECK: %[[ALL:.*]] = llvm.and %[[BOTH]], %[[IS_UNIT_Y]] : i1
// CHECK: llvm.cond_br %[[ALL]], ^bb1
// The launcher checks each stride first, in order, then sets the threads and launches.
// CHECK-LABEL: llvm.func @tcpu_launch_copy(
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.alloca %[[ONE]] x !llvm.struct<(ptr, i64, i64, i64, i64, ptr, i64, i64)>
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %arg4, %[[ONE]] : i64
// CHECK: llvm.cond_br %[[FIRST]], ^[[NEXT:bb[0-9]+]], ^[[REFUSE:bb[0-9]+]]
// CHECK: ^[[REFUSE]]:
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[STATUS:.*]] = llvm.call @tcpu_triton_refuse_stride(%{{.*}}, %[[FOUR]], %arg4)
// CHECK: llvm.return %[[STATUS]] : i32
// CHECK: ^[[NEXT]]:
// CHECK: %[[SECOND:.*]] = llvm.icmp "eq" %arg7, %[[ONE]] : i64
// CHECK: llvm.cond_br %[[SECOND]], ^[[STORE:bb[0-9]+]], ^[[REFUSE_Y:bb[0-9]+]]
// CHECK: ^[[REFUSE_Y]]:
// CHECK: llvm.mlir.constant(7 : i32) : i32
// CHECK: llvm.call @tcpu_triton_refuse_stride
// CHECK: ^[[STORE]]:
// CHECK: llvm.store %arg0
// CHECK: llvm.call @tcpu_get_num_threads()
// CHECK: llvm.call @tcpu_triton_launch(
// CHECK: llvm.func @tcpu_triton_refuse_stride(!llvm.ptr, i32, i64) -> i32
// CHECK-NOT: unit_stride_args

// -----

module {
  // expected-error @+1 {{unit_stride_args lists argument 1, which is not an i64 argument of the kernel}}
  llvm.func @bad(%x: !llvm.ptr, %n: i32, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel = {unit_stride_args = array<i64: 1>}} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{unit_stride_args lists argument 9, which is not an i64 argument of the kernel}}
  llvm.func @past(%x: !llvm.ptr, %n: i64, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel = {unit_stride_args = array<i64: 9>}} {
    llvm.return
  }
}
