// Round trip of tt.dot as Triton 3.x prints it: fp32, fp16, bf16 -> fp32 and i8 -> i32;
// inputPrecision in every spelling (tf32, tf32x3, ieee, bf16x3, bf16x6; ieee is the default
// and not printed), maxNumImpreciseAcc, and Triton 2.x's allowTF32 attribute (kept as a
// discardable attribute, the dot computed in IEEE f32 either way). Batched 3-D dots too.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func @dots(
  tt.func @dots(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
                %ah: tensor<16x32xf16>, %bh: tensor<32x8xf16>,
                %ab: tensor<16x32xbf16>, %bb: tensor<32x8xbf16>,
                %ai: tensor<16x32xi8>, %bi: tensor<32x8xi8>, %ci: tensor<16x8xi32>) {
    // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}}, inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}}, inputPrecision = tf32x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}}, inputPrecision = bf16x3 : tensor<16x32xf32>
    // CHECK: tt.dot %{{.*}}, inputPrecision = bf16x6 : tensor<16x32xf32>
    %0 = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %1 = tt.dot %a, %b, %0, inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %2 = tt.dot %a, %b, %1, inputPrecision = tf32x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %3 = tt.dot %a, %b, %2, inputPrecision = ieee : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %4 = tt.dot %a, %b, %3, inputPrecision = bf16x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %5 = tt.dot %a, %b, %4, inputPrecision = bf16x6 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // maxNumImpreciseAcc (fp8 dots on Hopper), printed when not 0.
    // CHECK: tt.dot %{{.*}}, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
    %6 = tt.dot %ah, %bh, %5, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}} : tensor<16x32xbf16> * tensor<32x8xbf16> -> tensor<16x8xf32>
    %7 = tt.dot %ab, %bb, %6 : tensor<16x32xbf16> * tensor<32x8xbf16> -> tensor<16x8xf32>
    // Triton 2.x: allowTF32 and maxNumImpreciseAcc in the attribute dictionary.
    // CHECK: tt.dot %{{.*}} {allowTF32 = true} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}} {allowTF32 = false} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %8 = tt.dot %a, %b, %7 {allowTF32 = true, maxNumImpreciseAcc = 0 : i32} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    %9 = tt.dot %a, %b, %8 {allowTF32 = false} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
    // CHECK: tt.dot %{{.*}} : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
    %10 = tt.dot %ai, %bi, %ci : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
    tt.return
  }

  // CHECK-LABEL: tt.func @batched(
  // CHECK: tt.dot %{{.*}} : tensor<2x16x32xf32> * tensor<2x32x8xf32> -> tensor<2x16x8xf32>
  tt.func @batched(%a: tensor<2x16x32xf32>, %b: tensor<2x32x8xf32>, %c: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x16x32xf32> * tensor<2x32x8xf32> -> tensor<2x16x8xf32>
    tt.return %d : tensor<2x16x8xf32>
  }
}
