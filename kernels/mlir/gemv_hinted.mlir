// tcpu.hints end to end: the same INT8 GEMV with a pinned thread count and with a pinned
// runtime variant. The target lists dotprod so that the variant hint verifies; the module
// itself is only call glue, so it runs on every CPU.
module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0>} {
  func.func @tcpu_mlir_gemv_i8_two_threads(%packed_w: memref<?xi8>, %x: memref<?xi8>,
                                           %y: memref<?xi32>) -> i32 {
    %s = tcpu.gemv_i8 %packed_w, %x, %y {tcpu.hints = {threads = 2 : i64}}
        : memref<?xi8>, memref<?xi8>, memref<?xi32>
    return %s : i32
  }

  func.func @tcpu_mlir_gemv_i8_dotprod_only(%packed_w: memref<?xi8>, %x: memref<?xi8>,
                                            %y: memref<?xi32>) -> i32 {
    %s = tcpu.gemv_i8 %packed_w, %x, %y {tcpu.hints = {variant = "dotprod"}}
        : memref<?xi8>, memref<?xi8>, memref<?xi32>
    return %s : i32
  }
}
