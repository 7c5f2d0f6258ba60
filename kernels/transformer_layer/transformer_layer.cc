// tcpu_transformer_layer_bf16: one Llama/Qwen3/MiniCPM decoder layer for one token, as a
// sequence of the C ABI's own ops (so it equals their composition bit for bit) with the
// two fusions that save passes over memory: x quantized once for Q, K and V, whose rows run
// in one parallel region, and the fused MLP. Buffers live in the caller's workspace.
#include <cmath>
#include <cstring>
#include <string>

#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/linear/linear.h"
#include "kernels/transformer_layer/embedding_rows.h"
#include "kernels/transformer_layer/transformer_layer_internal.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "tcpu/attention.h"
#include "tcpu/bf16.h"
#include "tcpu/rms_norm.h"
#include "tcpu/rope.h"
#include "tcpu/transformer.h"

namespace tcpu::transformer {
namespace {

// Appends a slot of `bytes` to the plan; false on overflow.
bool AddSlot(int64_t bytes, int64_t* offset, int64_t* total) {
  if (bytes < 0 || bytes > INT64_MAX - 64 - *total) return false;
  *offset = *total;
  *total += AlignScratch(bytes);
  return true;
}

bool PositiveFinite(float value) { return value > 0.0f && std::isfinite(value); }

// 0 means 1; otherwise positive and finite.
bool ValidScale(double value) { return value == 0.0 || (value > 0.0 && std::isfinite(value)); }

int ViewLinear(const char* fn, const char* what, const char* name, const tcpu_linear& linear,
               int64_t n, int64_t k, linear::LinearView* view) {
  return CheckNamed(
      [&](const char* context) {
        return linear::View(context, linear.packed, linear.scales, n, k, view);
      },
      "%s: %s %s", fn, what, name);
}

}  // namespace

// h[i] = bf16(h[i] + fp32(delta[i] * scale)) in fp32 (scale 0 means 1: the plain sum).
void AddResidual(uint16_t* h, const uint16_t* delta, int64_t n, float scale) {
  if (scale == 0.0f || scale == 1.0f) {
    for (int64_t i = 0; i < n; ++i) {
      h[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(h[i]) + tcpu_bf16_to_f32(delta[i]));
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const float scaled = tcpu_bf16_to_f32(delta[i]) * scale;  // its own rounding, as HF's bf16
    h[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(h[i]) + scaled);
  }
}

// y[i] = bf16(acc[i] + bias[i]): the dequantized sum plus the bias, one rounding.
void AddBias(const float* acc, const float* bias, uint16_t* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = tcpu_f32_to_bf16(acc[i] + bias[i]);
}

void BuildRope(const tcpu_layer_shape& shape, int64_t position, rope::Table* table) {
  if (shape.rope_inv_freq == nullptr) {
    rope::BuildFromTheta(shape.head_dim, position, shape.rope_theta, table);
    return;
  }
  const double scale = shape.rope_attention_scale == 0.0 ? 1.0 : shape.rope_attention_scale;
  rope::BuildFromFrequencies(shape.head_dim, position, shape.rope_inv_freq, scale, table);
}

int PlanLayer(const char* fn, const tcpu_layer_shape* shape, LayerWorkspace* plan) {
  TCPU_CHECK_NOT_NULL(fn, shape);
  TCPU_CHECK_POSITIVE(fn, shape->hidden);
  TCPU_CHECK_POSITIVE(fn, shape->intermediate);
  TCPU_CHECK_POSITIVE(fn, shape->num_heads);
  TCPU_CHECK_POSITIVE(fn, shape->num_kv_heads);
  TCPU_CHECK_POSITIVE(fn, shape->head_dim);
  if (shape->num_heads % shape->num_kv_heads != 0) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: shape->num_heads = %lld is not a multiple of shape->num_kv_heads = %lld", fn,
                static_cast<long long>(shape->num_heads),
                static_cast<long long>(shape->num_kv_heads));
  }
  if (shape->head_dim % 2 != 0) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: shape->head_dim = %lld must be even (RoPE)", fn,
                static_cast<long long>(shape->head_dim));
  }
  if (!PositiveFinite(shape->rms_norm_eps)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: shape->rms_norm_eps = %g must be > 0 and finite",
                fn, static_cast<double>(shape->rms_norm_eps));
  }
  if (!PositiveFinite(shape->rope_theta)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: shape->rope_theta = %g must be > 0 and finite", fn,
                static_cast<double>(shape->rope_theta));
  }
  if (!ValidScale(shape->residual_scale)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: shape->residual_scale = %g must be 0 (meaning 1) or > 0 and finite", fn,
                static_cast<double>(shape->residual_scale));
  }
  if (!ValidScale(shape->rope_attention_scale)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: shape->rope_attention_scale = %g must be 0 (meaning 1) or > 0 and finite", fn,
                shape->rope_attention_scale);
  }
  if (int s = rope::CheckHeadDim(fn, shape->head_dim); s != TCPU_OK) return s;
  if (shape->rope_inv_freq != nullptr) {
    if (int s = rope::CheckFrequencies(fn, shape->rope_inv_freq, shape->head_dim); s != TCPU_OK) {
      return s;
    }
  }
  int64_t q_elems = 0, kv_elems = 0, qkv_elems = 0;
  TCPU_CHECK_MUL(fn, shape->num_heads, shape->head_dim, &q_elems);
  TCPU_CHECK_MUL(fn, shape->num_kv_heads, shape->head_dim, &kv_elems);
  if (kv_elems > (INT64_MAX - q_elems) / 2) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: the q, k, v sizes overflow int64", fn);
  }
  qkv_elems = q_elems + 2 * kv_elems;
  const int64_t f32_elems = qkv_elems > shape->hidden ? qkv_elems : shape->hidden;
  const gemv::GemvKernel& kernel = gemv::Bf16W8Kernel();
  int64_t act_hidden = 0, act_attn = 0, mlp = 0;
  if (int s = gemv::ActivationScratchBytes(fn, kernel, shape->hidden, &act_hidden); s != TCPU_OK) {
    return s;
  }
  if (int s = gemv::ActivationScratchBytes(fn, kernel, q_elems, &act_attn); s != TCPU_OK) {
    return s;
  }
  if (int s = fused_mlp::MlpScratchBytes(fn, shape->hidden, shape->intermediate, &mlp);
      s != TCPU_OK) {
    return s;
  }
  LayerWorkspace p;
  const bool ok =
      q_elems <= INT64_MAX / 2 && shape->hidden <= INT64_MAX / 2 &&
      AddSlot(2 * shape->hidden, &p.x, &p.total) && AddSlot(2 * q_elems, &p.q, &p.total) &&
      AddSlot(2 * kv_elems, &p.k, &p.total) && AddSlot(2 * kv_elems, &p.v, &p.total) &&
      AddSlot(2 * q_elems, &p.attn, &p.total) && AddSlot(2 * shape->hidden, &p.o, &p.total) &&
      AddSlot(act_hidden > act_attn ? act_hidden : act_attn, &p.act, &p.total) &&
      AddSlot(mlp, &p.mlp, &p.total) && f32_elems <= INT64_MAX / 4 &&
      AddSlot(4 * f32_elems, &p.f32, &p.total);
  if (!ok) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: the layer's workspace size overflows int64", fn);
  }
  *plan = p;
  return TCPU_OK;
}

int ViewLayer(const char* fn, const char* what, const tcpu_layer_shape& shape,
              const tcpu_layer_weights& w, LayerViews* views) {
  const int64_t q_rows = shape.num_heads * shape.head_dim;
  const int64_t kv_rows = shape.num_kv_heads * shape.head_dim;
  const char* missing = w.input_norm == nullptr            ? "input_norm"
                        : w.post_attention_norm == nullptr ? "post_attention_norm"
                                                           : nullptr;
  if (missing != nullptr) {
    return Fail(TCPU_ERR_NULL_POINTER, "%s: %s %s is NULL", fn, what, missing);
  }
  if ((w.q_bias == nullptr) != (w.k_bias == nullptr) ||
      (w.q_bias == nullptr) != (w.v_bias == nullptr)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: %s has some of q_bias, k_bias, v_bias but not all (give all or none)", fn,
                what);
  }
  if ((w.q_norm == nullptr) != (w.k_norm == nullptr)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %s has %s but not %s (give both or neither)", fn,
                what, w.q_norm != nullptr ? "q_norm" : "k_norm",
                w.q_norm != nullptr ? "k_norm" : "q_norm");
  }
  if (int s = ViewLinear(fn, what, "q_proj", w.q_proj, q_rows, shape.hidden, &views->q);
      s != TCPU_OK) {
    return s;
  }
  if (int s = ViewLinear(fn, what, "k_proj", w.k_proj, kv_rows, shape.hidden, &views->k);
      s != TCPU_OK) {
    return s;
  }
  if (int s = ViewLinear(fn, what, "v_proj", w.v_proj, kv_rows, shape.hidden, &views->v);
      s != TCPU_OK) {
    return s;
  }
  if (int s = ViewLinear(fn, what, "o_proj", w.o_proj, shape.hidden, q_rows, &views->o);
      s != TCPU_OK) {
    return s;
  }
  return CheckNamed(
      [&](const char* mlp) {
        return fused_mlp::ViewMlpWeights(
            mlp, w.gate_proj.packed, w.gate_proj.scales, w.up_proj.packed, w.up_proj.scales,
            w.down_proj.packed, w.down_proj.scales, shape.hidden, shape.intermediate, &views->mlp);
      },
      "%s: %s mlp", fn, what);
}

int RunLayer(const tcpu_layer_shape& shape, const tcpu_layer_weights& w, const LayerViews& views,
             const LayerWorkspace& plan, const rope::Table& rope, uint16_t* k_cache,
             uint16_t* v_cache, int64_t cache_capacity, int64_t position, uint16_t* h,
             uint8_t* workspace) {
  const int64_t hidden = shape.hidden, heads = shape.num_heads, kv_heads = shape.num_kv_heads;
  const int64_t d = shape.head_dim;
  const float eps = shape.rms_norm_eps;
  auto bf16_at = [&](int64_t offset) { return reinterpret_cast<uint16_t*>(workspace + offset); };
  uint16_t* x = bf16_at(plan.x);
  uint16_t* q = bf16_at(plan.q);
  uint16_t* k = bf16_at(plan.k);
  uint16_t* v = bf16_at(plan.v);
  uint16_t* attn = bf16_at(plan.attn);
  uint16_t* o = bf16_at(plan.o);
  int8_t* act = reinterpret_cast<int8_t*>(workspace + plan.act);
  const gemv::GemvKernel& kernel = gemv::Bf16W8Kernel();

  // Attention block.
  if (int s = tcpu_rms_norm_bf16(h, w.input_norm, x, hidden, eps); s != TCPU_OK) return s;
  const gemv::QuantizedActivation qx = gemv::QuantizeActivation(kernel, x, hidden, act);
  float* f32 = reinterpret_cast<float*>(workspace + plan.f32);
  // fp32 sums first (then + bias and the one bf16 rounding), or bf16 directly; the fp32 slot
  // also serves the int4 kernels' sums before their rounding.
  const bool bias = w.q_bias != nullptr;
  const linear::Output qkv[3] = {{views.q, bias ? nullptr : q, f32},
                                 {views.k, bias ? nullptr : k, f32 + heads * d},
                                 {views.v, bias ? nullptr : v, f32 + (heads + kv_heads) * d}};
  if (int s = linear::Run(qx, qkv, 3); s != TCPU_OK) return s;
  if (bias) {
    AddBias(f32, w.q_bias, q, heads * d);
    AddBias(f32 + heads * d, w.k_bias, k, kv_heads * d);
    AddBias(f32 + (heads + kv_heads) * d, w.v_bias, v, kv_heads * d);
  }
  if (w.q_norm != nullptr) {
    for (int64_t i = 0; i < heads; ++i) {
      if (int s = tcpu_rms_norm_bf16(q + i * d, w.q_norm, q + i * d, d, eps); s != TCPU_OK) {
        return s;
      }
    }
    for (int64_t i = 0; i < kv_heads; ++i) {
      if (int s = tcpu_rms_norm_bf16(k + i * d, w.k_norm, k + i * d, d, eps); s != TCPU_OK) {
        return s;
      }
    }
  }
  rope::Apply(rope, q, heads);
  rope::Apply(rope, k, kv_heads);
  const int64_t head_stride = cache_capacity * d;
  for (int64_t g = 0; g < kv_heads; ++g) {
    std::memcpy(k_cache + g * head_stride + position * d, k + g * d, d * sizeof(uint16_t));
    std::memcpy(v_cache + g * head_stride + position * d, v + g * d, d * sizeof(uint16_t));
  }
  const float sm_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
  if (int s = tcpu_flash_attn_decode_bf16(q, k_cache, v_cache, attn, heads, kv_heads, d,
                                          position + 1, head_stride, d, head_stride, d, sm_scale);
      s != TCPU_OK) {
    return s;
  }
  const linear::Output o_proj = {views.o, w.o_bias != nullptr ? nullptr : o, f32};
  if (int s = linear::Run(gemv::QuantizeActivation(kernel, attn, heads * d, act), &o_proj, 1);
      s != TCPU_OK) {
    return s;
  }
  if (w.o_bias != nullptr) AddBias(f32, w.o_bias, o, hidden);
  AddResidual(h, o, hidden, shape.residual_scale);

  // MLP block.
  if (int s = tcpu_rms_norm_bf16(h, w.post_attention_norm, x, hidden, eps); s != TCPU_OK) {
    return s;
  }
  if (int s = fused_mlp::Run(views.mlp, x, o, reinterpret_cast<int8_t*>(workspace + plan.mlp));
      s != TCPU_OK) {
    return s;
  }
  AddResidual(h, o, hidden, shape.residual_scale);
  return TCPU_OK;
}

void EmbedToken(const tcpu_model_weights& model, int32_t token, uint16_t* h) {
  const int64_t hidden = model.shape.hidden;
  const uint16_t* row = h;
  if (model.embed_format == TCPU_EMBED_BF16) {
    row = model.embed_tokens + static_cast<int64_t>(token) * hidden;
  } else {  // the row from the file's blocks, into h
    const auto* blocks = static_cast<const uint8_t*>(model.embed_blocks);
    const int64_t row_blocks = static_cast<int64_t>(token) * (hidden / kEmbeddingBlock);
    if (model.embed_format == TCPU_EMBED_Q4_0) {
      Q4_0ToBf16(blocks + row_blocks * kQ4_0BlockBytes, hidden, h);
    } else {
      Q8_0ToBf16(blocks + row_blocks * kQ8_0BlockBytes, hidden, h);
    }
  }
  const float scale = model.embedding_scale;
  if (scale == 0.0f || scale == 1.0f) {
    if (row != h) std::memcpy(h, row, static_cast<size_t>(hidden) * sizeof(uint16_t));
    return;
  }
  for (int64_t i = 0; i < hidden; ++i) {
    h[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(row[i]) * scale);
  }
}

int CheckEmbedding(const char* fn, const tcpu_model_weights& model) {
  switch (model.embed_format) {
    case TCPU_EMBED_BF16:
      TCPU_CHECK_NOT_NULL(fn, model.embed_tokens);
      return TCPU_OK;
    case TCPU_EMBED_Q4_0:
    case TCPU_EMBED_Q8_0:
      TCPU_CHECK_NOT_NULL(fn, model.embed_blocks);
      if (model.shape.hidden % kEmbeddingBlock != 0) {
        return Fail(TCPU_ERR_INVALID_ARGUMENT,
                    "%s: an embedding table of blocks needs hidden = %lld to be a multiple of 32",
                    fn, static_cast<long long>(model.shape.hidden));
      }
      return TCPU_OK;
    default:
      return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: embed_format = %d is not a TCPU_EMBED_* value",
                  fn, static_cast<int>(model.embed_format));
  }
}

void DivideLogitInput(const tcpu_model_weights& model, uint16_t* x) {
  const float divisor = model.logit_divisor;
  if (divisor == 0.0f || divisor == 1.0f) return;
  for (int64_t i = 0; i < model.shape.hidden; ++i) {
    x[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(x[i]) / divisor);
  }
}

}  // namespace tcpu::transformer

namespace tcpu {

// Named after the GEMV kernel it runs; its other ops report their own variants.
const char* TransformerLayerBf16Variant() {
  static const std::string name = ComposedVariant("transformer_layer_bf16", GemvBf16W8Variant());
  return name.c_str();
}

}  // namespace tcpu

extern "C" int64_t tcpu_transformer_layer_workspace_size(const tcpu_layer_shape* shape) {
  tcpu::transformer::LayerWorkspace plan;
  if (int s = tcpu::transformer::PlanLayer("tcpu_transformer_layer_workspace_size", shape, &plan);
      s != TCPU_OK) {
    return s;
  }
  tcpu::Succeed();
  return plan.total;
}

extern "C" int tcpu_transformer_layer_bf16(const tcpu_layer_shape* shape,
                                           const tcpu_layer_weights* weights, uint16_t* k_cache,
                                           uint16_t* v_cache, int64_t cache_capacity,
                                           int64_t position, uint16_t* hidden_state,
                                           void* workspace, int64_t workspace_bytes) {
  constexpr const char* kFn = "tcpu_transformer_layer_bf16";
  namespace tr = tcpu::transformer;
  tr::LayerWorkspace plan;
  if (int s = tr::PlanLayer(kFn, shape, &plan); s != TCPU_OK) return s;
  TCPU_CHECK_NOT_NULL(kFn, weights);
  TCPU_CHECK_NOT_NULL(kFn, k_cache);
  TCPU_CHECK_NOT_NULL(kFn, v_cache);
  TCPU_CHECK_NOT_NULL(kFn, hidden_state);
  TCPU_CHECK_NOT_NULL(kFn, workspace);
  TCPU_CHECK_POSITIVE(kFn, cache_capacity);
  int64_t cache_elems = 0;
  TCPU_CHECK_MUL(kFn, shape->num_kv_heads * shape->head_dim, cache_capacity, &cache_elems);
  if (position < 0 || position >= cache_capacity) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: position = %lld is outside the cache [0, %lld)", kFn,
                      static_cast<long long>(position), static_cast<long long>(cache_capacity));
  }
  if (workspace_bytes < plan.total) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL,
                      "%s: workspace_bytes = %lld, this shape needs %lld", kFn,
                      static_cast<long long>(workspace_bytes), static_cast<long long>(plan.total));
  }
  if (reinterpret_cast<uintptr_t>(workspace) % 64 != 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: workspace is not 64-byte aligned", kFn);
  }
  tr::LayerViews views;
  if (int s = tr::ViewLayer(kFn, "weights", *shape, *weights, &views); s != TCPU_OK) return s;
  tcpu::rope::Table rope;
  tr::BuildRope(*shape, position, &rope);
  if (int s = tr::RunLayer(*shape, *weights, views, plan, rope, k_cache, v_cache, cache_capacity,
                           position, hidden_state, static_cast<uint8_t*>(workspace));
      s != TCPU_OK) {
    return s;
  }
  return tcpu::Succeed();
}
