/* Scratch memory. Kernels that need temporary buffers (e.g. the quantized activation of
 * tcpu_gemv_bf16_w8) take them from a per-thread arena that only grows: after the first
 * call at the largest shape, no kernel allocates. Reserve up front to allocate never on the
 * hot path at all. */
#ifndef TCPU_SCRATCH_H_
#define TCPU_SCRATCH_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ensures the calling thread's arena holds at least `bytes`. TCPU_ERR_OUT_OF_MEMORY if the
 * memory cannot be had (the arena keeps its previous size). */
int tcpu_scratch_reserve(int64_t bytes);

/* Bytes currently held by the calling thread's arena. */
int64_t tcpu_scratch_capacity(void);

/* Scratch bytes tcpu_gemv_bf16_w8 needs for a given k, and tcpu_gemm_i8 for m and k
 * (negative tcpu_status for invalid sizes). */
int64_t tcpu_gemv_bf16_w8_scratch_size(int64_t k);
int64_t tcpu_gemm_i8_scratch_size(int64_t m, int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_SCRATCH_H_ */
