/* vector_add.mlir: out[i] = x[i] + y[i], i < size of out (x and y at least as long). */
#ifndef TCPU_KERNELS_MLIR_VECTOR_ADD_H_
#define TCPU_KERNELS_MLIR_VECTOR_ADD_H_

#include "kernels/mlir/memref_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

void tcpu_mlir_vector_add_f32(TCPU_MEMREF_1D(float) /* x */, TCPU_MEMREF_1D(float) /* y */,
                              TCPU_MEMREF_1D(float) /* out */);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNELS_MLIR_VECTOR_ADD_H_ */
