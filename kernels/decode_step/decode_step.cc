// tcpu_decode_step: one token through a whole model on the fused layer. Weights are checked
// (header views, cheap) on every call, so a bad model is an error, never a wild read; the
// workspace holds everything, so a step allocates nothing.
#include <cmath>
#include <cstring>
#include <string>

#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/linear/linear.h"
#include "kernels/transformer_layer/transformer_layer_internal.h"
#include "runtime/check.h"
#include "runtime/greedy.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "tcpu/rms_norm.h"
#include "tcpu/transformer.h"

namespace tcpu::transformer {
namespace {

// The step's workspace: the layer's, then h and the normed h (bf16 [hidden] each), then the
// lm_head's quantized activation.
struct StepWorkspace {
  LayerWorkspace layer;
  int64_t h = 0, x = 0, act = 0, total = 0;
};

int PlanStep(const char* fn, const tcpu_model_weights* model, StepWorkspace* plan) {
  TCPU_CHECK_NOT_NULL(fn, model);
  if (int s = PlanLayer(fn, &model->shape, &plan->layer); s != TCPU_OK) return s;
  TCPU_CHECK_POSITIVE(fn, model->num_layers);
  TCPU_CHECK_POSITIVE(fn, model->vocab_size);
  if (model->vocab_size > INT32_MAX) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: model->vocab_size = %lld does not fit int32", fn,
                static_cast<long long>(model->vocab_size));
  }
  for (const float value : {model->embedding_scale, model->logit_divisor}) {
    if (!(value == 0.0f || (value > 0.0f && std::isfinite(value)))) {
      return Fail(TCPU_ERR_INVALID_ARGUMENT,
                  "%s: model->%s = %g must be 0 (meaning 1) or > 0 and finite", fn,
                  value == model->embedding_scale ? "embedding_scale" : "logit_divisor",
                  static_cast<double>(value));
    }
  }
  int64_t act = 0;
  if (int s = gemv::ActivationScratchBytes(fn, gemv::Bf16W8Kernel(), model->shape.hidden, &act);
      s != TCPU_OK) {
    return s;
  }
  const int64_t h_bytes = AlignScratch(2 * model->shape.hidden);
  plan->h = plan->layer.total;
  plan->x = plan->h + h_bytes;
  plan->act = plan->x + h_bytes;
  if (__builtin_add_overflow(plan->act, act, &plan->total)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: the step's workspace size overflows int64", fn);
  }
  return TCPU_OK;
}

}  // namespace
}  // namespace tcpu::transformer

namespace tcpu {

// Named after the GEMV kernel it runs; its other ops report their own variants.
const char* DecodeStepVariant() {
  static const std::string name = ComposedVariant("decode_step", GemvBf16W8Variant());
  return name.c_str();
}

}  // namespace tcpu

extern "C" int64_t tcpu_decode_step_workspace_size(const tcpu_model_weights* model) {
  tcpu::transformer::StepWorkspace plan;
  if (int s = tcpu::transformer::PlanStep("tcpu_decode_step_workspace_size", model, &plan);
      s != TCPU_OK) {
    return s;
  }
  tcpu::Succeed();
  return plan.total;
}

extern "C" int tcpu_decode_step(const tcpu_model_weights* model, uint16_t* k_cache,
                                uint16_t* v_cache, int64_t cache_capacity, int64_t position,
                                int32_t token, float* logits, int32_t* next_token, void* workspace,
                                int64_t workspace_bytes) {
  constexpr const char* kFn = "tcpu_decode_step";
  namespace tr = tcpu::transformer;
  tr::StepWorkspace plan;
  if (int s = tr::PlanStep(kFn, model, &plan); s != TCPU_OK) return s;
  if (int s = tr::CheckEmbedding(kFn, *model); s != TCPU_OK) return s;
  TCPU_CHECK_NOT_NULL(kFn, model->layers);
  TCPU_CHECK_NOT_NULL(kFn, model->final_norm);
  TCPU_CHECK_NOT_NULL(kFn, k_cache);
  TCPU_CHECK_NOT_NULL(kFn, v_cache);
  TCPU_CHECK_NOT_NULL(kFn, logits);
  TCPU_CHECK_NOT_NULL(kFn, next_token);
  TCPU_CHECK_NOT_NULL(kFn, workspace);
  TCPU_CHECK_POSITIVE(kFn, cache_capacity);
  const tcpu_layer_shape& shape = model->shape;
  int64_t layer_cache = 0, all_cache = 0;
  TCPU_CHECK_MUL(kFn, shape.num_kv_heads * shape.head_dim, cache_capacity, &layer_cache);
  TCPU_CHECK_MUL(kFn, layer_cache, model->num_layers, &all_cache);
  if (position < 0 || position >= cache_capacity) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: position = %lld is outside the cache [0, %lld)", kFn,
                      static_cast<long long>(position), static_cast<long long>(cache_capacity));
  }
  if (token < 0 || token >= model->vocab_size) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: token = %d is outside the vocabulary [0, %lld)", kFn, token,
                      static_cast<long long>(model->vocab_size));
  }
  if (workspace_bytes < plan.total) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL,
                      "%s: workspace_bytes = %lld, this model needs %lld", kFn,
                      static_cast<long long>(workspace_bytes), static_cast<long long>(plan.total));
  }
  if (reinterpret_cast<uintptr_t>(workspace) % 64 != 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: workspace is not 64-byte aligned", kFn);
  }
  tcpu::linear::LinearView lm_head;
  if (int s = tcpu::linear::View("tcpu_decode_step: lm_head", model->lm_head.packed,
                                 model->lm_head.scales, model->vocab_size, shape.hidden, &lm_head);
      s != TCPU_OK) {
    return s;
  }
  // Validate every layer before touching the caches, so a bad model changes nothing.
  for (int64_t i = 0; i < model->num_layers; ++i) {
    tr::LayerViews views;
    if (int s = tcpu::CheckNamed(
            [&](const char* what) {
              return tr::ViewLayer(kFn, what, shape, model->layers[i], &views);
            },
            "layer %lld", static_cast<long long>(i));
        s != TCPU_OK) {
      return s;
    }
  }

  uint8_t* ws = static_cast<uint8_t*>(workspace);
  uint16_t* h = reinterpret_cast<uint16_t*>(ws + plan.h);
  uint16_t* x = reinterpret_cast<uint16_t*>(ws + plan.x);
  tr::EmbedToken(*model, token, h);
  tcpu::rope::Table rope;  // one rotation for every layer's queries and keys
  tr::BuildRope(shape, position, &rope);
  for (int64_t i = 0; i < model->num_layers; ++i) {
    tr::LayerViews views;
    tr::ViewLayer(kFn, "layer", shape, model->layers[i], &views);  // checked above
    if (int s = tr::RunLayer(shape, model->layers[i], views, plan.layer, rope,
                             k_cache + i * layer_cache, v_cache + i * layer_cache, cache_capacity,
                             position, h, ws);
        s != TCPU_OK) {
      return s;
    }
  }
  if (int s = tcpu_rms_norm_bf16(h, model->final_norm, x, shape.hidden, shape.rms_norm_eps);
      s != TCPU_OK) {
    return s;
  }
  tr::DivideLogitInput(*model, x);
  const tcpu::gemv::GemvKernel& kernel = tcpu::gemv::Bf16W8Kernel();
  tcpu::linear::Output head;
  head.weights = lm_head;
  head.y_f32 = logits;
  if (int s =
          tcpu::linear::Run(tcpu::gemv::QuantizeActivation(
                                kernel, x, shape.hidden, reinterpret_cast<int8_t*>(ws + plan.act)),
                            &head, 1);
      s != TCPU_OK) {
    return s;
  }
  *next_token = tcpu::GreedyToken(logits, model->vocab_size);
  return tcpu::Succeed();
}
