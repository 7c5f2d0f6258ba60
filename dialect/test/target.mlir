// #tcpu.target on a module and tcpu.hints on runtime ops: parse, verify, print.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s

// CHECK: module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm", "bf16", "dotprod"], vector_bits = 0>}
module attributes {tcpu.target = #tcpu.target<arch = "armv9-a",
                                              features = ["sve2", "i8mm", "bf16", "dotprod"],
                                              vector_bits = 0>} {
  func.func @hinted(%p: memref<?xi8>, %x: memref<?x?xi8>, %y: memref<?x?xi32>) -> i32 {
    // CHECK: tcpu.gemm_i8 {{.*}} {tcpu.hints = {threads = 4 : i64, variant = "i8mm"}}
    %s = tcpu.gemm_i8 %p, %x, %y {tcpu.hints = {variant = "i8mm", threads = 4 : i64}}
        : memref<?xi8>, memref<?x?xi8>, memref<?x?xi32>
    return %s : i32
  }
}

// A fixed SVE vector length.
// CHECK: #tcpu.target<arch = "armv8.2-a", features = ["sve", "dotprod"], vector_bits = 256>
module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["sve", "dotprod"],
                                              vector_bits = 256>} {
}
