// #tcpu.target and tcpu.hints errors: unknown names, bad values, hints the target cannot honour.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#tcpu.target: unknown arch "armv7-a"; expected one of "armv8-a", "armv8.2-a", "armv8.4-a", "armv8.6-a", "armv9-a", "armv9.2-a"}}
module attributes {tcpu.target = #tcpu.target<arch = "armv7-a", features = [], vector_bits = 0>} {}

// -----

// expected-error @+1 {{#tcpu.target: unknown feature "avx2"}}
module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["avx2"], vector_bits = 0>} {}

// -----

// expected-error @+1 {{#tcpu.target: features[0] must be a string, got 3 : i64}}
module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = [3], vector_bits = 0>} {}

// -----

// expected-error @+1 {{#tcpu.target: vector_bits = 192; expected 0 (scalable) or a multiple of 128 from 128 to 2048}}
module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["sve2"], vector_bits = 192>} {}

// -----

// expected-error @+1 {{#tcpu.target: vector_bits = 256 fixes the SVE vector length but features has neither "sve" nor "sve2"}}
module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 256>} {}

// -----

module {
  // expected-error @+1 {{'tcpu.target' belongs on a builtin.module, not on 'func.func'}}
  func.func @f() attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = [], vector_bits = 0>} {
    return
  }
}

// -----

// expected-error @+1 {{'tcpu.target' must be a #tcpu.target<...>, got "armv9-a"}}
module attributes {tcpu.target = "armv9-a"} {}

// -----

// expected-error @+1 {{unknown tcpu attribute 'tcpu.tagret'; expected 'tcpu.target', 'tcpu.hints' or 'tcpu.triton_kernel'}}
module attributes {tcpu.tagret = 1} {}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0>} {
  func.func @f(%p: memref<?xi8>, %x: memref<?x?xi8>, %y: memref<?x?xi32>) {
    // expected-error @+1 {{hint variant = "i8mm" needs target feature "i8mm", which the module's #tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0> lacks}}
    %0 = tcpu.gemm_i8 %p, %x, %y {tcpu.hints = {variant = "i8mm"}} : memref<?xi8>, memref<?x?xi8>, memref<?x?xi32>
    return
  }
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{hint variant = "dotprod" needs target feature "dotprod", which the Armv8-A baseline lacks (the module has no 'tcpu.target')}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {variant = "dotprod"}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{hint variant = "i8mm" is not a runtime variant of 'tcpu.gemv_i8'; expected one of "ref", "neon", "dotprod", "sve2"}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {variant = "i8mm"}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{hint 'threads' = 0; expected 1 to 1024}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {threads = 0 : i64}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{hint 'threads' = 18446744073709551620; expected 1 to 1024}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {threads = 18446744073709551620 : i128}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{hint 'threads' must be an integer, got "four"}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {threads = "four"}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{hint 'variant' must be a string, got 2 : i64}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {variant = 2}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{unknown hint 'unroll'; expected 'variant' or 'threads'}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = {unroll = 4}} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%p: memref<?xi8>, %x: memref<?xi8>, %y: memref<?xi32>) {
  // expected-error @+1 {{'tcpu.hints' must be a dictionary such as {variant = "dotprod", threads = 4 : i64}, got "dotprod"}}
  %0 = tcpu.gemv_i8 %p, %x, %y {tcpu.hints = "dotprod"} : memref<?xi8>, memref<?xi8>, memref<?xi32>
  return
}

// -----

func.func @f(%a: i32) -> i32 {
  // expected-error @+1 {{'tcpu.hints' applies to tcpu runtime ops (tcpu.gemv_i8, tcpu.rms_norm, ...) and to tt.func, tt.load, tt.store and tt.dot, not to 'arith.addi'}}
  %0 = arith.addi %a, %a {tcpu.hints = {threads = 2 : i64}} : i32
  return %0 : i32
}

// -----

func.func @f(%p: memref<?xi8>, %s: memref<?xf32>, %x: memref<?xbf16>) {
  // expected-error @+1 {{hint 'variant' is not supported on 'tcpu.fused_mlp' (it runs several kernels); use 'threads' only}}
  %0 = tcpu.fused_mlp %p, %s, %p, %s, %p, %s, %x, %x {tcpu.hints = {variant = "neon"}}
      : memref<?xi8>, memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<?xi8>,
        memref<?xf32>, memref<?xbf16>, memref<?xbf16>
  return
}
