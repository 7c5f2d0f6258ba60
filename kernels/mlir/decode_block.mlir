// The first two steps of a decoder layer: h = rms_norm(x, norm_w), y = W8A8 GEMV(h). Each
// is a call into the tcpu runtime, which picks its NEON/dotprod/SVE2 variant at run time, so
// the module targets the Armv8-A baseline. Returns the first failing tcpu_status, or 0.
module attributes {tcpu.target = #tcpu.target<arch = "armv8-a", features = [], vector_bits = 0>} {
  func.func @tcpu_mlir_decode_block(%x: memref<?xbf16>, %norm_w: memref<?xbf16>,
                                    %h: memref<?xbf16>, %packed_w: memref<?xi8>,
                                    %w_scales: memref<?xf32>, %y: memref<?xbf16>) -> i32 {
    %ok = arith.constant 0 : i32
    %norm_status = tcpu.rms_norm %x, %norm_w, %h eps = 1.0e-6
        : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
    %normed = arith.cmpi eq, %norm_status, %ok : i32
    %status = scf.if %normed -> i32 {
      %gemv_status = tcpu.gemv_bf16_w8 %packed_w, %w_scales, %h, %y
          : memref<?xi8>, memref<?xf32>, memref<?xbf16>, memref<?xbf16>
      scf.yield %gemv_status : i32
    } else {
      scf.yield %norm_status : i32
    }
    return %status : i32
  }
}
