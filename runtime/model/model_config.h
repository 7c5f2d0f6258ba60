// config.json of a Hugging Face Llama-architecture checkpoint (LlamaForCausalLM, MiniCPM's
// Llama-style models, Qwen3ForCausalLM), validated: a field the engine does not support is an
// error naming it, never silently ignored.
#ifndef TCPU_RUNTIME_MODEL_MODEL_CONFIG_H_
#define TCPU_RUNTIME_MODEL_MODEL_CONFIG_H_

#include <cstdint>
#include <string>

namespace tcpu::model {

struct ModelConfig {
  std::string architecture;  // architectures[0]
  int64_t hidden_size = 0;
  int64_t intermediate_size = 0;
  int64_t num_hidden_layers = 0;
  int64_t num_attention_heads = 0;
  int64_t num_key_value_heads = 0;
  int64_t head_dim = 0;  // hidden_size / num_attention_heads unless given
  int64_t vocab_size = 0;
  int64_t max_position_embeddings = 0;
  double rms_norm_eps = 0;
  double rope_theta = 10000.0;
  bool tie_word_embeddings = false;
  bool qk_norm = false;  // Qwen3: per-head q_norm / k_norm
};

// Parses config.json text. `name` labels errors ("DIR/config.json: field 'x' ...").
bool ParseModelConfig(const std::string& text, const std::string& name, ModelConfig* config,
                      std::string* error);

}  // namespace tcpu::model

#endif  // TCPU_RUNTIME_MODEL_MODEL_CONFIG_H_
