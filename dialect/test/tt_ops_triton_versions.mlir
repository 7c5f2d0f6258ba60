// Round trip of the tt ops Triton 3.0-3.7 print beyond the core set, as each version prints
// them: tt.unsplat (3.5+), tt.gather (3.3+), tt.elementwise_inline_asm, tt.map_elementwise
// (3.5+, generic form), tt.dot_scaled (3.2's scale on a only, 3.3+'s optional scales and
// fastMath), tt.reinterpret_tensor_descriptor, tt.descriptor_gather/scatter/reduce (3.3+),
// 3.0-3.2's tt.experimental_descriptor_load/store through a raw pointer, and
// tt.experimental_tensormap_create / _fenceproxy_acquire. Which of them lower and which are
// refused (and why): tt_tcpu_refused_ops.mlir and dialect/README.md.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s

module {
  tt.func public @versions(%p: !tt.ptr<f32>, %raw: !tt.ptr<i8>, %x: tensor<1xf32>,
                           %t: tensor<8x16xf32>, %idx: tensor<8x4xi32>, %rows: tensor<4xi32>,
                           %i: i32, %a8: tensor<32x64xi8>, %b8: tensor<64x32xf8E4M3FN>,
                           %sa: tensor<32x2xi8>, %c: tensor<32x32xf32>, %e: i64,
                           %d: !tt.tensordesc<tensor<8x16xf32>>, %d1: !tt.tensordesc<1x16xf32>) {
    // CHECK: tt.unsplat %{{.*}} : tensor<1xf32>
    %s = tt.unsplat %x : tensor<1xf32>
    // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<8x16xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
    %g = tt.gather %t[%idx] {axis = 1 : i32} : (tensor<8x16xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
    // CHECK: tt.elementwise_inline_asm "cvt.rn.f16x2.f32 $0, $2, $1;" {constraints = "=r,r,r", packed_element = 2 : i32, pure = true} %{{.*}} : tensor<8x16xf32> -> tensor<8x16xf16>
    %h = tt.elementwise_inline_asm "cvt.rn.f16x2.f32 $0, $2, $1;" {constraints = "=r,r,r", packed_element = 2 : i32, pure = true} %t : tensor<8x16xf32> -> tensor<8x16xf16>
    // CHECK: "tt.map_elementwise"(%{{.*}}) <{pack = 1 : i32}> ({
    // CHECK: tt.map_elementwise.return %{{.*}} : f32
    %m = "tt.map_elementwise"(%t) <{pack = 1 : i32}> ({
    ^bb0(%v: f32):
      %two = arith.addf %v, %v : f32
      tt.map_elementwise.return %two : f32
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    // Triton 3.2: a scale for a only.
    // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e2m1 rhs = e4m3 : tensor<32x64xi8>, tensor<32x2xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
    %ds = tt.dot_scaled %a8 scale %sa, %b8, %c lhs = e2m1 rhs = e4m3 : tensor<32x64xi8>, tensor<32x2xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
    // Triton 3.3+: fastMath and later attributes in the dictionary.
    // CHECK: tt.dot_scaled %{{.*}}, %{{.*}}, %{{.*}} lhs = e4m3 rhs = e4m3 {fastMath = false, lhs_k_pack = true} : tensor<64x32xf8E4M3FN> * tensor<64x32xf8E4M3FN> -> tensor<64x32xf32>
    %c64 = arith.constant dense<0.0> : tensor<64x32xf32>
    %ds2 = tt.dot_scaled %b8, %b8, %c64 lhs = e4m3 rhs = e4m3 {fastMath = false, lhs_k_pack = true} : tensor<64x32xf8E4M3FN> * tensor<64x32xf8E4M3FN> -> tensor<64x32xf32>
    // CHECK: tt.reinterpret_tensor_descriptor %{{.*}} : !tt.ptr<i8> to !tt.tensordesc<8x16xf32>
    %rd = tt.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<8x16xf32>>
    // CHECK: tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<1x16xf32>, tensor<4xi32>, i32) -> tensor<4x16xf32>
    %dg = tt.descriptor_gather %d1[%rows, %i] : (!tt.tensordesc<1x16xf32>, tensor<4xi32>, i32) -> tensor<4x16xf32>
    // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<1x16xf32>, tensor<4xi32>, i32, tensor<4x16xf32>
    tt.descriptor_scatter %d1[%rows, %i], %dg : !tt.tensordesc<1x16xf32>, tensor<4xi32>, i32, tensor<4x16xf32>
    // CHECK: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<8x16xf32>, tensor<8x16xf32>
    tt.descriptor_reduce add, %d[%i, %i], %t : !tt.tensordesc<tensor<8x16xf32>>, tensor<8x16xf32>
    // Triton 3.0-3.2: TMA through a raw descriptor pointer.
    // CHECK: tt.experimental_descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.ptr<i8> -> tensor<8x16xf32>
    %el = tt.experimental_descriptor_load %raw[%i, %i] : !tt.ptr<i8> -> tensor<8x16xf32>
    // CHECK: tt.experimental_descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.ptr<i8>, tensor<8x16xf32>
    tt.experimental_descriptor_store %raw[%i, %i], %el : !tt.ptr<i8>, tensor<8x16xf32>
    // CHECK: tt.experimental_tensormap_create %{{.*}}, %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}], [%{{.*}}, %{{.*}}] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
    tt.experimental_tensormap_create %raw, %p, [%i, %i], [%i, %i], [%e], [%i, %i] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
    // CHECK: tt.experimental_tensormap_fenceproxy_acquire %{{.*}} : !tt.ptr<i8>
    tt.experimental_tensormap_fenceproxy_acquire %raw : !tt.ptr<i8>
    tt.return
  }
}
