// The tokenizer built from GGUF metadata (gguf_tokenizer.h) against the same tokenizer loaded
// from tokenizer.json: each tokenizer is written as the `tokenizer.ggml.*` metadata llama.cpp's
// converter writes (gguf_from_tokenizer_json.h), opened with tcpu_tokenizer_open on the .gguf
// file, and must give the same ids (with and without special tokens), the same decoded text
// and the same BOS/EOS/vocabulary size on every text of corpus.json plus texts with special
// tokens. Malformed tokenizer metadata is refused naming the key.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/common/json_text.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/tokenizer/tests/gguf_from_tokenizer_json.h"
#include "engine/tokenizer/tests/tokenizer_calls.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

namespace {

using tcpu::gguf::GgufWriter;
using tcpu::gguf::MetadataValue;
using tcpu::testing::Decode;
using tcpu::testing::Encode;
using tcpu::testing::TokenizerExport;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  EXPECT_NE(value, nullptr) << name << " is not set";
  return value != nullptr ? value : "";
}

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
}

std::vector<std::string> Corpus(const std::vector<std::string>& extra) {
  std::ifstream in(Env("CORPUS"), std::ios::binary);
  nlohmann::json json;
  EXPECT_TRUE(tcpu::engine::ParseJson(std::string(std::istreambuf_iterator<char>(in), {}), &json));
  EXPECT_TRUE(json.is_array());
  std::vector<std::string> texts =
      json.is_array() ? json.get<std::vector<std::string>>() : std::vector<std::string>();
  texts.insert(texts.end(), extra.begin(), extra.end());
  return texts;
}

void ExpectSameTokenizer(const std::string& tokenizer_json, const std::string& file,
                         const TokenizerExport& options, const std::vector<std::string>& extra) {
  const std::string gguf = TempPath(file);
  std::string error;
  ASSERT_TRUE(tcpu::testing::WriteGgufTokenizer(tokenizer_json, gguf, options, &error)) << error;
  tcpu_tokenizer *json = nullptr, *from_gguf = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(tokenizer_json.c_str(), &json), TCPU_OK)
      << tcpu_last_error_detail();
  ASSERT_EQ(tcpu_tokenizer_open(gguf.c_str(), &from_gguf), TCPU_OK) << tcpu_last_error_detail();
  tcpu_tokenizer_info a, b;
  ASSERT_EQ(tcpu_tokenizer_get_info(json, &a), TCPU_OK);
  ASSERT_EQ(tcpu_tokenizer_get_info(from_gguf, &b), TCPU_OK);
  EXPECT_EQ(a.vocab_size, b.vocab_size);
  EXPECT_EQ(a.bos_id, b.bos_id);
  EXPECT_EQ(a.eos_id, b.eos_id);
  const std::vector<std::string> texts = Corpus(extra);
  ASSERT_GE(texts.size(), 20u);
  for (const std::string& text : texts) {
    for (bool special : {false, true}) {
      const std::vector<int32_t> expected = Encode(json, text, special);
      EXPECT_EQ(Encode(from_gguf, text, special), expected)
          << "special " << special << ": " << text;
      EXPECT_EQ(Decode(from_gguf, expected), Decode(json, expected)) << text;
    }
  }
  tcpu_tokenizer_close(json);
  tcpu_tokenizer_close(from_gguf);
}

const std::vector<std::string> kChatTexts = {
    "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n", "a<|endoftext|>b"};

TEST(GgufTokenizerTest, TinyByteLevelTokenizer) {
  ExpectSameTokenizer(Env("TINY_TOKENIZER"), "tiny.gguf", {"gpt2", "qwen2", false}, kChatTexts);
}

TEST(GgufTokenizerTest, Qwen3ByteLevelTokenizer) {
  ExpectSameTokenizer(Env("QWEN3_TOKENIZER"), "qwen3.gguf", {"gpt2", "qwen2", false}, kChatTexts);
}

// Without merges in the file (a SentencePiece model's scores rank them), and with them.
TEST(GgufTokenizerTest, Llama2SentencePieceTokenizer) {
  const std::vector<std::string> extra = {"<s>Hello</s> world", "  two  spaces\n\n<unk>"};
  ExpectSameTokenizer(Env("LLAMA2_TOKENIZER"), "llama2.gguf", {"llama", "", false}, extra);
  ExpectSameTokenizer(Env("LLAMA2_TOKENIZER"), "llama2_merges.gguf", {"llama", "", true}, extra);
}

// Opens a GGUF file of `metadata`; expects TCPU_ERR_INVALID_MODEL naming `detail`.
void ExpectRefused(const std::string& name,
                   const std::vector<std::pair<std::string, MetadataValue>>& metadata,
                   const std::string& detail) {
  GgufWriter writer;
  for (const auto& [key, value] : metadata) writer.AddMetadata(key, value);
  const std::string path = TempPath(name + ".gguf");
  std::string error;
  ASSERT_TRUE(writer.WriteFile(path, &error)) << error;
  tcpu_tokenizer* tokenizer = nullptr;
  EXPECT_EQ(tcpu_tokenizer_open(path.c_str(), &tokenizer), TCPU_ERR_INVALID_MODEL) << name;
  EXPECT_NE(std::string(tcpu_last_error_detail()).find(detail), std::string::npos)
      << name << ": " << tcpu_last_error_detail() << "\nexpected to contain: " << detail;
  EXPECT_EQ(tokenizer, nullptr);
}

TEST(GgufTokenizerTest, MalformedMetadataIsRefusedNamingTheKey) {
  using V = MetadataValue;
  const auto gpt2 = V::String("gpt2");
  const auto tokens = V::StringArray({"a", "b", "ab"});
  const auto merges = V::StringArray({"a b"});
  ExpectRefused("no_model", {{"tokenizer.ggml.tokens", tokens}},
                "metadata key 'tokenizer.ggml.model' is missing");
  ExpectRefused("bert", {{"tokenizer.ggml.model", V::String("bert")}},
                "metadata key 'tokenizer.ggml.model' = 'bert' is not supported");
  ExpectRefused("no_tokens", {{"tokenizer.ggml.model", gpt2}},
                "metadata key 'tokenizer.ggml.tokens' is missing");
  ExpectRefused("no_merges", {{"tokenizer.ggml.model", gpt2}, {"tokenizer.ggml.tokens", tokens}},
                "metadata key 'tokenizer.ggml.merges' is missing");
  ExpectRefused("types_count",
                {{"tokenizer.ggml.model", gpt2},
                 {"tokenizer.ggml.tokens", tokens},
                 {"tokenizer.ggml.token_type", V::Int32Array({1, 1})}},
                "metadata key 'tokenizer.ggml.token_type' holds 2 types for 3 tokens");
  ExpectRefused("bad_type",
                {{"tokenizer.ggml.model", gpt2},
                 {"tokenizer.ggml.tokens", tokens},
                 {"tokenizer.ggml.token_type", V::Int32Array({1, 9, 1})}},
                "token 1 has type 9");
  ExpectRefused(
      "repeated",
      {{"tokenizer.ggml.model", gpt2}, {"tokenizer.ggml.tokens", V::StringArray({"a", "b", "a"})}},
      "token 2 'a' repeats token 0");
  ExpectRefused("bos_outside",
                {{"tokenizer.ggml.model", gpt2},
                 {"tokenizer.ggml.tokens", tokens},
                 {"tokenizer.ggml.merges", merges},
                 {"tokenizer.ggml.bos_token_id", V::Uint32(3)}},
                "metadata key 'tokenizer.ggml.bos_token_id' = 3 is not one of the 3 tokens");
  ExpectRefused("unknown_pre",
                {{"tokenizer.ggml.model", gpt2},
                 {"tokenizer.ggml.tokens", tokens},
                 {"tokenizer.ggml.merges", merges},
                 {"tokenizer.ggml.pre", V::String("deepseek-coder")}},
                "metadata key 'tokenizer.ggml.pre' = 'deepseek-coder' is not supported");
  ExpectRefused("no_scores",
                {{"tokenizer.ggml.model", V::String("llama")}, {"tokenizer.ggml.tokens", tokens}},
                "metadata key 'tokenizer.ggml.scores' is missing");
  ExpectRefused("scores_count",
                {{"tokenizer.ggml.model", V::String("llama")},
                 {"tokenizer.ggml.tokens", tokens},
                 {"tokenizer.ggml.scores", V::Float32Array({0.0f})}},
                "metadata key 'tokenizer.ggml.scores' holds 1 scores for 3 tokens");
  ExpectRefused("add_bos_not_bool",
                {{"tokenizer.ggml.model", gpt2},
                 {"tokenizer.ggml.tokens", tokens},
                 {"tokenizer.ggml.merges", merges},
                 {"tokenizer.ggml.add_bos_token", V::Uint32(1)}},
                "metadata key 'tokenizer.ggml.add_bos_token' is uint32");
}

}  // namespace
