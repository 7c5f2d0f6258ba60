// The loader on malformed GGUF models, each written here from a valid tiny one with one thing
// broken: every case is refused with a status and a detail naming the metadata key or the
// tensor (and the value) that is wrong; nothing crashes or reads out of bounds (this binary
// also runs under ASan and UBSan: gguf_loader_sanitized_test).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "engine/gguf/gguf_types.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/tests/gguf_test_model.h"
#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"

namespace {

using tcpu::gguf::GgufWriter;
using tcpu::gguf::MetadataValue;
using tcpu::gguf::TensorToWrite;
using tcpu::gguf::TensorType;

constexpr int64_t kHidden = 32, kHeads = 2, kKvHeads = 1, kHeadDim = 16, kFfn = 64, kVocab = 16;

using Model = tcpu::testing::GgufTestModel;

// F32 values in [-0.5, 0.5) from a fixed LCG.
std::vector<uint8_t> RandomF32(uint64_t count, uint32_t* state) {
  std::vector<uint8_t> bytes(4 * count);
  for (uint64_t i = 0; i < count; ++i) {
    *state = *state * 1664525u + 1013904223u;
    const float f = static_cast<float>(*state >> 8) / 16777216.0f - 0.5f;
    std::memcpy(bytes.data() + 4 * i, &f, 4);
  }
  return bytes;
}

Model ValidModel() {
  Model m;
  m.AddLlamaKeys(kHidden, kFfn, kHeads, kKvHeads);
  m.metadata.emplace_back("llama.rope.freq_base", MetadataValue::Float32(10000.0f));
  std::vector<std::string> tokens;
  for (int i = 0; i < kVocab; ++i) tokens.push_back("t" + std::to_string(i));
  m.metadata.emplace_back("tokenizer.ggml.tokens", MetadataValue::StringArray(tokens));
  uint32_t state = 7;
  auto add = [&](const std::string& name, std::vector<uint64_t> dims) {
    uint64_t n = 1;
    for (uint64_t d : dims) n *= d;
    TensorToWrite t;
    t.name = name;
    t.type = static_cast<uint32_t>(TensorType::kF32);
    t.dims = std::move(dims);
    t.data = RandomF32(n, &state);
    m.tensors.push_back(std::move(t));
  };
  add("token_embd.weight", {kHidden, kVocab});
  add("blk.0.attn_norm.weight", {kHidden});
  add("blk.0.attn_q.weight", {kHidden, kHeads * kHeadDim});
  add("blk.0.attn_k.weight", {kHidden, kKvHeads * kHeadDim});
  add("blk.0.attn_v.weight", {kHidden, kKvHeads * kHeadDim});
  add("blk.0.attn_output.weight", {kHeads * kHeadDim, kHidden});
  add("blk.0.ffn_norm.weight", {kHidden});
  add("blk.0.ffn_gate.weight", {kHidden, kFfn});
  add("blk.0.ffn_up.weight", {kHidden, kFfn});
  add("blk.0.ffn_down.weight", {kFfn, kHidden});
  add("output_norm.weight", {kHidden});
  add("output.weight", {kHidden, kVocab});
  return m;
}

std::string Write(const std::string& name, const Model& m) { return m.Write(name); }

void ExpectRefused(const std::string& path, int status, const std::string& detail) {
  tcpu_decoder* decoder = nullptr;
  const int got = tcpu_decoder_open(path.c_str(), 16, &decoder);
  EXPECT_EQ(got, status) << tcpu_status_string(got) << ": " << tcpu_last_error_detail();
  EXPECT_NE(std::string(tcpu_last_error_detail()).find(detail), std::string::npos)
      << "detail: " << tcpu_last_error_detail() << "\nexpected to contain: " << detail;
  EXPECT_EQ(decoder, nullptr);
}

TEST(GgufLoaderTest, TheValidTinyModelLoadsAndDecodes) {
  for (bool tied : {false, true}) {
    Model m = ValidModel();
    if (tied) m.EraseTensor("output.weight");  // absent: lm_head is token_embd
    tcpu_decoder* decoder = nullptr;
    const std::string path = Write(tied ? "valid_tied" : "valid", m);
    ASSERT_EQ(tcpu_decoder_open(path.c_str(), 16, &decoder), TCPU_OK) << tcpu_last_error_detail();
    tcpu_decoder_info info;
    ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
    EXPECT_EQ(info.vocab_size, kVocab);
    EXPECT_EQ(info.hidden_size, kHidden);
    int32_t next = -1;
    EXPECT_EQ(tcpu_decoder_step(decoder, 3, nullptr, &next), TCPU_OK) << tcpu_last_error_detail();
    EXPECT_GE(next, 0);
    EXPECT_LT(next, kVocab);
    tcpu_decoder_close(decoder);
  }
}

TEST(GgufLoaderTest, MaxTokensBeyondTheContextLengthNamesTheKey) {
  // The file's llama.context_length is 64: a cache for 65 positions is refused naming that key
  // (config.json's max_position_embeddings means nothing to the owner of a GGUF file).
  const std::string path = Write("context_length", ValidModel());
  tcpu_decoder* decoder = nullptr;
  EXPECT_EQ(tcpu_decoder_open(path.c_str(), 65, &decoder), TCPU_ERR_INVALID_ARGUMENT);
  const std::string expected = "exceeds the model's llama.context_length = 64";
  EXPECT_NE(std::string(tcpu_last_error_detail()).find(expected), std::string::npos)
      << tcpu_last_error_detail();
  EXPECT_EQ(decoder, nullptr);
  ASSERT_EQ(tcpu_decoder_open(path.c_str(), 64, &decoder), TCPU_OK) << tcpu_last_error_detail();
  tcpu_decoder_close(decoder);
}

TEST(GgufLoaderTest, FileLevelFailures) {
  const std::string missing = Write("present", ValidModel()) + ".absent.gguf";
  ExpectRefused(missing, TCPU_ERR_IO, missing + ": cannot open");

  // The reader's errors (its own corpus covers them all) reach the caller with the file name.
  GgufWriter writer;
  writer.SetVersion(2);
  std::string error;
  const std::string v2 = Write("present", ValidModel()) + ".v2.gguf";
  ASSERT_TRUE(writer.WriteFile(v2, &error)) << error;
  ExpectRefused(v2, TCPU_ERR_INVALID_MODEL, v2 + ": ");
  ExpectRefused(v2, TCPU_ERR_INVALID_MODEL, "version");
}

struct Case {
  const char* name;
  void (*edit)(Model& m);
  const char* detail;
};

void ExpectEveryCaseRefused(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Model m = ValidModel();
    c.edit(m);
    ExpectRefused(Write(c.name, m), TCPU_ERR_INVALID_MODEL, c.detail);
  }
}

// The valid model as MiniCPM: its keys renamed, and muP's scales except those in `omit`.
void AsMiniCpm(Model& m, const std::string& omit) {
  m.metadata[0].second = MetadataValue::String("minicpm");
  for (auto& [key, value] : m.metadata) {
    if (key.rfind("llama.", 0) == 0) key = "minicpm." + key.substr(6);
  }
  for (const char* scale : {"embedding_scale", "residual_scale", "logit_scale"}) {
    if (omit != scale) {
      m.metadata.emplace_back(std::string("minicpm.") + scale, MetadataValue::Float32(2.0f));
    }
  }
}

// LongRoPE's factor tensors, `count` each.
void AddLongRopeFactors(Model& m, uint64_t count) {
  m.metadata.emplace_back("llama.rope.scaling.type", MetadataValue::String("longrope"));
  for (const char* name : {"rope_factors_long.weight", "rope_factors_short.weight"}) {
    TensorToWrite t;
    t.name = name;
    t.type = static_cast<uint32_t>(TensorType::kF32);
    t.dims = {count};
    const float one = 1.0f;
    for (uint64_t i = 0; i < count; ++i) {
      t.data.insert(t.data.end(), reinterpret_cast<const uint8_t*>(&one),
                    reinterpret_cast<const uint8_t*>(&one) + 4);
    }
    m.tensors.push_back(t);
  }
}

TEST(GgufLoaderTest, MiniCpmAndLongRopeDamageNamesTheKeyOrTensor) {
  ExpectEveryCaseRefused({
      {"minicpm_without_residual_scale", [](Model& m) { AsMiniCpm(m, "residual_scale"); },
       "metadata key 'minicpm.residual_scale' is missing"},
      {"minicpm_zero_logit_scale",
       [](Model& m) {
         AsMiniCpm(m, "");
         *m.Key("minicpm.logit_scale") = MetadataValue::Float32(0.0f);
       },
       "metadata key 'minicpm.logit_scale' = 0.000000 must be a positive finite number"},
      {"longrope_without_factors",
       [](Model& m) {
         m.metadata.emplace_back("llama.rope.scaling.type", MetadataValue::String("longrope"));
       },
       "tensor 'rope_factors_long.weight' is missing (LongRoPE's factors)"},
      {"longrope_factor_count",
       [](Model& m) {
         AddLongRopeFactors(m, kHeadDim / 4);
         // A context beyond the original one selects the long factors.
         m.metadata.emplace_back("llama.rope.scaling.original_context_length",
                                 MetadataValue::Uint32(16));
       },
       "tensor 'rope_factors_long.weight' must be a list of 8 numbers (head_dim / 2)"},
  });
}

TEST(GgufLoaderTest, MetadataDamageNamesTheKey) {
  ExpectEveryCaseRefused({
      {"no_architecture", [](Model& m) { m.Erase("general.architecture"); },
       "metadata key 'general.architecture' is missing"},
      {"gpt2", [](Model& m) { *m.Key("general.architecture") = MetadataValue::String("gpt2"); },
       "metadata key 'general.architecture' = 'gpt2' is not supported (llama, qwen2, qwen3, "
       "minicpm)"},
      {"no_block_count", [](Model& m) { m.Erase("llama.block_count"); },
       "metadata key 'llama.block_count' is missing"},
      {"string_size",
       [](Model& m) { *m.Key("llama.embedding_length") = MetadataValue::String("32"); },
       "metadata key 'llama.embedding_length' is string"},
      {"zero_size", [](Model& m) { *m.Key("llama.embedding_length") = MetadataValue::Uint32(0); },
       "metadata key 'llama.embedding_length' must be a positive integer"},
      {"huge_context",
       [](Model& m) { *m.Key("llama.context_length") = MetadataValue::Uint64(1ull << 40); },
       "metadata key 'llama.context_length' = 1099511627776 exceeds"},
      {"kv_heads",
       [](Model& m) { *m.Key("llama.attention.head_count_kv") = MetadataValue::Uint32(3); },
       "metadata key 'llama.attention.head_count_kv' = 3 does not divide"},
      {"negative_eps",
       [](Model& m) {
         *m.Key("llama.attention.layer_norm_rms_epsilon") = MetadataValue::Float32(-1.0f);
       },
       "metadata key 'llama.attention.layer_norm_rms_epsilon' must be a positive"},
      {"partial_rope",
       [](Model& m) {
         m.metadata.emplace_back("llama.rope.dimension_count", MetadataValue::Uint32(8));
       },
       "metadata key 'llama.rope.dimension_count' = 8 must equal the head size 16"},
      {"yarn",
       [](Model& m) {
         m.metadata.emplace_back("llama.rope.scaling.type", MetadataValue::String("yarn"));
       },
       "metadata key 'llama.rope.scaling.type' = 'yarn' is not supported"},
      {"linear_without_factor",
       [](Model& m) {
         m.metadata.emplace_back("llama.rope.scaling.type", MetadataValue::String("linear"));
       },
       "metadata key 'llama.rope.scaling.factor' is missing"},
      {"tokens_not_strings",
       [](Model& m) {
         *m.Key("tokenizer.ggml.tokens") = MetadataValue::Int32Array({1, 2});
       },
       "metadata key 'tokenizer.ggml.tokens' must be an array of strings"},
      {"no_vocabulary", [](Model& m) { m.Erase("tokenizer.ggml.tokens"); },
       "neither metadata key 'tokenizer.ggml.tokens' nor 'llama.vocab_size'"},
      {"vocab_size_disagrees",
       [](Model& m) { m.metadata.emplace_back("llama.vocab_size", MetadataValue::Uint32(17)); },
       "metadata key 'llama.vocab_size' = 17 but 'tokenizer.ggml.tokens' holds 16 tokens"},
  });
}

// A tensor of `type` with `dims` and the bytes that type needs (zeros).
void Retype(TensorToWrite* t, TensorType type, int64_t block_elements, int64_t block_bytes) {
  uint64_t n = 1;
  for (uint64_t d : t->dims) n *= d;
  t->type = static_cast<uint32_t>(type);
  t->data.assign(n / block_elements * block_bytes, 0);
}

TEST(GgufLoaderTest, TensorDamageNamesTheTensor) {
  ExpectEveryCaseRefused({
      {"missing_tensor", [](Model& m) { m.EraseTensor("blk.0.ffn_up.weight"); },
       "tensor 'blk.0.ffn_up.weight' is missing"},
      {"wrong_shape",
       [](Model& m) {
         TensorToWrite* t = m.Tensor("blk.0.attn_k.weight");
         t->dims = {kHidden, kHidden};
         t->data.resize(4 * kHidden * kHidden);
       },
       "tensor 'blk.0.attn_k.weight' has dimensions [32, 32], the metadata implies [32, 16]"},
      {"embedding_rows",
       [](Model& m) {
         TensorToWrite* t = m.Tensor("token_embd.weight");
         t->dims = {kHidden, kVocab + 1};
         t->data.resize(4 * kHidden * (kVocab + 1));
       },
       "tensor 'token_embd.weight' has dimensions [32, 17], the metadata implies [32, 16]"},
      {"q5_0", [](Model& m) { Retype(m.Tensor("blk.0.attn_q.weight"), TensorType::kQ5_0, 32, 22); },
       "tensor 'blk.0.attn_q.weight' has type Q5_0, which the engine does not load "
       "(F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K)"},
      {"i8", [](Model& m) { Retype(m.Tensor("blk.0.attn_norm.weight"), TensorType::kI8, 1, 1); },
       "tensor 'blk.0.attn_norm.weight' has type I8"},
      {"half_the_biases",
       [](Model& m) {
         TensorToWrite bias;
         bias.name = "blk.0.attn_q.bias";
         bias.type = static_cast<uint32_t>(TensorType::kF32);
         bias.dims = {kHeads * kHeadDim};
         bias.data.assign(4 * kHeads * kHeadDim, 0);
         m.tensors.push_back(bias);
       },
       "tensor 'blk.0.attn_k.bias' is missing"},
      {"qwen3_without_qk_norm",
       [](Model& m) {
         m.metadata[0].second = MetadataValue::String("qwen3");
         for (auto& [key, value] : m.metadata) {
           if (key.rfind("llama.", 0) == 0) key = "qwen3." + key.substr(6);
         }
       },
       "tensor 'blk.0.attn_q_norm.weight' is missing"},
      {"rope_freqs_count",
       [](Model& m) {
         TensorToWrite t;
         t.name = "rope_freqs.weight";
         t.type = static_cast<uint32_t>(TensorType::kF32);
         t.dims = {kHeadDim};
         t.data.assign(4 * kHeadDim, 0);
         m.tensors.push_back(t);
       },
       "tensor 'rope_freqs.weight' must be F32 with 8 elements (head_dim / 2)"},
      {"rope_freqs_zero",
       [](Model& m) {
         TensorToWrite t;
         t.name = "rope_freqs.weight";
         t.type = static_cast<uint32_t>(TensorType::kF32);
         t.dims = {kHeadDim / 2};
         t.data.assign(4 * kHeadDim / 2, 0);
         m.tensors.push_back(t);
       },
       "tensor 'rope_freqs.weight': element 0 must be a positive finite number"},
  });
}

}  // namespace
