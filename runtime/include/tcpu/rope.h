/* Rotary position embedding, rotate-half form (Llama, Qwen3, MiniCPM), on bf16 heads. */
#ifndef TCPU_ROPE_H_
#define TCPU_ROPE_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rotates x[num_heads][head_dim] in place for one token at `position`. With h = head_dim / 2,
 * for every head and i < h:
 *   angle = position * theta^(-2i / head_dim)              (float64)
 *   c = cos(angle), s = sin(angle)                          (float64, rounded to fp32)
 *   x[i]     <- bf16(x[i] * c - x[i + h] * s)
 *   x[i + h] <- bf16(x[i + h] * c + x[i] * s)
 * computed in float64 from the fp32 c, s and rounded through fp32 to bf16, so the result is
 * the same on every CPU and compiler (products of fp32 values are exact in float64).
 * head_dim even and >= 2; num_heads >= 1; position >= 0; theta > 0 and finite. */
int tcpu_rope_bf16(uint16_t* x, int64_t num_heads, int64_t head_dim, int64_t position,
                   float theta);

/* tcpu_rope_bf16 with the frequencies given (rope_scaling: linear, llama3, longrope):
 *   angle = position * inv_freq[i]                          (float64)
 *   c = fp32(cos(angle) * attention_scale), s = fp32(sin(angle) * attention_scale)
 * then the same rotation. With inv_freq[i] = theta^(-2i / head_dim) (theta as a double) and
 * attention_scale 1 it equals tcpu_rope_bf16 bit for bit. inv_freq[head_dim / 2] finite and
 * >= 0; attention_scale > 0 and finite. */
int tcpu_rope_freqs_bf16(uint16_t* x, int64_t num_heads, int64_t head_dim, int64_t position,
                         const double* inv_freq, double attention_scale);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_ROPE_H_ */
