// config.json of a Hugging Face checkpoint of the Llama family (LlamaForCausalLM,
// MiniCPMForCausalLM, Qwen2ForCausalLM, Qwen3ForCausalLM), validated before anything is
// allocated: every size is range-checked (the products the loader allocates are computed in
// int64 with overflow checks), a field the engine does not support is an error naming it,
// never silently ignored, and what the family computes differently (muP scales, biases,
// scaled RoPE frequencies) is resolved here into plain numbers; each architecture's part in
// its own file under architectures/ (architecture.h).
#ifndef TCPU_ENGINE_MODEL_MODEL_CONFIG_H_
#define TCPU_ENGINE_MODEL_MODEL_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tcpu::model {

// Upper bounds on config.json sizes: several times the largest released models of these
// families, low enough that every product below fits int64 with room to spare.
struct ConfigLimits {
  static constexpr int64_t kMaxHidden = int64_t{1} << 16;
  static constexpr int64_t kMaxIntermediate = int64_t{1} << 20;
  static constexpr int64_t kMaxLayers = 1024;
  static constexpr int64_t kMaxHeads = 1024;
  static constexpr int64_t kMaxHeadDim = 2048;  // tcpu_rope_bf16's table
  static constexpr int64_t kMaxVocab = int64_t{1} << 24;
  static constexpr int64_t kMaxPositions = int64_t{1} << 26;
  static constexpr int64_t kMaxParameters = int64_t{1} << 42;
};

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
  // Where that limit was read, for errors: config.json's field or a GGUF file's key.
  std::string max_positions_key = "max_position_embeddings";
  int64_t parameters = 0;  // weights the shapes above imply (for the size check)
  double rms_norm_eps = 0;
  double rope_theta = 10000.0;
  bool tie_word_embeddings = false;
  bool qk_norm = false;  // Qwen3: per-head q_norm / k_norm
  bool qkv_bias = false;  // Qwen2, Llama attention_bias: q/k/v_proj.bias
  bool o_bias = false;    // Llama attention_bias: o_proj.bias too
  // MiniCPM muP (1 elsewhere): embeddings x embedding_scale (scale_emb), each residual branch x
  // residual_scale (scale_depth / sqrt(num_hidden_layers)), the final normed hidden state
  // / logit_divisor (hidden_size / dim_model_base) before lm_head.
  double embedding_scale = 1.0;
  double residual_scale = 1.0;
  double logit_divisor = 1.0;
  // RoPE after rope_scaling: inv_freq[i] for i < head_dim / 2 (plain: theta^(-2i/head_dim)),
  // and the factor cos and sin are multiplied by (longrope's attention factor, else 1).
  std::string rope_type = "default";
  std::vector<double> rope_inv_freq;
  double rope_attention_scale = 1.0;
};

// Parses config.json text. `name` labels errors ("DIR/config.json: field 'x' ...").
bool ParseModelConfig(const std::string& text, const std::string& name, ModelConfig* config,
                      std::string* error);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_MODEL_CONFIG_H_
