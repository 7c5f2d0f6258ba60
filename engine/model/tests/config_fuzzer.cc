// libFuzzer target over config.json: any bytes as the config text. A refusal must say why;
// an accepted config must satisfy everything the loader relies on before it allocates
// (sizes within ConfigLimits, heads dividing evenly, the parameter count exact and bounded,
// a finite RoPE table of head_dim / 2 entries, finite positive scales). A violation traps.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/model/model_config.h"

namespace {

using tcpu::model::ConfigLimits;
using tcpu::model::ModelConfig;

bool Within(int64_t value, int64_t max) { return value >= 1 && value <= max; }
bool PositiveFinite(double value) { return value > 0 && std::isfinite(value); }

bool Consistent(const ModelConfig& c) {
  if (!Within(c.hidden_size, ConfigLimits::kMaxHidden) ||
      !Within(c.intermediate_size, ConfigLimits::kMaxIntermediate) ||
      !Within(c.num_hidden_layers, ConfigLimits::kMaxLayers) ||
      !Within(c.num_attention_heads, ConfigLimits::kMaxHeads) ||
      !Within(c.num_key_value_heads, c.num_attention_heads) ||
      !Within(c.head_dim, ConfigLimits::kMaxHeadDim) ||
      !Within(c.vocab_size, ConfigLimits::kMaxVocab) ||
      !Within(c.max_position_embeddings, ConfigLimits::kMaxPositions) ||
      !Within(c.parameters, ConfigLimits::kMaxParameters)) {
    return false;
  }
  if (c.num_attention_heads % c.num_key_value_heads != 0 || c.head_dim % 2 != 0) return false;
  // The parameter count recomputed in 128 bits must equal the checked int64 one.
  const __int128 h = c.hidden_size, d = c.head_dim;
  const __int128 q = c.num_attention_heads * d, kv = c.num_key_value_heads * d;
  const __int128 layer = (2 * q + 2 * kv) * h + 3 * static_cast<__int128>(c.intermediate_size) * h;
  const __int128 embed = static_cast<__int128>(c.vocab_size) * h;
  if (layer * c.num_hidden_layers + (c.tie_word_embeddings ? 1 : 2) * embed != c.parameters) {
    return false;
  }
  if (static_cast<int64_t>(c.rope_inv_freq.size()) != c.head_dim / 2) return false;
  for (double f : c.rope_inv_freq) {
    if (!(f >= 0) || !std::isfinite(f)) return false;
  }
  return PositiveFinite(c.rms_norm_eps) && PositiveFinite(c.rope_theta) &&
         PositiveFinite(c.rope_attention_scale) && PositiveFinite(c.embedding_scale) &&
         PositiveFinite(c.residual_scale) && PositiveFinite(c.logit_divisor) &&
         std::isfinite(static_cast<float>(c.rope_theta)) &&
         std::isfinite(static_cast<float>(c.residual_scale)) &&
         std::isfinite(static_cast<float>(c.embedding_scale)) &&
         std::isfinite(static_cast<float>(c.logit_divisor));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ModelConfig config;
  std::string error;
  if (tcpu::model::ParseModelConfig(text, "fuzz", &config, &error)) {
    if (!Consistent(config)) __builtin_trap();
  } else if (error.empty()) {
    __builtin_trap();  // every refusal must say why
  }
  return 0;
}
