// tcpu_decoder_prefill against tcpu_decoder_step on every generated checkpoint (every family),
// in every variant of the QEMU matrix: a 70-token prompt (a full block of 64 and a partial
// one) gives bit-identical last logits and next token whether it is prefilled at once (4
// threads), in two calls, or stepped token by token (1 thread); the KV caches are identical
// too (the following steps match bit for bit); bad arguments change nothing. With int8 weights
// on every checkpoint and int4 weights (tcpu_gemm_w4a8 against the W4A8 GEMV) on two.
// tcpu_decoder_truncate keeps the cache before its position: what follows is bit-identical to
// a decoder that never saw the forgotten tokens.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/model/tests/checkpoint_case.h"
#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int64_t kPromptTokens = 70;
constexpr int kFollowingSteps = 3;

struct Outputs {
  std::vector<float> logits;  // the prompt's last logits, then each following step's
  std::vector<int32_t> ids;   // the prompt's next token, then each following step's
};

// Feeds the prompt with prefill calls of the given sizes (an empty list: token by token),
// then kFollowingSteps greedy steps.
Outputs Decode(const std::string& model, int32_t weights, const std::vector<int32_t>& prompt,
               const std::vector<int64_t>& chunks, int threads) {
  Outputs run;
  EXPECT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
  tcpu_decoder* decoder = nullptr;
  tcpu_decoder_options options{};
  options.weights = weights;
  EXPECT_EQ(tcpu_decoder_open_with_options(model.c_str(), kPromptTokens + kFollowingSteps, &options,
                                           &decoder),
            TCPU_OK)
      << tcpu_last_error_detail();
  if (decoder == nullptr) return run;
  tcpu_decoder_info info;
  EXPECT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  std::vector<float> logits(info.vocab_size);
  int32_t next = -1;
  if (chunks.empty()) {
    for (int32_t id : prompt) {
      EXPECT_EQ(tcpu_decoder_step(decoder, id, logits.data(), &next), TCPU_OK);
    }
  } else {
    int64_t done = 0;
    for (int64_t n : chunks) {
      EXPECT_EQ(tcpu_decoder_prefill(decoder, prompt.data() + done, n, logits.data(), &next),
                TCPU_OK)
          << tcpu_last_error_detail();
      done += n;
    }
    EXPECT_EQ(done, kPromptTokens);
  }
  EXPECT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, kPromptTokens);
  for (int i = 0; i <= kFollowingSteps; ++i) {
    run.logits.insert(run.logits.end(), logits.begin(), logits.end());
    run.ids.push_back(next);
    if (i < kFollowingSteps) {
      EXPECT_EQ(tcpu_decoder_step(decoder, next, logits.data(), &next), TCPU_OK);
    }
  }
  tcpu_decoder_close(decoder);
  EXPECT_EQ(tcpu_set_num_threads(1), TCPU_OK);
  return run;
}

bool BitIdentical(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

using Case = ::tcpu::testing::CheckpointCase;
using ::tcpu::testing::CheckpointCaseName;

class PrefillTest : public ::testing::TestWithParam<Case> {};

TEST_P(PrefillTest, BitIdenticalToTokenByToken) {
  const std::string model = std::string("tools/checkpoint/") + GetParam().checkpoint;
  const int32_t weights = GetParam().weights;
  std::vector<int32_t> prompt;
  for (int64_t i = 0; i < kPromptTokens; ++i) prompt.push_back(static_cast<int32_t>(i * 37 % 251));
  const Outputs stepped = Decode(model, weights, prompt, {}, 1);
  const Outputs batched = Decode(model, weights, prompt, {kPromptTokens}, 4);
  const Outputs split = Decode(model, weights, prompt, {5, 65}, 1);
  ASSERT_FALSE(stepped.logits.empty());
  EXPECT_TRUE(BitIdentical(batched.logits, stepped.logits)) << "one prefill call, 4 threads";
  EXPECT_EQ(batched.ids, stepped.ids);
  EXPECT_TRUE(BitIdentical(split.logits, stepped.logits)) << "prefill of 5 then 65 tokens";
  EXPECT_EQ(split.ids, stepped.ids);
}

// int4 (two cases: QEMU time): biases (each row's fp32 sum + bias, one rounding) and
// tiny_wide_vocab, whose hidden size of 8 leaves every row a partial group of 32.
INSTANTIATE_TEST_SUITE_P(Checkpoints, PrefillTest,
                         ::testing::Values(Case{"tiny_llama", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_qwen3_sharded", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_minicpm", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_llama3", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_qwen2", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_wide_vocab", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_llama3", TCPU_WEIGHTS_INT4},
                                           Case{"tiny_wide_vocab", TCPU_WEIGHTS_INT4}),
                         CheckpointCaseName);

TEST(PrefillApiTest, RejectsBadArgumentsChangingNothing) {
  // The smallest family (vocab 256): loading tiny_llama would cost more than every check here.
  tcpu_decoder* decoder = nullptr;
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama3", 8, &decoder), TCPU_OK);
  const int32_t tokens[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  int32_t next = 0;
  EXPECT_EQ(tcpu_decoder_prefill(nullptr, tokens, 2, nullptr, &next), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_prefill(decoder, nullptr, 2, nullptr, &next), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_prefill(decoder, tokens, 2, nullptr, nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_prefill(decoder, tokens, 0, nullptr, &next), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_decoder_prefill(decoder, tokens, 9, nullptr, &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("do not fit the KV cache"),
            std::string::npos);
  const int32_t bad[3] = {1, 256, 2};
  EXPECT_EQ(tcpu_decoder_prefill(decoder, bad, 3, nullptr, &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("tokens[1] = 256"), std::string::npos);
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, 0);
  EXPECT_EQ(tcpu_decoder_prefill(decoder, tokens, 8, nullptr, &next), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, 8);
  tcpu_decoder_close(decoder);
}

TEST(PrefillApiTest, TruncateKeepsTheCacheBeforeThePosition) {
  const int32_t tokens[8] = {11, 12, 13, 14, 15, 16, 17, 18};
  constexpr int64_t kKept = 5;
  constexpr int32_t kOther = 42;
  tcpu_decoder* decoder = nullptr;
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama3", 16, &decoder), TCPU_OK);
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  std::vector<float> truncated(info.vocab_size), fresh(info.vocab_size);
  int32_t next = 0;
  ASSERT_EQ(tcpu_decoder_prefill(decoder, tokens, 8, nullptr, &next), TCPU_OK);
  EXPECT_EQ(tcpu_decoder_truncate(nullptr, 0), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_truncate(decoder, -1), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_decoder_truncate(decoder, 9), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("position = 9 is outside [0, 8]"),
            std::string::npos)
      << tcpu_last_error_detail();
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, 8);
  ASSERT_EQ(tcpu_decoder_truncate(decoder, kKept), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, kKept);
  ASSERT_EQ(tcpu_decoder_step(decoder, kOther, truncated.data(), &next), TCPU_OK);
  tcpu_decoder_close(decoder);

  // The same as a decoder that never saw the forgotten tokens.
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama3", 16, &decoder), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_prefill(decoder, tokens, kKept, nullptr, &next), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_step(decoder, kOther, fresh.data(), &next), TCPU_OK);
  tcpu_decoder_close(decoder);
  EXPECT_TRUE(BitIdentical(truncated, fresh));
}

}  // namespace
