// The pieces of tcpu_transformer_layer_bf16 the decode step reuses: shape checks, weight
// validation and the workspace plan, then the layer itself on validated inputs.
#ifndef TCPU_KERNELS_TRANSFORMER_LAYER_TRANSFORMER_LAYER_INTERNAL_H_
#define TCPU_KERNELS_TRANSFORMER_LAYER_TRANSFORMER_LAYER_INTERNAL_H_

#include <cstdint>

#include "kernels/fused_mlp/fused_mlp_internal.h"
#include "kernels/linear/linear.h"
#include "kernels/transformer_layer/layer_steps.h"
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

// The layer on checked arguments; `workspace` is plan.total bytes; `rope` is the rotation of
// `position` (BuildRope, layer_steps.h), the same for every layer of a token.
int RunLayer(const tcpu_layer_shape& shape, const tcpu_layer_weights& weights,
             const LayerViews& views, const LayerWorkspace& plan, const rope::Table& rope,
             uint16_t* k_cache, uint16_t* v_cache, int64_t cache_capacity, int64_t position,
             uint16_t* hidden_state, uint8_t* workspace);

}  // namespace tcpu::transformer

#endif  // TCPU_KERNELS_TRANSFORMER_LAYER_TRANSFORMER_LAYER_INTERNAL_H_
