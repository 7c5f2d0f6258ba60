// LlamaForCausalLM (Llama 2, 3.x): the plain decoder; attention_bias puts a bias on q, k, v
// and o (transformers' LlamaAttention).
#include "engine/model/architecture.h"

namespace tcpu::model {

namespace {

bool ConfigureLlama(ConfigReader& config, bool attention_bias, ModelConfig* c) {
  if (attention_bias) c->qkv_bias = c->o_bias = true;
  return RefuseMupFields(config, c->architecture);
}

}  // namespace

extern const Architecture kLlama = {"LlamaForCausalLM", ConfigureLlama};

}  // namespace tcpu::model
