// Qwen3ForCausalLM: a per-head RMSNorm on q and k before RoPE; attention_bias puts a bias on
// q, k, v and o.
#include "engine/model/architecture.h"

namespace tcpu::model {

namespace {

bool ConfigureQwen3(ConfigReader& config, bool attention_bias, ModelConfig* c) {
  c->qk_norm = true;
  if (attention_bias) c->qkv_bias = c->o_bias = true;
  return RefuseMupFields(config, c->architecture);
}

}  // namespace

extern const Architecture kQwen3 = {"Qwen3ForCausalLM", ConfigureQwen3};

}  // namespace tcpu::model
