// tt-to-tcpu-pointers: !tt.ptr becomes !llvm.ptr; a tensor of pointers becomes a vector of
// i64 addresses, tt.addptr on it the base plus offsets scaled by the element size (i32
// offsets sign-extended); scalar tt.addptr is a getelementptr, int_to_ptr / ptr_to_int are
// LLVM casts and a pointer bitcast is the same !llvm.ptr.
// RUN: tcpu-opt %s --tt-to-tcpu-pointers | FileCheck %s

module {
  // CHECK-LABEL: tt.func @tensor_of_pointers(
  // CHECK: %[[BASE:[0-9]+]] = builtin.unrealized_conversion_cast %{{.*}} : !tt.ptr<f32> to !llvm.ptr
  // CHECK: %[[ADDR:[0-9]+]] = llvm.ptrtoint %[[BASE]] : !llvm.ptr to i64
  // CHECK: %[[SPLAT:[0-9]+]] = vector.broadcast %[[ADDR]] : i64 to vector<2x4xi64>
  // CHECK: %[[OFF:[0-9]+]] = arith.extsi %{{.*}} : vector<2x4xi32> to vector<2x4xi64>
  // CHECK: %[[BYTES:[0-9]+]] = arith.muli %[[OFF]], %{{.*}} : vector<2x4xi64>
  // CHECK: arith.addi %[[SPLAT]], %[[BYTES]] : vector<2x4xi64>
  // CHECK-NOT: tt.addptr
  // CHECK-NOT: tt.splat
  tt.func @tensor_of_pointers(%p: !tt.ptr<f32>, %offs: tensor<2x4xi32>) -> tensor<2x4x!tt.ptr<f32>> {
    %sp = tt.splat %p : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
    %a = tt.addptr %sp, %offs : tensor<2x4x!tt.ptr<f32>>, tensor<2x4xi32>
    tt.return %a : tensor<2x4x!tt.ptr<f32>>
  }

  // The element size scales the offsets: 2 bytes for bf16, i64 offsets kept.
  // CHECK-LABEL: tt.func @bf16_i64_offsets(
  // CHECK: %[[TWO:.*]] = arith.constant dense<2> : vector<8xi64>
  // CHECK-NOT: arith.extsi
  // CHECK: arith.muli %{{.*}}, %[[TWO]] : vector<8xi64>
  tt.func @bf16_i64_offsets(%p: !tt.ptr<bf16>, %offs: tensor<8xi64>) -> tensor<8x!tt.ptr<bf16>> {
    %sp = tt.splat %p : !tt.ptr<bf16> -> tensor<8x!tt.ptr<bf16>>
    %a = tt.addptr %sp, %offs : tensor<8x!tt.ptr<bf16>>, tensor<8xi64>
    tt.return %a : tensor<8x!tt.ptr<bf16>>
  }

  // CHECK-LABEL: tt.func @scalars(
  tt.func @scalars(%p: !tt.ptr<f32>, %i: i32, %addr: i64) -> (!tt.ptr<f32>, i64, !tt.ptr<i32>, !tt.ptr<f32>) {
    // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
    // CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
    // CHECK-NOT: tt.bitcast
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %a = tt.ptr_to_int %q : !tt.ptr<f32> -> i64
    %r = tt.int_to_ptr %addr : i64 -> !tt.ptr<f32>
    %c = tt.bitcast %q : !tt.ptr<f32> -> !tt.ptr<i32>
    tt.return %q, %a, %c, %r : !tt.ptr<f32>, i64, !tt.ptr<i32>, !tt.ptr<f32>
  }
}
