/* decode_block.mlir: h = rms_norm(x, norm_w) (eps 1e-6), then y = tcpu_gemv_bf16_w8(packed_w,
 * w_scales, h). bf16 buffers are uint16_t. Returns 0 or the first failing tcpu_status. */
#ifndef TCPU_KERNELS_MLIR_DECODE_BLOCK_H_
#define TCPU_KERNELS_MLIR_DECODE_BLOCK_H_

#include "kernels/mlir/memref_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t tcpu_mlir_decode_block(TCPU_MEMREF_1D(uint16_t) /* x */,
                               TCPU_MEMREF_1D(uint16_t) /* norm_w */,
                               TCPU_MEMREF_1D(uint16_t) /* h */,
                               TCPU_MEMREF_1D(int8_t) /* packed_w */,
                               TCPU_MEMREF_1D(float) /* w_scales */,
                               TCPU_MEMREF_1D(uint16_t) /* y */);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNELS_MLIR_DECODE_BLOCK_H_ */
