#include "engine/model/model_config.h"

#include <cmath>

#include "engine/common/json_text.h"
#include "engine/model/architecture.h"
#include "engine/model/config_reader.h"

namespace tcpu::model {
namespace {

using L = ConfigLimits;

constexpr double kPi = 3.14159265358979323846;

// a * b into *out unless it overflows int64.
bool Mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
bool Add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

// The config.json reader plus the steps that fill a ModelConfig.
class Parser : public ConfigReader {
 public:
  using ConfigReader::ConfigReader;

  bool Sizes(ModelConfig* c);
  bool Family(ModelConfig* c);
  bool RopeScaling(ModelConfig* c);
  bool Parameters(ModelConfig* c);
};

bool Parser::Sizes(ModelConfig* c) {
  if (!Int("hidden_size", true, L::kMaxHidden, &c->hidden_size) ||
      !Int("intermediate_size", true, L::kMaxIntermediate, &c->intermediate_size) ||
      !Int("num_hidden_layers", true, L::kMaxLayers, &c->num_hidden_layers) ||
      !Int("num_attention_heads", true, L::kMaxHeads, &c->num_attention_heads) ||
      !Int("vocab_size", true, L::kMaxVocab, &c->vocab_size) ||
      !Int("max_position_embeddings", true, L::kMaxPositions, &c->max_position_embeddings) ||
      !Number(json_, "rms_norm_eps", true, 1.0, &c->rms_norm_eps) ||
      !Number(json_, "rope_theta", false, 1e12, &c->rope_theta)) {
    return false;
  }
  c->num_key_value_heads = c->num_attention_heads;
  if (!Int("num_key_value_heads", false, L::kMaxHeads, &c->num_key_value_heads)) return false;
  // MiniCPM4 names the head size kv_channels.
  for (const char* field : {"head_dim", "kv_channels"}) {
    if (c->head_dim == 0 && !Int(field, false, L::kMaxHeadDim, &c->head_dim)) return false;
  }
  if (c->head_dim == 0) {
    if (c->hidden_size % c->num_attention_heads != 0) {
      return Fail("field 'head_dim' is missing and hidden_size " +
                  std::to_string(c->hidden_size) + " is not a multiple of num_attention_heads " +
                  std::to_string(c->num_attention_heads));
    }
    c->head_dim = c->hidden_size / c->num_attention_heads;
  }
  if (c->num_attention_heads % c->num_key_value_heads != 0) {
    return Fail("field 'num_key_value_heads' = " + std::to_string(c->num_key_value_heads) +
                " does not divide num_attention_heads = " +
                std::to_string(c->num_attention_heads));
  }
  if (c->head_dim % 2 != 0 || c->head_dim > L::kMaxHeadDim) {
    return Fail("field 'head_dim' = " + std::to_string(c->head_dim) +
                " must be even (RoPE) and at most " + std::to_string(L::kMaxHeadDim));
  }
  return Parameters(c);
}

// The weights the shapes imply, in int64 with overflow checks: what the loader will map,
// quantize and pack, bounded before anything is allocated.
bool Parser::Parameters(ModelConfig* c) {
  const int64_t h = c->hidden_size, d = c->head_dim;
  int64_t q = 0, kv = 0, attn = 0, mlp = 0, layer = 0, layers = 0, embed = 0, total = 0;
  const bool ok = Mul(c->num_attention_heads, d, &q) && Mul(c->num_key_value_heads, d, &kv) &&
                  Add(q, q, &attn) && Add(attn, 2 * kv, &attn) && Mul(attn, h, &attn) &&
                  Mul(3 * c->intermediate_size, h, &mlp) && Add(attn, mlp, &layer) &&
                  Mul(layer, c->num_hidden_layers, &layers) &&
                  Mul(c->vocab_size, h, &embed) &&
                  Add(layers, c->tie_word_embeddings ? embed : 2 * embed, &total);
  if (!ok || total > L::kMaxParameters) {
    return Fail("the sizes imply " + (ok ? std::to_string(total) : std::string("over 2^63")) +
                " weights, more than the supported " + std::to_string(L::kMaxParameters));
  }
  c->parameters = total;
  return true;
}

// What every architecture shares (the SwiGLU MLP without biases, full attention), then what
// the checkpoint's architecture file says (architectures/).
bool Parser::Family(ModelConfig* c) {
  const Architecture* arch = FindArchitecture(c->architecture);
  if (arch == nullptr) {
    return Fail("field 'architectures': '" + c->architecture.substr(0, 64) +
                "' is not supported (" + SupportedArchitectures() + ")");
  }
  if (const auto act = json_.find("hidden_act"); act != json_.end() && !act->is_null()) {
    if (!act->is_string() || act->get<std::string>() != "silu") {
      return Fail("field 'hidden_act' must be \"silu\" (the SwiGLU MLP)");
    }
  }
  bool attention_bias = false, mlp_bias = false, sliding = false;
  if (!Bool("attention_bias", &attention_bias) || !Bool("mlp_bias", &mlp_bias) ||
      !Bool("use_sliding_window", &sliding)) {
    return false;
  }
  if (mlp_bias) return Fail("field 'mlp_bias' = true is not supported (no MLP biases)");
  if (sliding) return Fail("field 'use_sliding_window' = true is not supported");
  return arch->configure(*this, attention_bias, c);
}

bool Parser::RopeScaling(ModelConfig* c) {
  const int64_t half = c->head_dim / 2;
  // From rope_theta rounded to fp32 (tcpu_layer_shape's field), so the unscaled table is
  // exactly the one tcpu_rope_bf16 computes.
  const double theta = static_cast<float>(c->rope_theta);
  c->rope_inv_freq.resize(static_cast<size_t>(half));
  for (int64_t i = 0; i < half; ++i) {
    c->rope_inv_freq[i] =
        std::pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(c->head_dim));
  }
  const auto scaling = json_.find("rope_scaling");
  if (scaling == json_.end() || scaling->is_null()) return true;
  if (!scaling->is_object()) return Fail("field 'rope_scaling' must be an object or null");
  std::string type = "?";
  for (const char* key : {"rope_type", "type"}) {
    if (const auto t = scaling->find(key); t != scaling->end() && t->is_string()) {
      type = t->get<std::string>().substr(0, 32);
      break;
    }
  }
  c->rope_type = type;
  const Json& s = *scaling;
  auto original_max = [&](double* out) {
    if (s.contains("original_max_position_embeddings")) {
      return Number(s, "original_max_position_embeddings", true, L::kMaxPositions, out);
    }
    return Number(json_, "original_max_position_embeddings", true, L::kMaxPositions, out);
  };
  if (type == "default") return true;
  if (type == "linear") {
    double factor = 1.0;
    if (!Number(s, "factor", true, 1e6, &factor)) return false;
    for (double& f : c->rope_inv_freq) f /= factor;
    return true;
  }
  if (type == "llama3") {
    // transformers' _compute_llama3_parameters: long wavelengths slowed by `factor`, short
    // ones kept, the band between blended.
    double factor = 0, low = 0, high = 0, old_context = 0;
    if (!Number(s, "factor", true, 1e6, &factor) ||
        !Number(s, "low_freq_factor", true, 1e6, &low) ||
        !Number(s, "high_freq_factor", true, 1e6, &high) || !original_max(&old_context)) {
      return false;
    }
    if (!(high > low)) {
      return Fail("field 'rope_scaling': high_freq_factor must exceed low_freq_factor");
    }
    const double low_wavelen = old_context / low, high_wavelen = old_context / high;
    for (double& f : c->rope_inv_freq) {
      const double wavelen = 2 * kPi / f;
      double scaled = wavelen > low_wavelen ? f / factor : f;
      if (!(wavelen < high_wavelen) && !(wavelen > low_wavelen)) {
        const double smooth = (old_context / wavelen - low) / (high - low);
        scaled = (1 - smooth) * scaled / factor + smooth * scaled;
      }
      f = scaled;
    }
    return true;
  }
  if (type == "longrope") {
    // As MiniCPM4's modeling file (MiniCPMLongRoPE): its cos/sin cache is built once for
    // max_position_embeddings, so the long factors apply at every position when that exceeds
    // original_max_position_embeddings (the short ones otherwise), and cos and sin are scaled by
    // sqrt(1 + ln(max / original) / ln(original)) unless attention_factor is given.
    double original = 0;
    if (!original_max(&original)) return false;
    const double factor = static_cast<double>(c->max_position_embeddings) / original;
    const char* which = factor > 1.0 ? "long_factor" : "short_factor";
    const auto list = s.find(which);
    if (list == s.end() || !list->is_array() || static_cast<int64_t>(list->size()) != half) {
      return Fail(std::string("field 'rope_scaling': '") + which + "' must be a list of " +
                  std::to_string(half) + " numbers (head_dim / 2)");
    }
    for (int64_t i = 0; i < half; ++i) {
      const Json& v = (*list)[static_cast<size_t>(i)];
      if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>())) {
        return Fail(std::string("field 'rope_scaling': '") + which + "'[" + std::to_string(i) +
                    "] must be a positive finite number");
      }
      c->rope_inv_freq[i] /= v.get<double>();
    }
    c->rope_attention_scale =
        factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(factor) / std::log(original));
    if (!Number(s, "attention_factor", false, 1e3, &c->rope_attention_scale)) return false;
    return true;
  }
  return Fail("field 'rope_scaling' of type '" + type +
              "' is not supported (default, linear, llama3, longrope)");
}

}  // namespace

bool ParseModelConfig(const std::string& text, const std::string& name, ModelConfig* config,
                      std::string* error) {
  Json json;
  const bool well_formed = engine::ParseJson(text, &json);
  Parser parser(json, name, error);
  if (!well_formed) return parser.Fail("not well-formed JSON");
  if (!json.is_object()) return parser.Fail("not a JSON object");
  ModelConfig c;
  const auto arch = json.find("architectures");
  if (arch == json.end() || !arch->is_array() || arch->empty() || !(*arch)[0].is_string()) {
    return parser.Fail("field 'architectures' must be a non-empty list of strings");
  }
  c.architecture = (*arch)[0].get<std::string>();
  if (!parser.Bool("tie_word_embeddings", &c.tie_word_embeddings) || !parser.Sizes(&c) ||
      !parser.Family(&c) || !parser.RopeScaling(&c)) {
    return false;
  }
  *config = std::move(c);
  return true;
}

}  // namespace tcpu::model
