/* Decode attention over a bf16 KV cache (one new query token). */
#ifndef TCPU_ATTENTION_H_
#define TCPU_ATTENTION_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[h][:] = softmax(sm_scale * q[h] . K[g][s]) over s < seq_len, applied to V[g][s][:],
 * with g = h / (num_heads / num_kv_heads) (GQA; num_heads a multiple of num_kv_heads).
 * q, out: [num_heads, head_dim] bf16, contiguous. K[g][s][i] is
 * k_cache[g * k_head_stride + s * k_seq_stride + i] (likewise V), strides in elements.
 * Online softmax in fp32; any head_dim >= 1 and seq_len >= 1. Parallel over heads, and over
 * sequence chunks merged by log-sum-exp when there are fewer heads than threads.
 * Scratch from the calling thread's arena. out must not alias q or the caches.
 * Errors: NULL pointers; sizes <= 0; num_heads not a multiple of num_kv_heads, a seq stride
 * < head_dim or a head stride < seq_len * seq stride, sm_scale <= 0 or not finite
 * (TCPU_ERR_INVALID_ARGUMENT); overflowing extents (TCPU_ERR_SIZE_OVERFLOW).
 * Within 1 bf16 ulp of a float64 reference (measured 0.70). Results do not depend on the
 * thread count: the sequence is cut into fixed 256-position chunks merged in order. */
int tcpu_flash_attn_decode_bf16(const uint16_t* q, const uint16_t* k_cache,
                                const uint16_t* v_cache, uint16_t* out, int64_t num_heads,
                                int64_t num_kv_heads, int64_t head_dim, int64_t seq_len,
                                int64_t k_head_stride, int64_t k_seq_stride,
                                int64_t v_head_stride, int64_t v_seq_stride, float sm_scale);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_ATTENTION_H_ */
