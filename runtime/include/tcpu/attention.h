/* Attention over a bf16 KV cache: decode (one new query token) and prefill (a block of them). */
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
 * Online softmax in fp32; any head_dim >= 1 and seq_len >= 1. Parallel over KV groups and
 * sequence chunks (256 positions), merged by log-sum-exp.
 * Scratch from the calling thread's arena. out must not alias q or the caches.
 * Errors: NULL pointers; sizes <= 0; num_heads not a multiple of num_kv_heads, a seq stride
 * < head_dim or a head stride < seq_len * seq stride, sm_scale <= 0 or not finite
 * (TCPU_ERR_INVALID_ARGUMENT); overflowing extents (TCPU_ERR_SIZE_OVERFLOW).
 * Within 1 bf16 ulp of a float64 reference (measured 0.57). Results do not depend on the
 * thread count: the sequence is cut into fixed 256-position chunks merged in order. */
int tcpu_flash_attn_decode_bf16(const uint16_t* q, const uint16_t* k_cache,
                                const uint16_t* v_cache, uint16_t* out, int64_t num_heads,
                                int64_t num_kv_heads, int64_t head_dim, int64_t seq_len,
                                int64_t k_head_stride, int64_t k_seq_stride,
                                int64_t v_head_stride, int64_t v_seq_stride, float sm_scale);

/* Causal attention for a block of num_queries tokens at positions first_position + t
 * (t < num_queries) whose keys and values are already in the caches: query t attends to
 * positions [0, first_position + t]. q, out: [num_queries, num_heads, head_dim] bf16,
 * contiguous; the caches, GQA and strides as tcpu_flash_attn_decode_bf16, holding
 * first_position + num_queries positions. Each query's output is bit-identical to
 * tcpu_flash_attn_decode_bf16 of that query with seq_len = first_position + t + 1 (same
 * chunks, same arithmetic per row, same merge); the work is shared: each K/V chunk is loaded
 * once for all q heads of a KV group, and one parallel region covers the block.
 * Scratch from the calling thread's arena (about (num_queries * num_heads *
 * (chunks * (head_dim + 2) + head_dim)) floats, chunks = ceil((first_position + num_queries)
 * / 256)). out must not alias q or the caches.
 * Errors: as tcpu_flash_attn_decode_bf16, with num_queries <= 0 (TCPU_ERR_INVALID_SIZE) and
 * first_position < 0 or first_position + num_queries overflowing (TCPU_ERR_INVALID_ARGUMENT). */
int tcpu_flash_attn_prefill_bf16(const uint16_t* q, const uint16_t* k_cache,
                                 const uint16_t* v_cache, uint16_t* out, int64_t num_queries,
                                 int64_t num_heads, int64_t num_kv_heads, int64_t head_dim,
                                 int64_t first_position, int64_t k_head_stride,
                                 int64_t k_seq_stride, int64_t v_head_stride, int64_t v_seq_stride,
                                 float sm_scale);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_ATTENTION_H_ */
