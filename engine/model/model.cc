#include "engine/model/model.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "engine/model/gguf_tensor.h"
#include "engine/model/prequantized_format.h"
#include "kernels/transformer_layer/embedding_rows.h"
#include "runtime/check.h"
#include "runtime/scratch_arena.h"
#include "tcpu/bf16.h"
#include "tcpu/decoder.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/gemv_q8.h"

namespace tcpu::model {

int WeightFormatFromC(const char* fn, const char* argument, int32_t weights, WeightFormat* format) {
  if (weights != TCPU_WEIGHTS_INT8 && weights != TCPU_WEIGHTS_INT4) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: %s = %d is neither TCPU_WEIGHTS_INT8 (0) nor TCPU_WEIGHTS_INT4 (1)", fn,
                argument, static_cast<int>(weights));
  }
  *format = weights == TCPU_WEIGHTS_INT4 ? WeightFormat::kInt4 : WeightFormat::kInt8;
  return TCPU_OK;
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

bool AlignedBuffer::Allocate(int64_t bytes) {
  std::free(data_);
  size_ = 0;
  data_ = static_cast<uint8_t*>(
      std::aligned_alloc(kScratchAlignment, static_cast<size_t>(AlignScratch(bytes))));
  if (data_ == nullptr) return false;
  size_ = bytes;
  return true;
}

int FailForTensor(const std::string& name) {
  const std::string detail = tcpu_last_error_detail();  // Fail rewrites the buffer it is in
  return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s': %s", name.c_str(), detail.c_str());
}

int Model::Load(const std::string& dir, WeightFormat format, std::unique_ptr<Model>* model) {
  auto loaded = std::unique_ptr<Model>(new (std::nothrow) Model());
  if (loaded == nullptr) return Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: out of memory", dir.c_str());
  loaded->format_ = format;
  if (int s = loaded->Build(dir); s != TCPU_OK) return s;
  *model = std::move(loaded);
  return TCPU_OK;
}

int Model::LoadBf16(const std::string& name, const std::vector<int64_t>& shape,
                    const uint16_t** out) {
  const TensorView* t = nullptr;
  std::string error;
  if (!checkpoint_.Find(name, shape, &t, &error)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "%s", error.c_str());
  }
  if (!IsFloatDType(t->dtype) && t->dtype != DType::kQ4_0 && t->dtype != DType::kQ8_0) {
    return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s' has dtype %s, expected BF16, F16 or F32",
                name.c_str(), DTypeName(t->dtype));
  }
  // bf16 data at an even address is used in place (zero copy); anything else is converted.
  if (t->dtype == DType::kBF16 && reinterpret_cast<uintptr_t>(t->data) % 2 == 0) {
    *out = reinterpret_cast<const uint16_t*>(t->data);
    return TCPU_OK;
  }
  AlignedBuffer copy;
  if (!copy.Allocate(t->elements * 2)) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': out of memory", name.c_str());
  }
  uint16_t* bf16 = reinterpret_cast<uint16_t*>(copy.data());
  if (t->dtype == DType::kQ4_0) {
    transformer::Q4_0ToBf16(t->data, t->elements, bf16);
  } else if (t->dtype == DType::kQ8_0) {
    transformer::Q8_0ToBf16(t->data, t->elements, bf16);
  } else {
    for (int64_t i = 0; i < t->elements; ++i) bf16[i] = tcpu_f32_to_bf16(ReadElementAsFloat(*t, i));
  }
  *out = bf16;
  bf16_copies_.push_back(std::move(copy));
  return TCPU_OK;
}

int Model::LoadEmbeddings(int64_t vocab_size, int64_t hidden) {
  const std::string name = "model.embed_tokens.weight";
  const TensorView* t = nullptr;
  std::string error;
  if (!checkpoint_.Find(name, {vocab_size, hidden}, &t, &error)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "%s", error.c_str());
  }
  if (t->dtype == DType::kQ4_0 || t->dtype == DType::kQ8_0) {
    // GGUF blocks stay in the mapped file; the decode step converts one row per token (the
    // reader checked that rows are whole blocks, so hidden is a multiple of 32).
    weights_.embed_format = t->dtype == DType::kQ4_0 ? TCPU_EMBED_Q4_0 : TCPU_EMBED_Q8_0;
    weights_.embed_blocks = t->data;
    Hold(name, t->dtype, {vocab_size, hidden}, t->data, t->bytes);
    bytes_per_token_ += t->bytes / vocab_size;  // one row
    return TCPU_OK;
  }
  if (int s = LoadBf16(name, {vocab_size, hidden}, &weights_.embed_tokens); s != TCPU_OK) {
    return s;
  }
  Hold(name, DType::kBF16, {vocab_size, hidden}, weights_.embed_tokens,
       2 * vocab_size * hidden);   // fits: the tensor has that many bytes
  bytes_per_token_ += 2 * hidden;  // one embedding row
  return TCPU_OK;
}

int Model::LoadBias(const std::string& name, int64_t n, const float** out) {
  const TensorView* t = nullptr;
  std::string error;
  if (!checkpoint_.Find(name, {n}, &t, &error)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "%s", error.c_str());
  }
  if (!IsFloatDType(t->dtype)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s' has dtype %s, expected BF16, F16 or F32",
                name.c_str(), DTypeName(t->dtype));
  }
  std::vector<float> bias;
  try {
    bias.resize(static_cast<size_t>(n));
  } catch (const std::bad_alloc&) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': out of memory", name.c_str());
  }
  for (int64_t i = 0; i < n; ++i) {
    bias[i] = ReadElementAsFloat(*t, i);
    if (!std::isfinite(bias[i])) {
      return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s': element %lld is not finite", name.c_str(),
                  static_cast<long long>(i));
    }
  }
  biases_.push_back(std::move(bias));
  *out = biases_.back().data();
  bytes_per_token_ += n * static_cast<int64_t>(sizeof(float));
  Hold(name, DType::kF32, {n}, *out, n * static_cast<int64_t>(sizeof(float)));
  return TCPU_OK;
}

int Model::QuantizeInt8(const std::string& name, const uint16_t* w, int64_t n, int64_t k,
                        Linear* linear) {
  std::vector<int8_t> w_i8;
  try {
    w_i8.resize(static_cast<size_t>(n * k));
    linear->scales.resize(static_cast<size_t>(n));
  } catch (const std::bad_alloc&) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': out of memory", name.c_str());
  }
  if (tcpu_quantize_weights_bf16(w, n, k, w_i8.data(), linear->scales.data()) != TCPU_OK) {
    return FailForTensor(name);
  }
  const int64_t bytes = tcpu_packed_weights_size(n, k);
  if (bytes < 0 || !linear->packed.Allocate(bytes)) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': cannot allocate %lld packed bytes",
                name.c_str(), static_cast<long long>(bytes));
  }
  if (int s = tcpu_pack_weights_i8(w_i8.data(), n, k, linear->packed.data(), bytes); s != TCPU_OK) {
    return s;
  }
  bytes_per_token_ += bytes + n * static_cast<int64_t>(sizeof(float));
  return TCPU_OK;
}

int Model::QuantizeInt4(const std::string& name, const uint16_t* w, int64_t n, int64_t k,
                        Linear* linear) {
  const int64_t groups = tcpu_q4_groups(k);
  std::vector<int8_t> q;
  std::vector<uint16_t> scales;  // fp16
  try {
    q.resize(static_cast<size_t>(n * k));
    scales.resize(static_cast<size_t>(n * groups));  // at most n * k: the weights fit
  } catch (const std::bad_alloc&) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': out of memory", name.c_str());
  }
  if (tcpu_quantize_q4_bf16(w, n, k, q.data(), scales.data()) != TCPU_OK) {
    return FailForTensor(name);
  }
  const int64_t bytes = tcpu_q4_packed_size(n, k);
  if (bytes < 0 || !linear->packed.Allocate(bytes)) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': cannot allocate %lld packed bytes",
                name.c_str(), static_cast<long long>(bytes));
  }
  if (int s = tcpu_pack_q4(q.data(), scales.data(), n, k, linear->packed.data(), bytes);
      s != TCPU_OK) {
    return s;
  }
  bytes_per_token_ += bytes;  // the group scales are inside
  return TCPU_OK;
}

int Model::PackBlocks(const std::string& name, const TensorView& blocks, int64_t n, int64_t k,
                      Linear* linear) {
  // Q4_0 into the int4 format, Q8_0 into block-Q8: the file's numbers as they are.
  const bool q4 = blocks.dtype == DType::kQ4_0;
  const int64_t bytes = q4 ? tcpu_q4_packed_size(n, k) : tcpu_q8_packed_size(n, k);
  if (bytes < 0 || !linear->packed.Allocate(bytes)) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "tensor '%s': cannot allocate %lld packed bytes",
                name.c_str(), static_cast<long long>(bytes));
  }
  const auto pack = q4 ? tcpu_pack_q4_from_q4_0 : tcpu_pack_q8_from_q8_0;
  if (pack(blocks.data, blocks.bytes, n, k, linear->packed.data(), bytes) != TCPU_OK) {
    return FailForTensor(name);
  }
  bytes_per_token_ += bytes;
  return TCPU_OK;
}

void Model::Hold(const std::string& name, DType dtype, std::vector<int64_t> shape, const void* data,
                 int64_t bytes) {
  held_.push_back({name, dtype, std::move(shape), data, bytes});
}

int Model::LoadLinear(const std::string& name, const std::string& held_name, int64_t n, int64_t k,
                      tcpu_linear* out) {
  int64_t bytes =
      format_ == WeightFormat::kInt4 ? tcpu_q4_packed_size(n, k) : tcpu_packed_weights_size(n, k);
  if (checkpoint_.prequantized()) {
    if (int s = MapLinear(held_name, n, k, out); s != TCPU_OK) return s;
  } else {
    linears_.push_back(std::make_unique<Linear>());
    Linear* linear = linears_.back().get();
    const TensorView* t = nullptr;
    std::string error;
    if (!checkpoint_.Find(name, {n, k}, &t, &error)) {
      return Fail(TCPU_ERR_INVALID_MODEL, "%s", error.c_str());
    }
    int s = TCPU_OK;
    const uint16_t* w = nullptr;
    if (format_ == WeightFormat::kInt4 && t->dtype == DType::kQ4_0) {
      s = PackBlocks(name, *t, n, k, linear);  // the file's numbers as they are
    } else if (format_ == WeightFormat::kInt8 && t->dtype == DType::kQ8_0) {
      s = PackBlocks(name, *t, n, k, linear);  // block-Q8: the file's numbers as they are
      bytes = tcpu_q8_packed_size(n, k);
    } else {
      const size_t copies_before = bf16_copies_.size();
      if (s = LoadBf16(name, {n, k}, &w); s != TCPU_OK) return s;
      s = format_ == WeightFormat::kInt4 ? QuantizeInt4(name, w, n, k, linear)
                                         : QuantizeInt8(name, w, n, k, linear);
      bf16_copies_.resize(copies_before);  // a converted copy is not needed after quantization
    }
    // Nor the checkpoint's own (a GGUF block tensor dequantized), unless it is the embedding
    // table in use (a tied lm_head from GGUF k-quants, dequantized to bf16 and used in place).
    if (w == nullptr || w != weights_.embed_tokens) checkpoint_.Release(name);
    if (s != TCPU_OK) return s;
    *out = {linear->packed.data(), linear->scales.empty() ? nullptr : linear->scales.data()};
  }
  Hold(held_name, DType::kU8, {bytes}, out->packed, bytes);
  if (out->scales != nullptr) {
    Hold(ScaleTensorName(held_name), DType::kF32, {n}, out->scales,
         n * static_cast<int64_t>(sizeof(float)));
  }
  return TCPU_OK;
}

int Model::Build(const std::string& dir) {
  std::string error;
  bool io_error = false;
  if (!checkpoint_.Open(dir, &error, &io_error)) {
    return Fail(io_error ? TCPU_ERR_IO : TCPU_ERR_INVALID_MODEL, "%s", error.c_str());
  }
  if (checkpoint_.prequantized() && checkpoint_.prequantized_info().weights != format_) {
    const char* stored = WeightFormatName(checkpoint_.prequantized_info().weights);
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s/model.safetensors holds %s weights pre-quantized (__metadata__ '%s') but %s "
                "was requested: load it as %s, or quantize the source checkpoint with --weights %s",
                dir.c_str(), stored, kWeightsKey, WeightFormatName(format_), stored,
                WeightFormatName(format_));
  }
  const ModelConfig& c = checkpoint_.config();
  tcpu_layer_shape& shape = weights_.shape;
  shape.hidden = c.hidden_size;
  shape.intermediate = c.intermediate_size;
  shape.num_heads = c.num_attention_heads;
  shape.num_kv_heads = c.num_key_value_heads;
  shape.head_dim = c.head_dim;
  shape.rms_norm_eps = static_cast<float>(c.rms_norm_eps);
  shape.rope_theta = static_cast<float>(c.rope_theta);
  shape.residual_scale = static_cast<float>(c.residual_scale);
  shape.rope_inv_freq = c.rope_inv_freq.data();  // lives in checkpoint_, as long as the model
  shape.rope_attention_scale = c.rope_attention_scale;
  weights_.embedding_scale = static_cast<float>(c.embedding_scale);
  weights_.logit_divisor = static_cast<float>(c.logit_divisor);
  weights_.num_layers = c.num_hidden_layers;
  weights_.vocab_size = c.vocab_size;
  int64_t q_rows = 0, kv_rows = 0;
  if (!CheckedMul(c.num_attention_heads, c.head_dim, &q_rows) ||
      !CheckedMul(c.num_key_value_heads, c.head_dim, &kv_rows)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "%s/config.json: head sizes overflow", dir.c_str());
  }
  const int64_t h = c.hidden_size;

  auto linear = [&](const std::string& name, int64_t n, int64_t k, tcpu_linear* out) {
    return LoadLinear(name, name, n, k, out);
  };
  auto norm = [&](const std::string& name, int64_t n, const uint16_t** out) {
    if (int s = LoadBf16(name, {n}, out); s != TCPU_OK) return s;
    bytes_per_token_ += 2 * n;
    Hold(name, DType::kBF16, {n}, *out, 2 * n);
    return static_cast<int>(TCPU_OK);
  };

  const size_t copies_before_embeddings = bf16_copies_.size();
  if (int s = LoadEmbeddings(c.vocab_size, h); s != TCPU_OK) return s;
  // When the table was copied to bf16, the stored one can go now unless the lm_head still has
  // to be quantized from it; a GGUF k-quant tensor is dequantized to bf16 and used in place.
  if (!c.tie_word_embeddings && bf16_copies_.size() > copies_before_embeddings) {
    checkpoint_.Release("model.embed_tokens.weight");
  }
  layers_.resize(static_cast<size_t>(c.num_hidden_layers));  // bounded by the config check
  for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    tcpu_layer_weights& w = layers_[i];
    w = tcpu_layer_weights{};
    int s = TCPU_OK;
    if ((s = norm(p + "input_layernorm.weight", h, &w.input_norm)) != TCPU_OK ||
        (s = linear(p + "self_attn.q_proj.weight", q_rows, h, &w.q_proj)) != TCPU_OK ||
        (s = linear(p + "self_attn.k_proj.weight", kv_rows, h, &w.k_proj)) != TCPU_OK ||
        (s = linear(p + "self_attn.v_proj.weight", kv_rows, h, &w.v_proj)) != TCPU_OK ||
        (s = linear(p + "self_attn.o_proj.weight", h, q_rows, &w.o_proj)) != TCPU_OK ||
        (s = norm(p + "post_attention_layernorm.weight", h, &w.post_attention_norm)) != TCPU_OK ||
        (s = linear(p + "mlp.gate_proj.weight", c.intermediate_size, h, &w.gate_proj)) != TCPU_OK ||
        (s = linear(p + "mlp.up_proj.weight", c.intermediate_size, h, &w.up_proj)) != TCPU_OK ||
        (s = linear(p + "mlp.down_proj.weight", h, c.intermediate_size, &w.down_proj)) != TCPU_OK) {
      return s;
    }
    if (c.qkv_bias) {
      if ((s = LoadBias(p + "self_attn.q_proj.bias", q_rows, &w.q_bias)) != TCPU_OK ||
          (s = LoadBias(p + "self_attn.k_proj.bias", kv_rows, &w.k_bias)) != TCPU_OK ||
          (s = LoadBias(p + "self_attn.v_proj.bias", kv_rows, &w.v_bias)) != TCPU_OK) {
        return s;
      }
    }
    if (c.o_bias) {
      if ((s = LoadBias(p + "self_attn.o_proj.bias", h, &w.o_bias)) != TCPU_OK) return s;
    }
    const bool has_q_norm = checkpoint_.Has(p + "self_attn.q_norm.weight");
    const bool has_k_norm = checkpoint_.Has(p + "self_attn.k_norm.weight");
    if (c.qk_norm || has_q_norm || has_k_norm) {
      if ((s = norm(p + "self_attn.q_norm.weight", c.head_dim, &w.q_norm)) != TCPU_OK ||
          (s = norm(p + "self_attn.k_norm.weight", c.head_dim, &w.k_norm)) != TCPU_OK) {
        return s;
      }
    }
  }
  weights_.layers = layers_.data();
  if (int s = norm("model.norm.weight", h, &weights_.final_norm); s != TCPU_OK) return s;
  // A pre-quantized checkpoint stores the lm_head packed whether or not it is tied.
  const std::string head = c.tie_word_embeddings ? "model.embed_tokens.weight" : "lm_head.weight";
  if (int s = LoadLinear(head, "lm_head.weight", c.vocab_size, h, &weights_.lm_head);
      s != TCPU_OK) {
    return s;
  }
  return TCPU_OK;
}

}  // namespace tcpu::model
