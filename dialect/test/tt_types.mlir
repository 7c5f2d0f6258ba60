// Round trip of the tt types in every spelling Triton 3.x prints: !tt.ptr with and without
// an address space, tensors of pointers, block pointers (!tt.ptr<tensor<...>>) and
// !tt.tensordesc in its Triton 3.2-3.4 (<tensor<8x8xf32>>) and later (<8x8xf32>) spellings.
// Printed, reparsed and printed again; the generic form reparses too.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @pointers(
  // CHECK-SAME: %{{.*}}: !tt.ptr<f32>,
  // CHECK-SAME: %{{.*}}: !tt.ptr<f16>,
  // CHECK-SAME: %{{.*}}: !tt.ptr<bf16, 3>,
  // CHECK-SAME: %{{.*}}: !tt.ptr<i8>,
  // CHECK-SAME: %{{.*}}: !tt.ptr<i64, 0>,
  // CHECK-SAME: %{{.*}}: !tt.ptr<!tt.ptr<f32>>)
  tt.func public @pointers(%a: !tt.ptr<f32>, %b: !tt.ptr<f16, 1>, %c: !tt.ptr<bf16, 3>,
                           %d: !tt.ptr<i8>, %e: !tt.ptr<i64, 0>, %f: !tt.ptr<!tt.ptr<f32>>) {
    tt.return
  }

  // CHECK-LABEL: tt.func @tensors_of_pointers(
  // CHECK-SAME: tensor<128x!tt.ptr<f32>>
  // CHECK-SAME: tensor<16x32x!tt.ptr<bf16>>
  // CHECK-SAME: tensor<4x!tt.ptr<i8, 3>>
  tt.func @tensors_of_pointers(%a: tensor<128x!tt.ptr<f32>>, %b: tensor<16x32x!tt.ptr<bf16>>,
                               %c: tensor<4x!tt.ptr<i8, 3>>) {
    tt.return
  }

  // CHECK-LABEL: tt.func @block_pointers(
  // CHECK-SAME: !tt.ptr<tensor<128x64xf16>>
  // CHECK-SAME: !tt.ptr<tensor<32xf32>>
  tt.func @block_pointers(%a: !tt.ptr<tensor<128x64xf16>>, %b: !tt.ptr<tensor<32xf32>, 1>) {
    tt.return
  }

  // Both tensordesc spellings print the later way.
  // CHECK-LABEL: tt.func @descriptors(
  // CHECK-SAME: %{{.*}}: !tt.tensordesc<64x64xf16>,
  // CHECK-SAME: %{{.*}}: !tt.tensordesc<8x8xf32>,
  // CHECK-SAME: %{{.*}}: !tt.tensordesc<128xi8>)
  tt.func @descriptors(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<8x8xf32>,
                       %c: !tt.tensordesc<tensor<128xi8>>) {
    tt.return
  }

  // Element types Triton tensors hold, fp8 included.
  // CHECK-LABEL: tt.func @element_types(
  // CHECK-SAME: tensor<16xf8E4M3FN>
  // CHECK-SAME: tensor<16xf8E5M2>
  // CHECK-SAME: tensor<16xf8E4M3FNUZ>
  // CHECK-SAME: tensor<16xf8E4M3B11FNUZ>
  // CHECK-SAME: tensor<16xi1>
  // CHECK-SAME: f64
  tt.func @element_types(%a: tensor<16xf8E4M3FN>, %b: tensor<16xf8E5M2>,
                         %c: tensor<16xf8E4M3FNUZ>, %d: tensor<16xf8E4M3B11FNUZ>,
                         %e: tensor<16xi1>, %f: f64) {
    tt.return
  }
}
