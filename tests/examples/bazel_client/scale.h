/* scale.mlir: out[i] = a * x[i], i < size of out (x at least as long). */
#ifndef TCPU_CLIENT_SCALE_H_
#define TCPU_CLIENT_SCALE_H_

#include "kernels/mlir/memref_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

void client_scale_f32(float a, TCPU_MEMREF_1D(float) /* x */, TCPU_MEMREF_1D(float) /* out */);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_CLIENT_SCALE_H_ */
