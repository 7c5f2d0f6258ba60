#include "engine/gguf/tests/sample_files.h"

#include <cstring>
#include <string>
#include <utility>

namespace tcpu::gguf::testing {
namespace {

// Bytes for `rows` rows of `row_length` values of `type` (row_length a multiple of its block).
TensorToWrite Tensor(std::string name, TensorType type, std::vector<uint64_t> dims, uint32_t seed) {
  const TensorTypeTraits* traits = FindTensorType(static_cast<uint32_t>(type));
  uint64_t elements = 1;
  for (uint64_t d : dims) elements *= d;
  TensorToWrite tensor;
  tensor.name = std::move(name);
  tensor.type = static_cast<uint32_t>(type);
  tensor.dims = std::move(dims);
  tensor.data = PatternBytes(
      elements / static_cast<uint64_t>(traits->block_elements) * traits->block_bytes, seed);
  return tensor;
}

}  // namespace

std::vector<uint8_t> PatternBytes(size_t bytes, uint32_t seed) {
  std::vector<uint8_t> out(bytes);
  uint32_t state = seed * 2654435761u + 1;
  for (uint8_t& b : out) {
    state = state * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(state >> 24);
  }
  return out;
}

GgufWriter SmallModelWriter(uint32_t alignment) {
  GgufWriter writer(alignment);
  writer.AddMetadata("general.architecture", MetadataValue::String("llama"));
  writer.AddMetadata("llama.block_count", MetadataValue::Uint32(2));
  writer.AddMetadata("llama.attention.layer_norm_rms_epsilon", MetadataValue::Float32(1e-5f));
  writer.AddMetadata("tokenizer.ggml.tokens",
                     MetadataValue::StringArray({"<s>", "</s>", "hello", "\xe2\x96\x81world"}));
  writer.AddMetadata("tokenizer.ggml.token_type", MetadataValue::Int32Array({3, 3, 1, 1}));
  writer.AddTensor(Tensor("token_embd.weight", TensorType::kF32, {8, 4}, 1));
  writer.AddTensor(Tensor("output.weight", TensorType::kQ8_0, {32, 4}, 2));
  return writer;
}

GgufWriter EveryTypeWriter(uint32_t alignment) {
  GgufWriter writer(alignment);
  writer.AddMetadata("t.uint8", MetadataValue::Uint8(200));
  writer.AddMetadata("t.int8", MetadataValue::Int8(-100));
  writer.AddMetadata("t.uint16", MetadataValue::Uint16(60000));
  writer.AddMetadata("t.int16", MetadataValue::Int16(-30000));
  writer.AddMetadata("t.uint32", MetadataValue::Uint32(4000000000u));
  writer.AddMetadata("t.int32", MetadataValue::Int32(-2000000000));
  writer.AddMetadata("t.float32", MetadataValue::Float32(0.15625f));
  writer.AddMetadata("t.bool", MetadataValue::Bool(true));
  writer.AddMetadata("t.string", MetadataValue::String("caf\xc3\xa9"));
  writer.AddMetadata("t.uint64", MetadataValue::Uint64(18000000000000000000u));
  writer.AddMetadata("t.int64", MetadataValue::Int64(-9000000000000000000));
  writer.AddMetadata("t.float64", MetadataValue::Float64(-2.5e-300));
  writer.AddMetadata("a.uint8",
                     MetadataValue::Array(ValueType::kUint8,
                                          {MetadataValue::Uint8(1), MetadataValue::Uint8(255)}));
  writer.AddMetadata("a.int8", MetadataValue::Array(ValueType::kInt8, {MetadataValue::Int8(-1)}));
  writer.AddMetadata("a.uint16",
                     MetadataValue::Array(ValueType::kUint16, {MetadataValue::Uint16(65535)}));
  writer.AddMetadata("a.int16",
                     MetadataValue::Array(ValueType::kInt16, {MetadataValue::Int16(-32768)}));
  writer.AddMetadata("a.uint32",
                     MetadataValue::Array(ValueType::kUint32, {MetadataValue::Uint32(7)}));
  writer.AddMetadata("a.int32", MetadataValue::Int32Array({-5, 0, 2147483647}));
  writer.AddMetadata("a.float32", MetadataValue::Float32Array({-1.5f, 0.0f, 3.25f}));
  writer.AddMetadata("a.bool", MetadataValue::Array(ValueType::kBool, {MetadataValue::Bool(false),
                                                                       MetadataValue::Bool(true)}));
  writer.AddMetadata("a.string", MetadataValue::StringArray({"", "a", "\xe4\xb8\xad"}));
  writer.AddMetadata("a.uint64",
                     MetadataValue::Array(ValueType::kUint64, {MetadataValue::Uint64(1)}));
  writer.AddMetadata("a.int64",
                     MetadataValue::Array(ValueType::kInt64, {MetadataValue::Int64(-1)}));
  writer.AddMetadata("a.float64",
                     MetadataValue::Array(ValueType::kFloat64, {MetadataValue::Float64(1e300)}));
  writer.AddMetadata("a.empty", MetadataValue::Array(ValueType::kString, {}));
  writer.AddMetadata(
      "a.nested",
      MetadataValue::Array(
          ValueType::kArray,
          {MetadataValue::Int32Array({1, 2}), MetadataValue::Int32Array({}),
           MetadataValue::Array(ValueType::kArray, {MetadataValue::StringArray({"deep"})})}));
  writer.AddTensor(Tensor("f32", TensorType::kF32, {3, 5}, 10));
  writer.AddTensor(Tensor("f16", TensorType::kF16, {7}, 11));
  writer.AddTensor(Tensor("bf16", TensorType::kBF16, {2, 2, 2, 2}, 12));
  writer.AddTensor(Tensor("q8_0", TensorType::kQ8_0, {64, 3}, 13));
  writer.AddTensor(Tensor("q4_0", TensorType::kQ4_0, {32, 2, 2}, 14));
  writer.AddTensor(Tensor("q4_k", TensorType::kQ4_K, {256, 2}, 15));
  writer.AddTensor(Tensor("q6_k", TensorType::kQ6_K, {512}, 16));
  writer.AddTensor(Tensor("empty", TensorType::kF32, {0, 4}, 17));
  return writer;
}

GgufWriter KQuantModelWriter() {
  GgufWriter writer;
  auto u32 = [&](const char* key, uint32_t v) {
    writer.AddMetadata(key, MetadataValue::Uint32(v));
  };
  auto f32 = [&](const char* key, float v) { writer.AddMetadata(key, MetadataValue::Float32(v)); };
  writer.AddMetadata("general.architecture", MetadataValue::String("minicpm"));
  u32("minicpm.context_length", 64);
  u32("minicpm.embedding_length", 256);
  u32("minicpm.block_count", 1);
  u32("minicpm.feed_forward_length", 256);
  u32("minicpm.attention.head_count", 2);
  u32("minicpm.attention.head_count_kv", 1);
  u32("minicpm.vocab_size", 4);
  f32("minicpm.attention.layer_norm_rms_epsilon", 1e-5f);
  f32("minicpm.embedding_scale", 12.0f);
  f32("minicpm.residual_scale", 1.4f);
  f32("minicpm.logit_scale", 4.0f);
  writer.AddMetadata("minicpm.rope.scaling.type", MetadataValue::String("longrope"));
  u32("minicpm.rope.scaling.original_context_length", 16);
  // LongRoPE's factors must be positive numbers (pattern bytes would rarely be).
  for (const char* name : {"rope_factors_long.weight", "rope_factors_short.weight"}) {
    TensorToWrite factors;
    factors.name = name;
    factors.type = static_cast<uint32_t>(TensorType::kF32);
    factors.dims = {64};  // head_dim 128 / 2
    factors.data.resize(4 * 64);
    for (int i = 0; i < 64; ++i) {
      const float f = 1.0f + static_cast<float>(i) / 64;
      std::memcpy(factors.data.data() + 4 * i, &f, 4);
    }
    writer.AddTensor(std::move(factors));
  }
  writer.AddTensor(Tensor("token_embd.weight", TensorType::kQ4_K, {256, 4}, 20));
  writer.AddTensor(Tensor("blk.0.attn_norm.weight", TensorType::kF32, {256}, 21));
  writer.AddTensor(Tensor("blk.0.attn_q.weight", TensorType::kQ4_K, {256, 2}, 22));
  writer.AddTensor(Tensor("blk.0.attn_k.weight", TensorType::kQ5_K, {256, 1}, 23));
  writer.AddTensor(Tensor("blk.0.attn_v.weight", TensorType::kQ6_K, {256, 1}, 24));
  writer.AddTensor(Tensor("output.weight", TensorType::kQ6_K, {256, 4}, 25));
  return writer;
}

}  // namespace tcpu::gguf::testing
