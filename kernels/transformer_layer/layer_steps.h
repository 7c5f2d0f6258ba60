// The per-token steps of tcpu_transformer_layer_bf16 and tcpu_decode_step that the engine's
// batched prefill runs between its batched projections, so both paths do the same arithmetic.
// The interface of //kernels/transformer_layer for the engine: every argument is trusted
// (the caller has validated shapes and weights, as tcpu_decoder_open does).
#ifndef TCPU_KERNELS_TRANSFORMER_LAYER_LAYER_STEPS_H_
#define TCPU_KERNELS_TRANSFORMER_LAYER_LAYER_STEPS_H_

#include <cstdint>

#include "kernels/rope/rope_table.h"
#include "tcpu/transformer.h"

namespace tcpu::transformer {

// h[i] = bf16(h[i] + fp32(delta[i] * scale)) in fp32 (scale 0 or 1: the plain sum).
void AddResidual(uint16_t* h, const uint16_t* delta, int64_t n, float scale);

// y[i] = bf16(acc[i] + bias[i]): a linear layer's dequantized fp32 sum plus its bias.
void AddBias(const float* acc, const float* bias, uint16_t* y, int64_t n);

// The RoPE rotation of `position` as the shape says (rope_theta, or rope_inv_freq and
// rope_attention_scale): one per token, applied to its queries and keys in every layer.
void BuildRope(const tcpu_layer_shape& shape, int64_t position, rope::Table* table);

// The decode step's pieces around the layers, shared with batched prefill:
// h = bf16(embed_tokens[token] * embedding_scale); x = bf16(x / logit_divisor) (no-ops for the
// neutral 0 or 1). The greedy token after the logits is tcpu::GreedyToken (runtime/greedy.h).
void EmbedToken(const tcpu_model_weights& model, int32_t token, uint16_t* h);
// TCPU_OK, or the error (naming `fn`) for an embedding table EmbedToken cannot read: a NULL
// table, an unknown embed_format, or blocks with hidden not a multiple of 32.
int CheckEmbedding(const char* fn, const tcpu_model_weights& model);
void DivideLogitInput(const tcpu_model_weights& model, uint16_t* x);

}  // namespace tcpu::transformer

#endif  // TCPU_KERNELS_TRANSFORMER_LAYER_LAYER_STEPS_H_
