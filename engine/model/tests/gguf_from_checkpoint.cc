#include "engine/model/tests/gguf_from_checkpoint.h"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/common/json_text.h"
#include "engine/common/mapped_file.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/safetensors.h"
#include "engine/model/tests/kquant_encoder.h"
#include "engine/tokenizer/tests/gguf_from_tokenizer_json.h"

namespace tcpu::testing {
namespace {

using gguf::MetadataValue;
using gguf::TensorType;
using Json = nlohmann::json;
using model::DType;
using model::TensorView;

constexpr int64_t kBlock = 32;
constexpr int64_t kSuperBlock = 256;  // the k-quants'

// Hugging Face module names inside a layer against llama.cpp's (gguf-py's tensor map).
const std::map<std::string, std::string> kLayerModules = {
    {"input_layernorm", "attn_norm"},    {"self_attn.q_proj", "attn_q"},
    {"self_attn.k_proj", "attn_k"},      {"self_attn.v_proj", "attn_v"},
    {"self_attn.o_proj", "attn_output"}, {"self_attn.q_norm", "attn_q_norm"},
    {"self_attn.k_norm", "attn_k_norm"}, {"post_attention_layernorm", "ffn_norm"},
    {"mlp.gate_proj", "ffn_gate"},       {"mlp.up_proj", "ffn_up"},
    {"mlp.down_proj", "ffn_down"},
};

// "model.layers.3.mlp.up_proj.weight" -> "blk.3.ffn_up.weight"; "" if unknown.
std::string GgufName(const std::string& hf) {
  if (hf == "model.embed_tokens.weight") return "token_embd.weight";
  if (hf == "model.norm.weight") return "output_norm.weight";
  if (hf == "lm_head.weight") return "output.weight";
  const std::string prefix = "model.layers.";
  if (hf.rfind(prefix, 0) != 0) return "";
  const size_t dot = hf.find('.', prefix.size());
  const size_t last = hf.rfind('.');
  const auto module = kLayerModules.find(hf.substr(dot + 1, last - dot - 1));
  if (module == kLayerModules.end()) return "";
  return "blk." + hf.substr(prefix.size(), dot - prefix.size()) + "." + module->second +
         hf.substr(last);
}

uint16_t HalfBits(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

void AppendHalf(std::vector<uint8_t>* out, uint16_t bits) {
  out->push_back(static_cast<uint8_t>(bits & 0xff));
  out->push_back(static_cast<uint8_t>(bits >> 8));
}

// ggml's Q8_0: d = absmax / 127 in fp16, q = round(x / d). *values gets d x q.
void QuantizeQ8_0(const float* x, std::vector<uint8_t>* out, std::vector<float>* values) {
  float amax = 0;
  for (int64_t i = 0; i < kBlock; ++i) amax = std::max(amax, std::fabs(x[i]));
  const uint16_t d_bits = HalfBits(amax / 127.0f);
  const float d = model::HalfToFloat(d_bits);
  AppendHalf(out, d_bits);
  for (int64_t i = 0; i < kBlock; ++i) {
    const float q = d == 0 ? 0.0f : std::clamp(std::round(x[i] / d), -127.0f, 127.0f);
    out->push_back(static_cast<uint8_t>(static_cast<int8_t>(q)));
    values->push_back(d * q);
  }
}

// ggml's Q4_0: d = (the value of largest magnitude) / -8 in fp16, nibble = clamp(round(x / d)
// + 8, 0, 15); low nibbles hold values 0..15, high nibbles 16..31. *values gets d x (n - 8).
// bf16_exact: d keeps its 5 leading significant bits (GgufExport::q4_0_bf16_exact).
void QuantizeQ4_0(const float* x, bool bf16_exact, std::vector<uint8_t>* out,
                  std::vector<float>* values) {
  float max = 0;
  for (int64_t i = 0; i < kBlock; ++i) {
    if (std::fabs(x[i]) > std::fabs(max)) max = x[i];
  }
  uint16_t d_bits = HalfBits(max / -8.0f);
  if (bf16_exact) d_bits &= 0xffc0;  // the low 6 of 10 mantissa bits: toward zero
  const float d = model::HalfToFloat(d_bits);
  AppendHalf(out, d_bits);
  int nibble[kBlock];
  for (int64_t i = 0; i < kBlock; ++i) {
    nibble[i] = d == 0 ? 8 : static_cast<int>(std::clamp(std::round(x[i] / d) + 8, 0.0f, 15.0f));
  }
  for (int64_t i = 0; i < kBlock / 2; ++i) {
    out->push_back(static_cast<uint8_t>(nibble[i] | (nibble[i + kBlock / 2] << 4)));
  }
  values->resize(values->size() + kBlock);
  float* v = values->data() + values->size() - kBlock;
  for (int64_t i = 0; i < kBlock; ++i) v[i] = d * static_cast<float>(nibble[i] - 8);
}

// The GGUF type of a safetensors tensor's own dtype.
TensorType OwnType(const TensorView& t) {
  return t.dtype == DType::kF32   ? TensorType::kF32
         : t.dtype == DType::kF16 ? TensorType::kF16
                                  : TensorType::kBF16;
}

// llama.cpp's permutation of Llama's q/k rows: in every head of `head_dim` rows, row 2j + s
// of the file is row s * head_dim / 2 + j of the checkpoint.
std::vector<uint8_t> PermuteRows(const std::vector<uint8_t>& rows, int64_t count,
                                 int64_t head_dim) {
  const size_t row_bytes = rows.size() / static_cast<size_t>(count);
  std::vector<uint8_t> out(rows.size());
  for (int64_t g = 0; g < count; ++g) {
    const int64_t head = g / head_dim, r = g % head_dim;
    const int64_t source = head * head_dim + (r % 2) * (head_dim / 2) + r / 2;
    std::memcpy(out.data() + g * row_bytes, rows.data() + source * row_bytes, row_bytes);
  }
  return out;
}

class Exporter {
 public:
  Exporter(const GgufExport& options, std::string* error) : options_(options), error_(error) {}

  bool Fail(const std::string& what) {
    *error_ = what;
    return false;
  }
  bool Read(const std::string& dir);
  bool Metadata(gguf::GgufWriter* writer);
  void MiniCpmScales(gguf::GgufWriter* writer);
  void LongRope(const Json& scaling, gguf::GgufWriter* writer);
  bool Tensor(const std::string& name, const TensorView& t, gguf::GgufWriter* writer);
  TensorType TypeOf(const std::string& gguf_name, const TensorView& t) const;
  const std::map<std::string, TensorView>& tensors() const { return tensors_; }

 private:
  const GgufExport& options_;
  std::string* error_;
  Json config_;
  std::string arch_;
  std::vector<engine::MappedFile> files_;
  std::map<std::string, TensorView> tensors_;
};

bool Exporter::Read(const std::string& dir) {
  std::ifstream in(dir + "/config.json");
  if (!engine::ParseJson(std::string(std::istreambuf_iterator<char>(in), {}), &config_)) {
    return Fail(dir + "/config.json: not JSON");
  }
  const std::string hf = config_["architectures"][0].get<std::string>();
  const std::map<std::string, std::string> archs = {{"LlamaForCausalLM", "llama"},
                                                    {"Qwen2ForCausalLM", "qwen2"},
                                                    {"Qwen3ForCausalLM", "qwen3"},
                                                    {"MiniCPMForCausalLM", "minicpm"}};
  if (archs.count(hf) == 0) return Fail(hf + " has no GGUF export here");
  arch_ = archs.at(hf);
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return Fail("cannot list " + dir);
  std::vector<std::string> names;
  while (const dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 12 && n.compare(n.size() - 12, 12, ".safetensors") == 0) names.push_back(n);
  }
  closedir(d);
  for (const std::string& n : names) {
    engine::MappedFile file;
    model::SafetensorsFile parsed;
    if (!file.Open(dir + "/" + n, error_) ||
        !model::ParseSafetensors(file.data(), file.size(), n, &parsed, error_)) {
      return false;
    }
    tensors_.insert(parsed.tensors.begin(), parsed.tensors.end());
    files_.push_back(std::move(file));
  }
  return true;
}

bool Exporter::Metadata(gguf::GgufWriter* writer) {
  const std::string a = arch_ + ".";
  auto u32 = [&](const char* key, const char* field) {
    writer->AddMetadata(a + key, MetadataValue::Uint32(config_[field].get<uint32_t>()));
  };
  writer->AddMetadata("general.architecture", MetadataValue::String(arch_));
  u32("context_length", "max_position_embeddings");
  u32("embedding_length", "hidden_size");
  u32("block_count", "num_hidden_layers");
  u32("feed_forward_length", "intermediate_size");
  u32("attention.head_count", "num_attention_heads");
  u32("attention.head_count_kv", "num_key_value_heads");
  u32("attention.key_length", "head_dim");
  u32("attention.value_length", "head_dim");
  u32("rope.dimension_count", "head_dim");
  writer->AddMetadata(a + "attention.layer_norm_rms_epsilon",
                      MetadataValue::Float32(config_["rms_norm_eps"].get<float>()));
  writer->AddMetadata(a + "rope.freq_base",
                      MetadataValue::Float32(config_["rope_theta"].get<float>()));
  if (arch_ == "minicpm") MiniCpmScales(writer);
  const Json& scaling = config_["rope_scaling"];
  if (!scaling.is_null()) {
    if (scaling["rope_type"] == "longrope") {
      LongRope(scaling, writer);
    } else if (scaling["rope_type"] == "linear") {
      writer->AddMetadata(a + "rope.scaling.type", MetadataValue::String("linear"));
      writer->AddMetadata(a + "rope.scaling.factor",
                          MetadataValue::Float32(scaling["factor"].get<float>()));
    } else {
      return Fail("only linear and longrope rope_scaling are exported");
    }
  }
  if (!options_.tokenizer_json.empty()) {
    return AddGgufTokenizer(options_.tokenizer_json, {"gpt2", options_.tokenizer_pre, false},
                            writer, error_);
  }
  // A token list gives the vocabulary size.
  std::vector<std::string> tokens;
  for (int64_t i = 0; i < config_["vocab_size"].get<int64_t>(); ++i) {
    tokens.push_back("<t" + std::to_string(i) + ">");
  }
  writer->AddMetadata("tokenizer.ggml.tokens", MetadataValue::StringArray(tokens));
  return true;
}

// convert_hf_to_gguf.py's MiniCPM: muP's scales as the numbers the model multiplies by,
// computed in double and stored as float32.
void Exporter::MiniCpmScales(gguf::GgufWriter* writer) {
  auto number = [&](const char* field) { return config_.value(field, 1.0); };
  const double residual =
      number("scale_depth") / std::sqrt(config_["num_hidden_layers"].get<double>());
  const double logit = config_["hidden_size"].get<double>() / number("dim_model_base");
  writer->AddMetadata("minicpm.embedding_scale",
                      MetadataValue::Float32(static_cast<float>(number("scale_emb"))));
  writer->AddMetadata("minicpm.residual_scale",
                      MetadataValue::Float32(static_cast<float>(residual)));
  writer->AddMetadata("minicpm.logit_scale", MetadataValue::Float32(static_cast<float>(logit)));
}

// LongRoPE as llama.cpp carries it: the scaling type, the original context, and both factor
// lists as the F32 tensors rope_factors_long/short.weight.
void Exporter::LongRope(const Json& scaling, gguf::GgufWriter* writer) {
  writer->AddMetadata(arch_ + ".rope.scaling.type", MetadataValue::String("longrope"));
  writer->AddMetadata(
      arch_ + ".rope.scaling.original_context_length",
      MetadataValue::Uint32(scaling["original_max_position_embeddings"].get<uint32_t>()));
  if (scaling.contains("attention_factor")) {
    writer->AddMetadata(arch_ + ".rope.scaling.attn_factor",
                        MetadataValue::Float32(scaling["attention_factor"].get<float>()));
  }
  for (const char* which : {"long", "short"}) {
    const std::vector<float> factors = scaling[std::string(which) + "_factor"];
    gguf::TensorToWrite t;
    t.name = std::string("rope_factors_") + which + ".weight";
    t.type = static_cast<uint32_t>(TensorType::kF32);
    t.dims = {factors.size()};
    t.data.resize(4 * factors.size());
    std::memcpy(t.data.data(), factors.data(), t.data.size());
    writer->AddTensor(std::move(t));
  }
}

// The type tensor `gguf_name` is written in (1-D tensors are always F32).
TensorType Exporter::TypeOf(const std::string& gguf_name, const TensorView& t) const {
  if (t.shape.size() == 1) return TensorType::kF32;
  const bool more_bits = gguf_name == "output.weight" ||
                         gguf_name.find(".attn_v.") != std::string::npos ||
                         gguf_name.find(".ffn_down.") != std::string::npos;
  if (options_.k_quant_mix && more_bits) return TensorType::kQ6_K;
  return options_.matrix_type.value_or(OwnType(t));
}

bool Exporter::Tensor(const std::string& name, const TensorView& t, gguf::GgufWriter* writer) {
  const std::string gguf_name = GgufName(name);
  if (gguf_name.empty()) return Fail("tensor '" + name + "' has no GGUF name here");
  std::vector<uint8_t> raw(t.data, t.data + t.bytes);
  const bool q = name.find("q_proj") != std::string::npos;
  const bool k = name.find("k_proj") != std::string::npos;
  if ((arch_ == "llama" || arch_ == "minicpm") && (q || k)) {
    raw = PermuteRows(raw, t.shape[0], config_["head_dim"].get<int64_t>());
  }
  TensorView permuted = t;
  permuted.data = raw.data();
  std::vector<float> values(static_cast<size_t>(t.elements));
  for (int64_t i = 0; i < t.elements; ++i) values[i] = model::ReadElementAsFloat(permuted, i);

  gguf::TensorToWrite out;
  out.name = gguf_name;
  out.dims.assign(t.shape.rbegin(), t.shape.rend());
  const TensorType own = OwnType(t);
  const TensorType type = TypeOf(gguf_name, t);
  auto write_f32 = [&](const std::vector<float>& v) {
    out.type = static_cast<uint32_t>(TensorType::kF32);
    out.data.resize(4 * v.size());
    std::memcpy(out.data.data(), v.data(), out.data.size());
  };
  if (type == own) {
    out.type = static_cast<uint32_t>(own);
    out.data = std::move(raw);
  } else if (type == TensorType::kF32) {
    write_f32(values);
  } else if (type == TensorType::kQ8_0 || type == TensorType::kQ4_0) {
    if (t.shape.back() % kBlock != 0) return Fail(name + ": rows are not whole blocks");
    std::vector<float> dequantized;
    for (int64_t b = 0; b < t.elements / kBlock; ++b) {
      if (type == TensorType::kQ8_0) {
        QuantizeQ8_0(values.data() + b * kBlock, &out.data, &dequantized);
      } else {
        QuantizeQ4_0(values.data() + b * kBlock, options_.q4_0_bf16_exact, &out.data,
                     &dequantized);
      }
    }
    out.type = static_cast<uint32_t>(type);
    if (options_.dequantized_as_f32) write_f32(dequantized);
  } else if (type == TensorType::kQ4_K || type == TensorType::kQ5_K || type == TensorType::kQ6_K) {
    if (t.shape.back() % kSuperBlock != 0) {
      return Fail(name + ": rows of " + std::to_string(t.shape.back()) +
                  " are not whole 256-weight super-blocks");
    }
    std::vector<float> dequantized(values.size());
    for (int64_t b = 0; b < t.elements / kSuperBlock; ++b) {
      EncodeKQuantBlock(type, values.data() + b * kSuperBlock, &out.data,
                        dequantized.data() + b * kSuperBlock);
    }
    out.type = static_cast<uint32_t>(type);
    if (options_.dequantized_as_f32) write_f32(dequantized);
  } else {
    return Fail(name + ": cannot convert to the requested type");
  }
  writer->AddTensor(std::move(out));
  return true;
}

}  // namespace

bool WriteGgufFromCheckpoint(const std::string& dir, const std::string& path,
                             const GgufExport& options, std::string* error) {
  Exporter exporter(options, error);
  gguf::GgufWriter writer;
  if (!exporter.Read(dir) || !exporter.Metadata(&writer)) return false;
  for (const auto& [name, t] : exporter.tensors()) {
    if (!exporter.Tensor(name, t, &writer)) return false;
  }
  return writer.WriteFile(path, error);
}

}  // namespace tcpu::testing
