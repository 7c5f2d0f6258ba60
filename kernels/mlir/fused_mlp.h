/* fused_mlp.mlir: y = tcpu_fused_mlp_bf16(gate, up, down, x) with hidden = size(x) and
 * intermediate = size(gate_scales). bf16 buffers are uint16_t. Returns the tcpu_status. */
#ifndef TCPU_KERNELS_MLIR_FUSED_MLP_H_
#define TCPU_KERNELS_MLIR_FUSED_MLP_H_

#include "kernels/mlir/memref_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t tcpu_mlir_fused_mlp(TCPU_MEMREF_1D(int8_t) /* packed gate */,
                            TCPU_MEMREF_1D(float) /* gate_scales */,
                            TCPU_MEMREF_1D(int8_t) /* packed up */,
                            TCPU_MEMREF_1D(float) /* up_scales */,
                            TCPU_MEMREF_1D(int8_t) /* packed down */,
                            TCPU_MEMREF_1D(float) /* down_scales */,
                            TCPU_MEMREF_1D(uint16_t) /* x */,
                            TCPU_MEMREF_1D(uint16_t) /* y */);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNELS_MLIR_FUSED_MLP_H_ */
