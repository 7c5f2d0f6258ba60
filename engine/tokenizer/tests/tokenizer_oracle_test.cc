// Our tokenizer against @lenml/tokenizers on corpus.json: for every text, the ids with and
// without special tokens and the decoded text must equal the oracle's (its output is made
// at build time by oracle.js; the paths come from the test's environment).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/common/json_text.h"
#include "engine/tokenizer/tests/tokenizer_calls.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

namespace {

using tcpu::testing::Decode;
using tcpu::testing::Encode;

std::string ReadFileOrDie(const char* env_name) {
  const char* path = std::getenv(env_name);
  EXPECT_NE(path, nullptr) << env_name << " is not set";
  if (path == nullptr) return "";
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void CompareWithOracle(const char* tokenizer_env, const char* oracle_env) {
  const char* path = std::getenv(tokenizer_env);
  ASSERT_NE(path, nullptr) << tokenizer_env << " is not set";
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(path, &tokenizer), TCPU_OK) << tcpu_last_error_detail();
  nlohmann::json oracle;
  ASSERT_TRUE(tcpu::engine::ParseJson(ReadFileOrDie(oracle_env), &oracle)) << oracle_env;
  const nlohmann::json& cases = oracle.at("cases");
  ASSERT_GE(cases.size(), 20u);
  for (const nlohmann::json& c : cases) {
    const std::string text = c.at("text").get<std::string>();
    const auto expected = c.at("ids").get<std::vector<int32_t>>();
    const std::vector<int32_t> ids = Encode(tokenizer, text, false);
    EXPECT_EQ(ids, expected) << "encode: " << text;
    EXPECT_EQ(Encode(tokenizer, text, true), c.at("ids_with_special").get<std::vector<int32_t>>())
        << "encode with special tokens: " << text;
    EXPECT_EQ(Decode(tokenizer, expected), c.at("decoded").get<std::string>())
        << "decode: " << text;
  }
  tcpu_tokenizer_close(tokenizer);
}

TEST(TokenizerOracleTest, Qwen3ByteLevelBpeMatchesOracle) {
  CompareWithOracle("QWEN3_TOKENIZER", "QWEN3_ORACLE");
}

TEST(TokenizerOracleTest, Llama2SentencePieceBpeMatchesOracle) {
  CompareWithOracle("LLAMA2_TOKENIZER", "LLAMA2_ORACLE");
}

}  // namespace
