#include "runtime/model/model_config.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace tcpu::model {
namespace {

using Json = nlohmann::json;

// MiniCPM's Llama-style checkpoints name these; they scale embeddings, residuals and logits
// (muP). The engine runs the plain Llama graph, so a value other than the neutral one is
// refused rather than ignored.
struct NeutralField {
  const char* name;
  double neutral;
};
constexpr NeutralField kScaleFields[] = {
    {"scale_emb", 1.0}, {"scale_depth", -1.0}, {"dim_model_base", -1.0}};

}  // namespace

bool ParseModelConfig(const std::string& text, const std::string& name, ModelConfig* config,
                      std::string* error) {
  auto fail = [&](const std::string& what) {
    *error = name + ": " + what;
    return false;
  };
  const Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return fail("not well-formed JSON");
  if (!json.is_object()) return fail("not a JSON object");
  ModelConfig c;

  const auto arch = json.find("architectures");
  if (arch == json.end() || !arch->is_array() || arch->empty() || !(*arch)[0].is_string()) {
    return fail("field 'architectures' must be a non-empty list of strings");
  }
  c.architecture = (*arch)[0].get<std::string>();
  if (c.architecture == "Qwen3ForCausalLM") {
    c.qk_norm = true;
  } else if (c.architecture != "LlamaForCausalLM" && c.architecture != "MiniCPMForCausalLM") {
    return fail("field 'architectures': '" + c.architecture.substr(0, 64) +
                "' is not supported (LlamaForCausalLM, MiniCPMForCausalLM, Qwen3ForCausalLM)");
  }

  auto get_int = [&](const char* field, bool required, int64_t* out) {
    const auto it = json.find(field);
    if (it == json.end() || it->is_null()) {
      if (required) return fail(std::string("required field '") + field + "' is missing");
      return true;
    }
    if (!it->is_number_integer() || it->get<int64_t>() <= 0) {
      return fail(std::string("field '") + field + "' must be a positive integer");
    }
    *out = it->get<int64_t>();
    return true;
  };
  auto get_float = [&](const char* field, bool required, double* out) {
    const auto it = json.find(field);
    if (it == json.end() || it->is_null()) {
      if (required) return fail(std::string("required field '") + field + "' is missing");
      return true;
    }
    if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>())) {
      return fail(std::string("field '") + field + "' must be a positive finite number");
    }
    *out = it->get<double>();
    return true;
  };
  if (!get_int("hidden_size", true, &c.hidden_size) ||
      !get_int("intermediate_size", true, &c.intermediate_size) ||
      !get_int("num_hidden_layers", true, &c.num_hidden_layers) ||
      !get_int("num_attention_heads", true, &c.num_attention_heads) ||
      !get_int("vocab_size", true, &c.vocab_size) ||
      !get_int("max_position_embeddings", true, &c.max_position_embeddings) ||
      !get_float("rms_norm_eps", true, &c.rms_norm_eps) ||
      !get_float("rope_theta", false, &c.rope_theta)) {
    return false;
  }
  c.num_key_value_heads = c.num_attention_heads;
  if (!get_int("num_key_value_heads", false, &c.num_key_value_heads)) return false;
  if (json.contains("head_dim") && !json["head_dim"].is_null()) {
    if (!get_int("head_dim", false, &c.head_dim)) return false;
  } else if (c.hidden_size % c.num_attention_heads != 0) {
    return fail("field 'head_dim' is missing and hidden_size " + std::to_string(c.hidden_size) +
                " is not a multiple of num_attention_heads " +
                std::to_string(c.num_attention_heads));
  } else {
    c.head_dim = c.hidden_size / c.num_attention_heads;
  }
  if (c.num_attention_heads % c.num_key_value_heads != 0) {
    return fail("field 'num_key_value_heads' = " + std::to_string(c.num_key_value_heads) +
                " does not divide num_attention_heads = " +
                std::to_string(c.num_attention_heads));
  }
  if (c.head_dim % 2 != 0) {
    return fail("field 'head_dim' = " + std::to_string(c.head_dim) + " must be even (RoPE)");
  }
  if (c.vocab_size > INT32_MAX) return fail("field 'vocab_size' does not fit int32 token ids");

  if (const auto tie = json.find("tie_word_embeddings"); tie != json.end() && !tie->is_null()) {
    if (!tie->is_boolean()) return fail("field 'tie_word_embeddings' must be true or false");
    c.tie_word_embeddings = tie->get<bool>();
  }
  if (const auto scaling = json.find("rope_scaling");
      scaling != json.end() && !scaling->is_null()) {
    std::string type = "?";
    if (scaling->is_object()) {
      for (const char* key : {"rope_type", "type"}) {
        if (const auto t = scaling->find(key); t != scaling->end() && t->is_string()) {
          type = t->get<std::string>().substr(0, 32);
          break;
        }
      }
    }
    if (type != "default") {
      return fail("field 'rope_scaling' of type '" + type +
                  "' is not supported (only plain RoPE: null or type 'default')");
    }
  }
  if (const auto act = json.find("hidden_act"); act != json.end() && !act->is_null()) {
    if (!act->is_string() || act->get<std::string>() != "silu") {
      return fail("field 'hidden_act' must be \"silu\" (the SwiGLU MLP)");
    }
  }
  for (const char* field : {"attention_bias", "mlp_bias"}) {
    if (const auto bias = json.find(field); bias != json.end() && !bias->is_null()) {
      if (!bias->is_boolean() || bias->get<bool>()) {
        return fail(std::string("field '") + field + "' = true is not supported (no biases)");
      }
    }
  }
  for (const NeutralField& f : kScaleFields) {
    if (const auto it = json.find(f.name); it != json.end() && !it->is_null()) {
      if (!it->is_number() || it->get<double>() != f.neutral) {
        return fail(std::string("field '") + f.name +
                    "' (MiniCPM muP scaling) is not supported unless it is " +
                    std::to_string(f.neutral).substr(0, 4));
      }
    }
  }
  *config = c;
  return true;
}

}  // namespace tcpu::model
