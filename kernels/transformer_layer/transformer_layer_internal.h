// The pieces of tcpu_transformer_layer_bf16 the decode step reuses: shape checks, weight
// validation and the workspace plan, then the layer itself on validated inputs.
#ifndef TCPU_KERNELS_TRANSFORMER_LAYER_TRANSFORMER_LAYER_INTERNAL_H_
#define TCPU_KERNELS_TRANSFORMER_LAYER_TRANSFORMER_LAYER_INTERNAL_H_

#include <cstdint>

#include "kernels/fused_mlp/fused_mlp_internal.h"
#include "kernels/linear/linear.h"
#include "tcpu/transformer.h"

namespace tcpu::transformer {

// Byte offsets of the layer's buffers in its workspace (each 64-byte aligned).
struct LayerWorkspace {
  int64_t x = 0;          // normed hidden state, bf16 [hidden]
  int64_t q = 0;          // bf16 [num_heads * head_dim]
  int64_t k = 0;          // bf16 [num_kv_heads * head_dim]
  int64_t v = 0;          // bf16 [num_kv_heads * head_dim]
  int64_t attn = 0;       // bf16 [num_heads * head_dim]
  int64_t o = 0;          // bf16 [hidden] (o_proj output, then the MLP's)
  int64_t act = 0;        // quantized activations of the QKV or O projection
  int64_t mlp = 0;        // the fused MLP's scratch
  int64_t f32 = 0;        // fp32 q, k, v (or o) before their biases or bf16 rounding
  int64_t total = 0;
};

// Checks every field of `shape` (the error names the field) and plans the workspace.
int PlanLayer(const char* fn, const tcpu_layer_shape* shape, LayerWorkspace* plan);

// Validated packed views of one layer.
struct LayerViews {
  linear::LinearView q, k, v, o;
  fused_mlp::MlpWeights mlp;
};

// Checks every pointer and packed shape of `weights` (errors name `what`, e.g. "layer 3",
// and the field).
int ViewLayer(const char* fn, const char* what, const tcpu_layer_shape& shape,
              const tcpu_layer_weights& weights, LayerViews* views);

// h[i] = bf16(h[i] + fp32(delta[i] * scale)) in fp32 (scale 0 or 1: the plain sum).
void AddResidual(uint16_t* h, const uint16_t* delta, int64_t n, float scale);

// y[i] = bf16(acc[i] + bias[i]): a linear layer's dequantized fp32 sum plus its bias.
void AddBias(const float* acc, const float* bias, uint16_t* y, int64_t n);

// RoPE for one token as the shape says (rope_theta, or the rope_inv_freq table).
int Rope(const tcpu_layer_shape& shape, uint16_t* x, int64_t heads, int64_t position);

// The layer on checked arguments; `workspace` is plan.total bytes.
int RunLayer(const tcpu_layer_shape& shape, const tcpu_layer_weights& weights,
             const LayerViews& views, const LayerWorkspace& plan, uint16_t* k_cache,
             uint16_t* v_cache, int64_t cache_capacity, int64_t position,
             uint16_t* hidden_state, uint8_t* workspace);

// The decode step's pieces around the layers, shared with batched prefill:
// h = bf16(embed_tokens[token] * embedding_scale); x = bf16(x / logit_divisor) (no-ops for the
// neutral 0 or 1); the greedy token (first index of the largest logit, NaN never wins).
void EmbedToken(const tcpu_model_weights& model, int32_t token, uint16_t* h);
void DivideLogitInput(const tcpu_model_weights& model, uint16_t* x);
int32_t Argmax(const float* logits, int64_t n);

}  // namespace tcpu::transformer

#endif  // TCPU_KERNELS_TRANSFORMER_LAYER_TRANSFORMER_LAYER_INTERNAL_H_
