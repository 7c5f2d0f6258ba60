// tcpu-sink-loads: a load whose first use comes after stores into stack buffers (an int8 dot's
// operand pack) moves down to that use; a load used before any such store stays, and a store
// through a pointer (memory a Triton load may read) stops a load where it is.
// RUN: tcpu-opt %s --tcpu-sink-loads | FileCheck %s

// CHECK-LABEL: func.func @pack(
// CHECK: %[[R0:.+]] = llvm.load %arg0
// CHECK: arith.addi %[[R0]], %[[R0]]
// CHECK: vector.store %{{.*}}, %[[BUFFER:.+]][
// CHECK: scf.for
// CHECK: vector.store
// CHECK: }
// CHECK: %[[R1:.+]] = llvm.load %arg1
// CHECK: arith.addi %[[R1]], %[[R1]]
func.func @pack(%p: !llvm.ptr, %q: !llvm.ptr) -> vector<16xi8> {
  %buffer = memref.alloca() {alignment = 16 : i64} : memref<4x16xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r0 = llvm.load %p : !llvm.ptr -> vector<16xi8>
  %r1 = llvm.load %q : !llvm.ptr -> vector<16xi8>
  %x = arith.addi %r0, %r0 : vector<16xi8>
  vector.store %x, %buffer[%c0, %c0] : memref<4x16xi8>, vector<16xi8>
  scf.for %i = %c1 to %c4 step %c1 {
    vector.store %x, %buffer[%i, %c0] : memref<4x16xi8>, vector<16xi8>
  }
  %y = arith.addi %r1, %r1 : vector<16xi8>
  return %y : vector<16xi8>
}

// A store through a pointer between the load and its use: the load passes the stack store
// but stops before it.
// CHECK-LABEL: func.func @blocked(
// CHECK: vector.store
// CHECK-NEXT: %[[R:.+]] = llvm.load %arg0
// CHECK-NEXT: llvm.store
// CHECK: arith.addi %[[R]], %[[R]]
func.func @blocked(%p: !llvm.ptr, %x: vector<16xi8>) -> vector<16xi8> {
  %buffer = memref.alloca() {alignment = 16 : i64} : memref<16xi8>
  %c0 = arith.constant 0 : index
  %r = llvm.load %p : !llvm.ptr -> vector<16xi8>
  vector.store %x, %buffer[%c0] : memref<16xi8>, vector<16xi8>
  llvm.store %x, %p : vector<16xi8>, !llvm.ptr
  %y = arith.addi %r, %r : vector<16xi8>
  return %y : vector<16xi8>
}

// A buffer whose address is taken as an index may be what the load reads: its store stops the
// load.
// CHECK-LABEL: func.func @escaping(
// CHECK: %[[R:.+]] = llvm.load %arg0
// CHECK-NEXT: vector.store
// CHECK: arith.addi %[[R]], %[[R]]
func.func @escaping(%p: !llvm.ptr, %x: vector<16xi8>) -> (vector<16xi8>, index) {
  %buffer = memref.alloca() {alignment = 16 : i64} : memref<16xi8>
  %address = memref.extract_aligned_pointer_as_index %buffer : memref<16xi8> -> index
  %c0 = arith.constant 0 : index
  %r = llvm.load %p : !llvm.ptr -> vector<16xi8>
  vector.store %x, %buffer[%c0] : memref<16xi8>, vector<16xi8>
  %y = arith.addi %r, %r : vector<16xi8>
  return %y, %address : vector<16xi8>, index
}
