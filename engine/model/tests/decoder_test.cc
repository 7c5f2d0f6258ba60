// tcpu_decoder on the generated checkpoints (//tools/checkpoint): the greedy ids equal the
// scalar float64 reference decoder's for 40 new tokens, in every variant of the QEMU matrix;
// every step's logits are within a stated tolerance of the reference's; 1 and 4 threads give
// identical ids and logits (int8). With int8 weights (the default) on every family, with int4
// weights (TCPU_WEIGHTS_INT4, against the reference decoder's --weights int4) on three.
#include "tcpu/decoder.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/model/tests/checkpoint_case.h"
#include "engine/model/tests/greedy_run.h"
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

// int4: the reference quantizes to the same int4 values and group scales (tcpu/gemv_q4.h
// defines them bit for bit) and forms each activation's fp32 sum as the kernels do (exact
// group sums, fmaf over the groups in order, times the activation scale), so every bf16
// activation again equals the reference's and the logits differ by the last fp32 scaling
// only: f * s_x rounded to fp32 (engine) against float64 (reference), at most ~6e-8 x |logit|.
// The same 1e-3 bound as int8 therefore holds with the same margin (a bf16 activation one ulp
// apart would show as ~1e-3). Measured: see the test log ("max |logit error|").
constexpr double kInt4LogitTolerance = 1e-3;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

using Decode = ::tcpu::testing::GreedyRun;

Decode RunDecoder(const std::string& model, int threads, int32_t weights) {
  EXPECT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
  tcpu_decoder* decoder = nullptr;
  const Decode out = ::tcpu::testing::RunGreedy(model, weights, kPrompt, kNewTokens, &decoder);
  if (decoder == nullptr) return out;
  // The last generated token still fits; after it the cache is full and a step is refused.
  int32_t next = -1;
  EXPECT_EQ(tcpu_decoder_step(decoder, out.ids.back(), nullptr, &next), TCPU_OK);
  EXPECT_EQ(tcpu_decoder_step(decoder, 0, nullptr, &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("full"), std::string::npos);
  tcpu_decoder_close(decoder);
  return out;
}

using Case = ::tcpu::testing::CheckpointCase;
using ::tcpu::testing::CheckpointCaseName;

class DecoderTest : public ::testing::TestWithParam<Case> {};

TEST_P(DecoderTest, GreedyIdsEqualTheReferenceDecoder) {
  const std::string name = GetParam().checkpoint;
  const int32_t weights = GetParam().weights;
  const bool int4 = weights == TCPU_WEIGHTS_INT4;
  const std::string reference_name = name + (int4 ? "_int4_reference" : "_reference");
  std::vector<int32_t> expected;
  std::string text = ReadFile(kDir + reference_name + ".ids");
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  ASSERT_TRUE(tcpu::decode::ParseIdList(text, &expected)) << text;
  ASSERT_EQ(expected.size(), static_cast<size_t>(kNewTokens));
  const std::string f64 = ReadFile(kDir + reference_name + ".logits.f64");
  std::vector<double> reference(f64.size() / 8);
  std::memcpy(reference.data(), f64.data(), reference.size() * 8);

  const Decode one = RunDecoder(kDir + name, 1, weights);
  EXPECT_EQ(one.ids, expected) << "1 thread";
  ASSERT_EQ(one.logits.size(), reference.size());
  double worst = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    worst = std::max(worst, std::fabs(one.logits[i] - reference[i]));
  }
  std::printf("%s (%s): max |logit error| vs float64 reference = %.3g over %zu logits\n",
              name.c_str(), int4 ? "int4" : "int8", worst, reference.size());
  EXPECT_LE(worst, int4 ? kInt4LogitTolerance : kLogitTolerance);

  // int4 skips this (QEMU time): these shapes stay below the split threshold of the W4A8
  // GEMVs, so 4 threads would run the same single task; fused_mlp_test covers the split.
  if (int4) return;
  const Decode four = RunDecoder(kDir + name, 4, weights);
  EXPECT_EQ(four.ids, one.ids) << "4 threads";
  EXPECT_EQ(four.logits, one.logits) << "4 threads";
}

INSTANTIATE_TEST_SUITE_P(
    Checkpoints, DecoderTest,
    ::testing::Values(Case{"tiny_llama", TCPU_WEIGHTS_INT8},
                      Case{"tiny_qwen3_sharded", TCPU_WEIGHTS_INT8},
                      Case{"tiny_minicpm", TCPU_WEIGHTS_INT8},
                      Case{"tiny_llama3", TCPU_WEIGHTS_INT8}, Case{"tiny_qwen2", TCPU_WEIGHTS_INT8},
                      // int4: qk-norm + f16 + tied, muP + longrope, q/k/v/o biases.
                      Case{"tiny_qwen3_sharded", TCPU_WEIGHTS_INT4},
                      Case{"tiny_minicpm", TCPU_WEIGHTS_INT4},
                      Case{"tiny_llama3", TCPU_WEIGHTS_INT4}),
    CheckpointCaseName);

TEST(DecoderApiTest, RejectsAnUnknownWeightFormatBeforeReadingFiles) {
  tcpu_decoder* decoder = nullptr;
  tcpu_decoder_options options{};
  options.weights = 3;
  EXPECT_EQ(tcpu_decoder_open_with_options("no/such/dir", 8, &options, &decoder),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("options->weights = 3"), std::string::npos)
      << tcpu_last_error_detail();
  EXPECT_EQ(decoder, nullptr);
  options.weights = -1;
  EXPECT_EQ(tcpu_decoder_open_with_options("tools/checkpoint/tiny_llama", 8, &options, &decoder),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(decoder, nullptr);
  // NULL options are the defaults (int8).
  ASSERT_EQ(tcpu_decoder_open_with_options("tools/checkpoint/tiny_minicpm", 8, nullptr, &decoder),
            TCPU_OK)
      << tcpu_last_error_detail();
  tcpu_decoder_info int8_info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &int8_info), TCPU_OK);
  tcpu_decoder_close(decoder);
  // int4 reads 0.5625 bytes per weight (scales included) where int8 reads 1 + 4 / k.
  options.weights = TCPU_WEIGHTS_INT4;
  ASSERT_EQ(tcpu_decoder_open_with_options("tools/checkpoint/tiny_minicpm", 8, &options, &decoder),
            TCPU_OK)
      << tcpu_last_error_detail();
  tcpu_decoder_info int4_info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &int4_info), TCPU_OK);
  EXPECT_LT(int4_info.weight_bytes_per_token, int8_info.weight_bytes_per_token);
  tcpu_decoder_close(decoder);
}

TEST(DecoderApiTest, RejectsBadArgumentsNamingThem) {
  // The smallest family (vocab 256): loading tiny_llama would cost more than every check here.
  constexpr char kModel[] = "tools/checkpoint/tiny_llama3";
  tcpu_decoder* decoder = nullptr;
  EXPECT_EQ(tcpu_decoder_open(nullptr, 8, &decoder), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_open(kModel, 0, &decoder), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_decoder_open(kModel, 1 << 20, &decoder), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("max_position_embeddings"),
            std::string::npos);
  EXPECT_EQ(tcpu_decoder_open("no/such/dir", 8, &decoder), TCPU_ERR_IO);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("no/such/dir/config.json"),
            std::string::npos);
  EXPECT_EQ(decoder, nullptr);
  ASSERT_EQ(tcpu_decoder_open(kModel, 4, &decoder), TCPU_OK);
  int32_t next = 0;
  EXPECT_EQ(tcpu_decoder_step(decoder, 256, nullptr, &next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("token = 256"), std::string::npos);
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
