// MiniCPMForCausalLM (MiniCPM, MiniCPM4) with muP: embeddings x scale_emb, each residual
// branch x scale_depth / sqrt(num_hidden_layers), the final normed hidden state / (hidden_size /
// dim_model_base) before lm_head (MiniCPMConfig's defaults of 1 when absent). attention_bias as
// Llama's.
#include <cmath>

#include "engine/model/architecture.h"

namespace tcpu::model {

namespace {

bool ConfigureMiniCpm(ConfigReader& config, bool attention_bias, ModelConfig* c) {
  if (attention_bias) c->qkv_bias = c->o_bias = true;
  bool use_mup = true;
  if (!config.Bool("use_mup", &use_mup)) return false;
  if (!use_mup) {
    return config.Fail("field 'use_mup' = false is not supported (muP is always applied)");
  }
  double scale_emb = 1.0, scale_depth = 1.0, dim_model_base = 1.0;
  if (!config.Number(config.json(), "scale_emb", false, 1e6, &scale_emb) ||
      !config.Number(config.json(), "scale_depth", false, 1e6, &scale_depth) ||
      !config.Number(config.json(), "dim_model_base", false, 1e9, &dim_model_base)) {
    return false;
  }
  c->embedding_scale = scale_emb;
  c->residual_scale = scale_depth / std::sqrt(static_cast<double>(c->num_hidden_layers));
  c->logit_divisor = static_cast<double>(c->hidden_size) / dim_model_base;
  return true;
}

}  // namespace

extern const Architecture kMiniCpm = {"MiniCPMForCausalLM", ConfigureMiniCpm};

}  // namespace tcpu::model
