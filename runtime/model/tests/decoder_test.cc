// tcpu_decoder on the generated checkpoints (//tools/checkpoint): the greedy ids equal the
// scalar float64 reference decoder's for 40 new tokens, in every variant of the QEMU matrix;
// every step's logits are within a stated tolerance of the reference's; 1 and 4 threads give
// identical ids and logits.
#include "tcpu/decoder.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tools/decode/decode_args.h"

namespace {

// The checkpoints and reference outputs, relative to the test's runfiles directory.
constexpr char kDir[] = "tools/checkpoint/";
const std::vector<int32_t> kPrompt = {1, 2, 3, 4, 5, 6, 7, 8};  // DEMO_PROMPT in BUILD
constexpr int kNewTokens = 40;

// Logits are int32 sums scaled in fp32, fed by activations both decoders round to bf16 at
// the same points; fp32 (engine) vs float64 (reference) inside RMSNorm, SiLU and softmax
// could move a bf16 activation by an ulp, which would move logits by ~1e-3. Measured: 2.6e-7
// (the final fp32 scaling alone) on both checkpoints in all nine variants, i.e. every bf16
// activation equal; the test log prints it ("max |logit error|").
constexpr double kLogitTolerance = 1e-3;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Decode {
  std::vector<int32_t> ids;
  std::vector<float> logits;  // steps x vocab
};

Decode RunDecoder(const std::string& model, int threads) {
  Decode out;
  EXPECT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
  tcpu_decoder* decoder = nullptr;
  const int64_t max_tokens = static_cast<int64_t>(kPrompt.size()) + kNewTokens;
  EXPECT_EQ(tcpu_decoder_open(model.c_str(), max_tokens, &decoder), TCPU_OK)
      << tcpu_last_error_detail();
  if (decoder == nullptr) return out;
  tcpu_decoder_info info;
  EXPECT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  std::vector<float> logits(info.vocab_size);
  int32_t next = -1;
  auto step = [&](int32_t token) {
    EXPECT_EQ(tcpu_decoder_step(decoder, token, logits.data(), &next), TCPU_OK)
        << tcpu_last_error_detail();
    out.logits.insert(out.logits.end(), logits.begin(), logits.end());
  };
  for (int32_t id : kPrompt) step(id);
  out.ids.push_back(next);
  while (static_cast<int>(out.ids.size()) < kNewTokens) {
    step(out.ids.back());
    out.ids.push_back(next);
  }
  // The last generated token still fits; after it the cache is full and a step is refused.
  EXPECT_EQ(tcpu_decoder_step(decoder, out.ids.back(), logits.data(), &next), TCPU_OK);
  EXPECT_EQ(tcpu_decoder_step(decoder, 0, logits.data(), &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("full"), std::string::npos);
  tcpu_decoder_close(decoder);
  return out;
}

class DecoderTest : public ::testing::TestWithParam<const char*> {};

TEST_P(DecoderTest, GreedyIdsEqualTheReferenceDecoder) {
  const std::string name = GetParam();
  std::vector<int32_t> expected;
  std::string text = ReadFile(kDir + name + "_reference.ids");
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  ASSERT_TRUE(tcpu::decode::ParseIdList(text, &expected)) << text;
  ASSERT_EQ(expected.size(), static_cast<size_t>(kNewTokens));
  const std::string f64 = ReadFile(kDir + name + "_reference.logits.f64");
  std::vector<double> reference(f64.size() / 8);
  std::memcpy(reference.data(), f64.data(), reference.size() * 8);

  const Decode one = RunDecoder(kDir + name, 1);
  EXPECT_EQ(one.ids, expected) << "1 thread";
  ASSERT_EQ(one.logits.size(), reference.size());
  double worst = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    worst = std::max(worst, std::fabs(one.logits[i] - reference[i]));
  }
  std::printf("%s: max |logit error| vs float64 reference = %.3g over %zu logits\n", name.c_str(),
              worst, reference.size());
  EXPECT_LE(worst, kLogitTolerance);

  const Decode four = RunDecoder(kDir + name, 4);
  EXPECT_EQ(four.ids, one.ids) << "4 threads";
  EXPECT_EQ(four.logits, one.logits) << "4 threads";
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, DecoderTest,
                         ::testing::Values("tiny_llama", "tiny_qwen3_sharded", "tiny_minicpm",
                                           "tiny_llama3", "tiny_qwen2"));

TEST(DecoderApiTest, RejectsBadArgumentsNamingThem) {
  tcpu_decoder* decoder = nullptr;
  EXPECT_EQ(tcpu_decoder_open(nullptr, 8, &decoder), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama", 0, &decoder), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama", 1 << 20, &decoder),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("max_position_embeddings"),
            std::string::npos);
  EXPECT_EQ(tcpu_decoder_open("no/such/dir", 8, &decoder), TCPU_ERR_IO);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("no/such/dir/config.json"),
            std::string::npos);
  EXPECT_EQ(decoder, nullptr);
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama", 4, &decoder), TCPU_OK);
  int32_t next = 0;
  EXPECT_EQ(tcpu_decoder_step(decoder, 1024, nullptr, &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("token = 1024"), std::string::npos);
  EXPECT_EQ(tcpu_decoder_step(decoder, -1, nullptr, &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_decoder_step(decoder, 5, nullptr, nullptr), TCPU_ERR_NULL_POINTER);
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, 0);  // the failed steps consumed nothing
  EXPECT_EQ(tcpu_decoder_step(decoder, 5, nullptr, &next), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, 1);
  EXPECT_EQ(tcpu_decoder_reset(decoder), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  EXPECT_EQ(info.position, 0);
  tcpu_decoder_close(decoder);
}

}  // namespace
