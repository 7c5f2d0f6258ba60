/* gemv_hinted.mlir: tcpu_gemv_i8 (y[n] = packed_w . x[k]) under tcpu.hints.
 *   ..._two_threads: runs with 2 runtime threads, then restores the caller's count.
 *   ..._dotprod_only: runs only if the runtime dispatches gemv_i8 to its dotprod variant,
 *                     else returns TCPU_ERR_INVALID_ARGUMENT without touching y. */
#ifndef TCPU_KERNELS_MLIR_GEMV_HINTED_H_
#define TCPU_KERNELS_MLIR_GEMV_HINTED_H_

#include "kernels/mlir/memref_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t tcpu_mlir_gemv_i8_two_threads(TCPU_MEMREF_1D(int8_t) /* packed_w */,
                                      TCPU_MEMREF_1D(int8_t) /* x */,
                                      TCPU_MEMREF_1D(int32_t) /* y */);
int32_t tcpu_mlir_gemv_i8_dotprod_only(TCPU_MEMREF_1D(int8_t) /* packed_w */,
                                       TCPU_MEMREF_1D(int8_t) /* x */,
                                       TCPU_MEMREF_1D(int32_t) /* y */);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNELS_MLIR_GEMV_HINTED_H_ */
