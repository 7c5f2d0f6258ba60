#include "engine/model/gguf_model_config.h"

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "engine/common/json_text.h"

namespace tcpu::model {
namespace {

using Json = nlohmann::json;

// general.architecture against config.json's architectures[0].
struct ArchitectureName {
  const char* gguf;
  const char* hf;
};
constexpr ArchitectureName kArchitectures[] = {
    {"llama", "LlamaForCausalLM"},
    {"qwen2", "Qwen2ForCausalLM"},
    {"qwen3", "Qwen3ForCausalLM"},
    {"minicpm", "MiniCPMForCausalLM"},
};

// A config.json field and the `<arch>.` key that carries it.
struct Field {
  const char* json;
  const char* key;  // after "<arch>."
  bool required;
  bool integer;  // else a float
};
constexpr Field kFields[] = {
    {"max_position_embeddings", "context_length", true, true},
    {"hidden_size", "embedding_length", true, true},
    {"num_hidden_layers", "block_count", true, true},
    {"intermediate_size", "feed_forward_length", true, true},
    {"num_attention_heads", "attention.head_count", true, true},
    {"num_key_value_heads", "attention.head_count_kv", false, true},
    {"head_dim", "attention.key_length", false, true},
    {"rms_norm_eps", "attention.layer_norm_rms_epsilon", true, false},
    {"rope_theta", "rope.freq_base", false, false},
};

class Reader {
 public:
  Reader(const gguf::GgufFile& file, const std::string& name, std::string* error)
      : file_(file), name_(name), error_(error) {}

  bool Fail(const std::string& what) {
    *error_ = name_ + ": " + what;
    return false;
  }
  // An accessor's error (which names the key) prefixed with the file.
  bool Failed() { return Fail(*error_); }

  bool Architecture(std::string* arch, std::string* hf);
  bool Sizes(const std::string& arch, Json* config);
  bool Vocabulary(const std::string& arch, Json* config);
  bool RopeScaling(const std::string& arch, Json* config);
  bool LongRope(const std::string& arch, Json* scaling);
  bool MiniCpmScales(ModelConfig* config);
  bool RopeFactors(ModelConfig* config);
  bool Consistent(const std::string& arch, const ModelConfig& config);

 private:
  const gguf::GgufFile& file_;
  const std::string& name_;
  std::string* error_;
};

bool Reader::Architecture(std::string* arch, std::string* hf) {
  std::string_view value;
  if (!file_.GetString("general.architecture", &value, error_)) return Failed();
  std::string supported;
  for (const ArchitectureName& a : kArchitectures) {
    if (value == a.gguf) {
      *arch = a.gguf;
      *hf = a.hf;
      return true;
    }
    supported += (supported.empty() ? "" : ", ") + std::string(a.gguf);
  }
  return Fail("metadata key 'general.architecture' = '" + std::string(value.substr(0, 64)) +
              "' is not supported (" + supported + ")");
}

bool Reader::Sizes(const std::string& arch, Json* config) {
  for (const Field& f : kFields) {
    const std::string key = arch + "." + f.key;
    if (!f.required && file_.FindValue(key) == nullptr) continue;
    if (f.integer) {
      int64_t v = 0;
      if (!file_.GetInt64(key, &v, error_)) return Failed();
      (*config)[f.json] = v;
    } else {
      double v = 0;
      if (!file_.GetFloat64(key, &v, error_)) return Failed();
      (*config)[f.json] = v;
    }
  }
  return true;
}

// The vocabulary is the token list (what token_embd's rows index); `<arch>.vocab_size` when a
// file carries no tokenizer.
bool Reader::Vocabulary(const std::string& arch, Json* config) {
  constexpr char kTokens[] = "tokenizer.ggml.tokens";
  const std::string vocab_key = arch + ".vocab_size";
  if (file_.FindValue(kTokens) != nullptr) {
    const gguf::Value* tokens = file_.FindValue(kTokens);
    if (tokens->type != gguf::ValueType::kArray ||
        tokens->element_type != gguf::ValueType::kString) {
      return Fail(std::string("metadata key '") + kTokens + "' must be an array of strings");
    }
    (*config)["vocab_size"] = tokens->count;
    if (file_.FindValue(vocab_key) != nullptr) {
      uint64_t v = 0;
      if (!file_.GetUint64(vocab_key, &v, error_)) return Failed();
      if (v != tokens->count) {
        return Fail("metadata key '" + vocab_key + "' = " + std::to_string(v) + " but '" + kTokens +
                    "' holds " + std::to_string(tokens->count) + " tokens");
      }
    }
    return true;
  }
  if (file_.FindValue(vocab_key) == nullptr) {
    return Fail(std::string("neither metadata key '") + kTokens + "' nor '" + vocab_key +
                "' gives the vocabulary size");
  }
  int64_t v = 0;
  if (!file_.GetInt64(vocab_key, &v, error_)) return Failed();
  (*config)["vocab_size"] = v;
  return true;
}

bool Reader::RopeScaling(const std::string& arch, Json* config) {
  const std::string type_key = arch + ".rope.scaling.type";
  if (file_.FindValue(type_key) == nullptr) return true;
  std::string_view type;
  if (!file_.GetString(type_key, &type, error_)) return Failed();
  if (type == "none") return true;
  if (type == "longrope") {
    Json scaling = {{"rope_type", "longrope"}};
    if (!LongRope(arch, &scaling)) return false;
    (*config)["rope_scaling"] = std::move(scaling);
    return true;
  }
  if (type != "linear") {
    return Fail("metadata key '" + type_key + "' = '" + std::string(type.substr(0, 32)) +
                "' is not supported (none, linear, longrope; Llama 3's scaling comes as the "
                "tensor rope_freqs.weight)");
  }
  double factor = 0;
  if (!file_.GetFloat64(arch + ".rope.scaling.factor", &factor, error_)) return Failed();
  (*config)["rope_scaling"] = {{"rope_type", "linear"}, {"factor", factor}};
  return true;
}

// LongRoPE (MiniCPM4) as llama.cpp carries it: the factor lists as the F32 tensors
// rope_factors_long/short.weight, `<arch>.rope.scaling.original_context_length` (default: the
// context length, as in llama.cpp), `<arch>.rope.scaling.attn_factor` optional. They become
// config.json's rope_scaling, which model_config.cc applies (and checks the lengths of).
bool Reader::LongRope(const std::string& arch, Json* scaling) {
  for (const char* which : {"long", "short"}) {
    const std::string name = std::string("rope_factors_") + which + ".weight";
    const gguf::TensorInfo* t = file_.FindTensor(name);
    if (t == nullptr) return Fail("tensor '" + name + "' is missing (LongRoPE's factors)");
    if (t->type->type != gguf::TensorType::kF32 || t->dims.size() != 1) {
      return Fail("tensor '" + name + "' must be a 1-D F32 tensor, it is " + t->type->name +
                  " with " + std::to_string(t->dims.size()) + " dimensions");
    }
    Json factors = Json::array();
    for (int64_t i = 0; i < t->elements; ++i) {
      float f;
      std::memcpy(&f, t->data + 4 * i, 4);
      factors.push_back(static_cast<double>(f));  // model_config.cc refuses non-positive ones
    }
    (*scaling)[std::string(which) + "_factor"] = std::move(factors);
  }
  const std::string original_key = arch + ".rope.scaling.original_context_length";
  int64_t original = 0;
  if (!file_.GetInt64(
          file_.FindValue(original_key) != nullptr ? original_key : arch + ".context_length",
          &original, error_)) {
    return Failed();
  }
  (*scaling)["original_max_position_embeddings"] = original;
  const std::string attn_key = arch + ".rope.scaling.attn_factor";
  if (file_.FindValue(attn_key) != nullptr) {
    double attn = 0;
    if (!file_.GetFloat64(attn_key, &attn, error_)) return Failed();
    (*scaling)["attention_factor"] = attn;
  }
  return true;
}

// convert_hf_to_gguf.py stores MiniCPM's muP as the factors the model applies:
// embedding_scale = scale_emb, residual_scale = scale_depth / sqrt(num_hidden_layers),
// logit_scale = hidden_size / dim_model_base (the divisor of the final hidden state). All three
// are required: llama.cpp's fallbacks are MiniCPM-2B's numbers, wrong for other models.
bool Reader::MiniCpmScales(ModelConfig* config) {
  struct Scale {
    const char* key;
    double* out;
  };
  for (const Scale& s : {Scale{"minicpm.embedding_scale", &config->embedding_scale},
                         Scale{"minicpm.residual_scale", &config->residual_scale},
                         Scale{"minicpm.logit_scale", &config->logit_divisor}}) {
    double v = 0;
    if (!file_.GetFloat64(s.key, &v, error_)) return Failed();
    if (!(v > 0) || !std::isfinite(static_cast<float>(v))) {
      return Fail(std::string("metadata key '") + s.key + "' = " + std::to_string(v) +
                  " must be a positive finite number");
    }
    *s.out = v;
  }
  return true;
}

// llama.cpp divides the frequency of pair i by rope_freqs[i] (convert_hf_to_gguf.py writes
// Llama 3's scaling so): the inverse frequencies are divided by the factors.
bool Reader::RopeFactors(ModelConfig* config) {
  const gguf::TensorInfo* t = file_.FindTensor("rope_freqs.weight");
  if (t == nullptr) return true;
  const int64_t half = config->head_dim / 2;
  if (t->type->type != gguf::TensorType::kF32 || t->dims.size() != 1 || t->dims[0] != half) {
    return Fail("tensor 'rope_freqs.weight' must be F32 with " + std::to_string(half) +
                " elements (head_dim / 2), it is " + t->type->name + " with " +
                std::to_string(t->elements) + " elements");
  }
  for (int64_t i = 0; i < half; ++i) {
    float factor;
    std::memcpy(&factor, t->data + 4 * i, 4);
    if (!(factor > 0) || !std::isfinite(factor)) {
      return Fail("tensor 'rope_freqs.weight': element " + std::to_string(i) +
                  " must be a positive finite number");
    }
    config->rope_inv_freq[i] /= factor;
  }
  return true;
}

// Keys that must agree with what the engine computes.
bool Reader::Consistent(const std::string& arch, const ModelConfig& config) {
  for (const char* suffix : {".rope.dimension_count", ".attention.value_length"}) {
    const std::string key = arch + suffix;
    if (file_.FindValue(key) == nullptr) continue;
    int64_t v = 0;
    if (!file_.GetInt64(key, &v, error_)) return Failed();
    if (v != config.head_dim) {
      return Fail("metadata key '" + key + "' = " + std::to_string(v) +
                  " must equal the head size " + std::to_string(config.head_dim) +
                  " (partial RoPE and value heads of another size are not supported)");
    }
  }
  return true;
}

// ParseModelConfig names config.json fields; the GGUF file's reader wants its keys.
std::string NameKeys(std::string error, const std::string& arch) {
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t at = error.find(from); at != std::string::npos; at = error.find(from, at)) {
      error.replace(at, from.size(), to);
      at += to.size();
    }
  };
  for (const Field& f : kFields) {
    replace(std::string("field '") + f.json + "'", "metadata key '" + arch + "." + f.key + "'");
  }
  replace("field 'vocab_size'", "the vocabulary size (metadata key 'tokenizer.ggml.tokens')");
  replace("field 'rope_scaling': 'long_factor'", "tensor 'rope_factors_long.weight'");
  replace("field 'rope_scaling': 'short_factor'", "tensor 'rope_factors_short.weight'");
  replace("field 'original_max_position_embeddings'",
          "metadata key '" + arch + ".rope.scaling.original_context_length'");
  replace("field 'attention_factor'", "metadata key '" + arch + ".rope.scaling.attn_factor'");
  replace("field 'rope_scaling'", "metadata key '" + arch + ".rope.scaling.factor'");
  replace("field 'factor'", "metadata key '" + arch + ".rope.scaling.factor'");
  return error;
}

}  // namespace

bool ModelConfigFromGguf(const gguf::GgufFile& file, const std::string& name, ModelConfig* config,
                         std::string* error) {
  Reader reader(file, name, error);
  std::string arch, hf;
  if (!reader.Architecture(&arch, &hf)) return false;
  Json json = {{"architectures", {hf}},
               {"tie_word_embeddings", file.FindTensor("output.weight") == nullptr}};
  // Qwen2 always has q/k/v biases; Llama and Qwen3 have them when the file does.
  if (arch != "qwen2") json["attention_bias"] = file.FindTensor("blk.0.attn_q.bias") != nullptr;
  if (!reader.Sizes(arch, &json) || !reader.Vocabulary(arch, &json) ||
      !reader.RopeScaling(arch, &json)) {
    return false;
  }
  ModelConfig parsed;
  if (!ParseModelConfig(engine::DumpJson(json), name, &parsed, error)) {
    *error = NameKeys(*error, arch);
    return false;
  }
  if (!reader.Consistent(arch, parsed) || !reader.RopeFactors(&parsed) ||
      (arch == "minicpm" && !reader.MiniCpmScales(&parsed))) {
    return false;
  }
  parsed.max_positions_key = arch + ".context_length";
  *config = std::move(parsed);
  return true;
}

}  // namespace tcpu::model
