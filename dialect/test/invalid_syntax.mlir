// Bad input gives a diagnostic and a non-zero exit, never a crash.
// RUN: split-file %s %t
// RUN: not tcpu-opt %t/unknown_op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tcpu-opt %t/syntax.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tcpu-opt %t/missing_type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tcpu-opt %t/bad_target.mlir 2>&1 | FileCheck %s --check-prefix=TARGET

// UNKNOWN: unknown_op.mlir:2:8: error: custom op 'tcpu.gemv_i4' is unknown
// SYNTAX: syntax.mlir:2:46: error: expected ','
// TYPE: missing_type.mlir:2:31: error: expected ':'
// TARGET: bad_target.mlir:1:78: error: expected ','

//--- unknown_op.mlir
func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  %0 = tcpu.gemv_i4 %p, %x, %y : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}
//--- syntax.mlir
func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  %0 = tcpu.gemv_i8 %p, %x, %y : memref<?xi8> memref<?xi8>, memref<?xi32>
  return
}
//--- missing_type.mlir
func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  %0 = tcpu.gemv_i8 %p, %x, %y
  return
}
//--- bad_target.mlir
module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = []>} {}
