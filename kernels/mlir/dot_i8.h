/* dot_i8_neon.mlir / dot_i8_sve.mlir: sum of a[i] * b[i] over the size of a, in wrapping
 * int32. The NEON one needs FEAT_DotProd, the SVE one SVE; call only what the CPU has. */
#ifndef TCPU_KERNELS_MLIR_DOT_I8_H_
#define TCPU_KERNELS_MLIR_DOT_I8_H_

#include "kernels/mlir/memref_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t tcpu_mlir_dot_i8_neon(TCPU_MEMREF_1D(int8_t) /* a */, TCPU_MEMREF_1D(int8_t) /* b */);
int32_t tcpu_mlir_dot_i8_sve(TCPU_MEMREF_1D(int8_t) /* a */, TCPU_MEMREF_1D(int8_t) /* b */);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNELS_MLIR_DOT_I8_H_ */
