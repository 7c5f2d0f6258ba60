// Qwen2ForCausalLM (Qwen2, Qwen2.5): biases on q, k and v, always (transformers'
// Qwen2Attention; attention_bias is ignored), none on o.
#include "engine/model/architecture.h"

namespace tcpu::model {

namespace {

bool ConfigureQwen2(ConfigReader& config, bool, ModelConfig* c) {
  c->qkv_bias = true;
  return RefuseMupFields(config, c->architecture);
}

}  // namespace

extern const Architecture kQwen2 = {"Qwen2ForCausalLM", ConfigureQwen2};

}  // namespace tcpu::model
