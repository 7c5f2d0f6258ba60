// The Llama MLP of one decode token through tcpu.fused_mlp (tcpu_fused_mlp_bf16), sizes from
// the memrefs. The runtime picks its variant at run time, so the module targets the baseline.
module attributes {tcpu.target = #tcpu.target<arch = "armv8-a", features = [], vector_bits = 0>} {
  func.func @tcpu_mlir_fused_mlp(%gate: memref<?xi8>, %gate_scales: memref<?xf32>,
                                 %up: memref<?xi8>, %up_scales: memref<?xf32>,
                                 %down: memref<?xi8>, %down_scales: memref<?xf32>,
                                 %x: memref<?xbf16>, %y: memref<?xbf16>) -> i32 {
    %status = tcpu.fused_mlp %gate, %gate_scales, %up, %up_scales, %down, %down_scales, %x, %y
        : memref<?xi8>, memref<?xf32>, memref<?xi8>, memref<?xf32>, memref<?xi8>,
          memref<?xf32>, memref<?xbf16>, memref<?xbf16>
    return %status : i32
  }
}
