// Every construct Triton 3.0-3.7 prints that the CPU backend does not lower is refused by
// tt-to-tcpu-funcs with the op's name, its location and why (RefusedOps.cpp), never by an
// unnamed failure further down. tt_tcpu_compile_errors.mlir checks the Python location.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics --triton-to-tcpu

tt.func public @inline_asm(%p: !tt.ptr<f32>) {
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %x = tt.load %ptrs : tensor<8x!tt.ptr<f32>>
  // expected-error @+1 {{'tt.elementwise_inline_asm' is not supported by the CPU backend: its body is GPU assembly (PTX or AMDGCN), which an Arm CPU cannot run}}
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<8xf32> -> tensor<8xf32>
  tt.store %ptrs, %y : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func public @map(%p: !tt.ptr<f32>) {
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %x = tt.load %ptrs : tensor<8x!tt.ptr<f32>>
  // expected-error @+1 {{'tt.map_elementwise' is not supported by the CPU backend: scalar regions mapped over tensors are not lowered yet}}
  %y = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%v: f32):
    tt.map_elementwise.return %v : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.store %ptrs, %y : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func public @dot_scaled(%p: !tt.ptr<f32>, %a: tensor<16x16xf8E4M3FN>, %c: tensor<16x16xf32>) {
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  // expected-error @+1 {{'tt.dot_scaled' is not supported by the CPU backend: microscaling (mx) formats are not lowered yet}}
  %d = tt.dot_scaled %a, %a, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<16x16xf8E4M3FN> * tensor<16x16xf8E4M3FN> -> tensor<16x16xf32>
  tt.store %ptrs, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func public @raw_descriptor(%raw: !tt.ptr<i8>, %i: i32) {
  // expected-error @+1 {{'tt.experimental_descriptor_load' is not supported by the CPU backend: it reads an opaque NVIDIA TMA descriptor the CUDA driver built on the host}}
  %x = tt.experimental_descriptor_load %raw[%i, %i] : !tt.ptr<i8> -> tensor<8x16xf32>
  tt.experimental_descriptor_store %raw[%i, %i], %x : !tt.ptr<i8>, tensor<8x16xf32>
  tt.return
}

// -----

tt.func public @reinterpret(%raw: !tt.ptr<i8>, %i: i32) {
  // expected-error @+1 {{'tt.reinterpret_tensor_descriptor' is not supported by the CPU backend: it reads an opaque NVIDIA TMA descriptor}}
  %d = tt.reinterpret_tensor_descriptor %raw : !tt.ptr<i8> to !tt.tensordesc<tensor<8x16xf32>>
  %x = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x16xf32>> -> tensor<8x16xf32>
  tt.descriptor_store %d[%i, %i], %x : !tt.tensordesc<tensor<8x16xf32>>, tensor<8x16xf32>
  tt.return
}

// -----

tt.func public @tensormap(%raw: !tt.ptr<i8>, %p: !tt.ptr<f32>, %i: i32, %e: i64) {
  // expected-error @+1 {{'tt.experimental_tensormap_create' is not supported by the CPU backend: it writes or fences an NVIDIA TMA descriptor (tensormap), which has no meaning on a CPU}}
  tt.experimental_tensormap_create %raw, %p, [%i, %i], [%i, %i], [%e], [%i, %i] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
  tt.experimental_tensormap_fenceproxy_acquire %raw : !tt.ptr<i8>
  tt.return
}

// -----

tt.func public @descriptor_rows(%d: !tt.tensordesc<tensor<1x16xf32>>, %q: !tt.ptr<i32>, %i: i32) {
  %iptrs = tt.splat %q : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %rows = tt.load %iptrs : tensor<4x!tt.ptr<i32>>
  // expected-error @+1 {{'tt.descriptor_gather' is not supported by the CPU backend: row gathers, scatters and reductions through tensor descriptors are not lowered yet}}
  %x = tt.descriptor_gather %d[%rows, %i] : (!tt.tensordesc<tensor<1x16xf32>>, tensor<4xi32>, i32) -> tensor<4x16xf32>
  tt.descriptor_scatter %d[%rows, %i], %x : !tt.tensordesc<tensor<1x16xf32>>, tensor<4xi32>, i32, tensor<4x16xf32>
  tt.return
}

// -----

tt.func public @pointer_unsplat(%p: !tt.ptr<f32>) {
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>
  // expected-error @+1 {{'tt.unsplat' is not supported by the CPU backend: unsplat of a tensor of pointers is not lowered yet}}
  %q = tt.unsplat %ptrs : tensor<1x!tt.ptr<f32>>
  %x = tt.load %q : !tt.ptr<f32>
  tt.store %q, %x : !tt.ptr<f32>
  tt.return
}
