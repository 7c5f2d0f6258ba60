/* One decoder layer and one whole decode step of a Llama-architecture model (Llama,
 * MiniCPM, Qwen3), fused on the W8A8 and W4A8 kernels: every linear layer is int8
 * (tcpu/gemv.h) or int4 (tcpu/gemv_q4.h) on int8 activations; activations, norms, embeddings
 * and the KV cache are bf16. */
#ifndef TCPU_TRANSFORMER_H_
#define TCPU_TRANSFORMER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A linear layer [out, in], one of:
 *   W8A8: packed from tcpu_pack_weights_i8, scales = out per-row fp32 scales;
 *     y = bf16((float)acc * s_x * scales[i])
 *   W4A8: packed from tcpu_pack_q4 (told apart by its header), scales = NULL (the group
 *     scales are packed with it); y = bf16(f * s_x), f as tcpu/gemv_q4.h defines it.
 *   block-Q8 (GGUF Q8_0's numbers): packed from tcpu_pack_q8 or tcpu_pack_q8_from_q8_0,
 *     scales = NULL; y = bf16(f * s_x), f as tcpu/gemv_q8.h defines it.
 * Either way x is quantized as tcpu_gemv_bf16_w8 does it (once per vector). Formats may be
 * mixed within a model. */
typedef struct tcpu_linear {
  const void* packed;
  const float* scales;
} tcpu_linear;

/* The shape shared by every layer of a model. */
typedef struct tcpu_layer_shape {
  int64_t hidden;        /* model width */
  int64_t intermediate;  /* MLP width */
  int64_t num_heads;     /* query heads; a multiple of num_kv_heads */
  int64_t num_kv_heads;
  int64_t head_dim;      /* even (RoPE) */
  float rms_norm_eps;    /* > 0 */
  float rope_theta;      /* > 0 */
  /* What the families change; zero-initialised fields give the plain Llama layer. */
  float residual_scale;         /* each residual branch x this (MiniCPM muP); 0 means 1 */
  const double* rope_inv_freq;  /* [head_dim / 2] (rope_scaling) or NULL: rope_theta's */
  double rope_attention_scale;  /* RoPE cos and sin x this (longrope); 0 means 1 */
} tcpu_layer_shape;

/* One layer's weights. q_norm and k_norm ([head_dim], Qwen3's per-head RMSNorm) are both set
 * or both NULL; so are q_bias, k_bias and v_bias (fp32, Qwen2 and Llama attention_bias), added
 * to the dequantized sum before the bf16 rounding: y = bf16(acc * s_x * s_w + b). */
typedef struct tcpu_layer_weights {
  const uint16_t* input_norm;           /* [hidden] */
  tcpu_linear q_proj;                   /* [num_heads * head_dim, hidden] */
  tcpu_linear k_proj;                   /* [num_kv_heads * head_dim, hidden] */
  tcpu_linear v_proj;                   /* [num_kv_heads * head_dim, hidden] */
  const uint16_t* q_norm;               /* [head_dim] or NULL */
  const uint16_t* k_norm;               /* [head_dim] or NULL */
  tcpu_linear o_proj;                   /* [hidden, num_heads * head_dim] */
  const uint16_t* post_attention_norm;  /* [hidden] */
  tcpu_linear gate_proj;                /* [intermediate, hidden] */
  tcpu_linear up_proj;                  /* [intermediate, hidden] */
  tcpu_linear down_proj;                /* [hidden, intermediate] */
  const float* q_bias;                  /* [num_heads * head_dim] or NULL */
  const float* k_bias;                  /* [num_kv_heads * head_dim] or NULL */
  const float* v_bias;                  /* [num_kv_heads * head_dim] or NULL */
  const float* o_bias;                  /* [hidden] or NULL (Llama attention_bias) */
} tcpu_layer_weights;

/* Workspace bytes tcpu_transformer_layer_bf16 needs for this shape, or a negative
 * tcpu_status (invalid shape: the detail names the field). */
int64_t tcpu_transformer_layer_workspace_size(const tcpu_layer_shape* shape);

/* Runs one layer for the token at `position` on hidden_state[hidden] (bf16, in place):
 *   x = rms_norm(h, input_norm)
 *   q, k, v = q_proj(x), k_proj(x), v_proj(x)        (x quantized once, one parallel region;
 *                                                      + q/k/v_bias in fp32 if given)
 *   q, k = per-head rms_norm(q, q_norm), (k, k_norm)  (if given)
 *   q, k = rope(q, position), rope(k, position)       (tcpu_rope_bf16 with rope_theta, or
 *                                                      tcpu_rope_freqs_bf16 with rope_inv_freq)
 *   K[g][position][:] = k[g], V[g][position][:] = v[g]
 *   a = flash_attn_decode(q, K, V, seq_len = position + 1, sm_scale = 1 / sqrt(head_dim))
 *   h = bf16(h + fp32(o_proj(a) * residual_scale))    (the sum in fp32; + o_bias if given)
 *   h = bf16(h + fp32(fused_mlp(rms_norm(h, post_attention_norm)) * residual_scale))
 * Each step is the unfused op of the C ABI, so the result equals their composition bit for
 * bit. k_cache, v_cache: [num_kv_heads, cache_capacity, head_dim] bf16; positions below
 * `position` must hold earlier tokens' keys and values. 0 <= position < cache_capacity.
 * workspace: at least tcpu_transformer_layer_workspace_size bytes, 64-byte aligned. */
int tcpu_transformer_layer_bf16(const tcpu_layer_shape* shape, const tcpu_layer_weights* weights,
                                uint16_t* k_cache, uint16_t* v_cache, int64_t cache_capacity,
                                int64_t position, uint16_t* hidden_state, void* workspace,
                                int64_t workspace_bytes);

/* How the token embedding table is stored (tcpu_model_weights.embed_format). Q4_0 and Q8_0 are
 * ggml's blocks of 32 values as a GGUF file holds them (rows of hidden / 32 blocks: 18 bytes of
 * fp16 d and nibbles v, value (v - 8) x d; 34 bytes of fp16 d and int8 q, value q x d), turned
 * into bf16 one row per token: each value d x q (exact in fp32) rounded to bf16, what a table
 * converted at load would hold. */
#define TCPU_EMBED_BF16 0
#define TCPU_EMBED_Q4_0 1
#define TCPU_EMBED_Q8_0 2

/* A whole model. */
typedef struct tcpu_model_weights {
  tcpu_layer_shape shape;
  int64_t num_layers;
  int64_t vocab_size;
  const uint16_t* embed_tokens;      /* [vocab_size, hidden] bf16 (TCPU_EMBED_BF16) */
  const tcpu_layer_weights* layers;  /* [num_layers] */
  const uint16_t* final_norm;        /* [hidden] */
  tcpu_linear lm_head;               /* [vocab_size, hidden] */
  /* MiniCPM muP; 0 means 1 (plain Llama). */
  float embedding_scale;  /* h = bf16(embed_tokens[token] * embedding_scale) */
  float logit_divisor;    /* the normed h = bf16(h / logit_divisor) before lm_head */
  /* TCPU_EMBED_*; 0 (zero-initialised) is bf16 rows in embed_tokens. Otherwise embed_blocks
   * holds the table's blocks (hidden a multiple of 32) and embed_tokens is unused. */
  int32_t embed_format;
  const void* embed_blocks;
} tcpu_model_weights;

/* Workspace bytes tcpu_decode_step needs, or a negative tcpu_status. */
int64_t tcpu_decode_step_workspace_size(const tcpu_model_weights* model);

/* One token through the model: h = embed_tokens[token] (x embedding_scale); every layer (its KV
 * cache is k_cache + layer * num_kv_heads * cache_capacity * head_dim, likewise v_cache); h =
 * rms_norm(h, final_norm) (/ logit_divisor); logits[vocab_size] = lm_head(h) in fp32 (the linear
 * layer's value before its bf16 rounding); *next_token = the greedy token (the first
 * index of the largest logit; NaN logits never win). Allocates nothing. */
int tcpu_decode_step(const tcpu_model_weights* model, uint16_t* k_cache, uint16_t* v_cache,
                     int64_t cache_capacity, int64_t position, int32_t token, float* logits,
                     int32_t* next_token, void* workspace, int64_t workspace_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TRANSFORMER_H_ */
