/* INT8 GEMM for prefill and batched decode, on the packed weights of tcpu/gemv.h. */
#ifndef TCPU_GEMM_H_
#define TCPU_GEMM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[r][i] = sum_j x[r][j] * w[i][j] in int32, exact. x: [m, k] row-major int8;
 * y: [m, n] row-major int32; packed_w from tcpu_pack_weights_i8(n, k). SMMLA (i8mm) where
 * available. Uses tcpu_gemm_i8_scratch_size(m, k) bytes of the calling thread's arena. */
int tcpu_gemm_i8(const void* packed_w, const int8_t* x, int32_t* y, int64_t m, int64_t n,
                 int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_GEMM_H_ */
