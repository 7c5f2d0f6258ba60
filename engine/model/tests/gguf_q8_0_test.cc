// GGUF Q8_0 with int8 weights runs on the block-Q8 kernels (tcpu/gemv_q8.h) with the file's q
// and d as they are. The identity that holds: the greedy ids equal those of the scalar
// reference decoder reading the same file with the same grouped arithmetic (exact int32 group
// sums, fmaf over the groups in order, then the activation scale), and every logit is within
// the last fp32 scaling of the reference's float64 one (the engine rounds f * s_x to fp32);
// every bf16 activation is then the reference's, so 1e-3 (one bf16 ulp of an activation would
// show as ~1e-3) bounds it with a wide margin. Prefill (the block-Q8 GEMM) gives the ids and
// logits of stepping, bit for bit. Llama (permuted q/k rows, reordered as blocks) and Qwen3
// (tied: the lm_head is the Q8_0 embedding table, packed as it is).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/gguf/gguf_types.h"
#include "engine/model/tests/gguf_from_checkpoint.h"
#include "engine/model/tests/greedy_run.h"
#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"
#include "tools/reference_decoder/reference_decoder.h"

namespace {

constexpr char kDir[] = "tools/checkpoint/";
const std::vector<int32_t> kPrompt = {1, 2, 3, 4, 5, 6, 7, 8};
constexpr int kNewTokens = 16;
constexpr double kLogitTolerance = 1e-3;

std::string ExportQ8_0(const std::string& checkpoint) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/" + checkpoint + "_q8_0.gguf";
  tcpu::testing::GgufExport options;
  options.matrix_type = tcpu::gguf::TensorType::kQ8_0;
  std::string error;
  EXPECT_TRUE(tcpu::testing::WriteGgufFromCheckpoint(kDir + checkpoint, path, options, &error))
      << error;
  return path;
}

struct ReferenceRun {
  std::vector<int32_t> ids;
  std::vector<double> logits;  // steps x vocab
};

// The reference decoder's greedy run, as tools/reference_decoder's main does it.
ReferenceRun RunReference(const std::string& model) {
  ReferenceRun out;
  tcpu::reference::ReferenceDecoder decoder;
  std::string error;
  const int64_t max_tokens = static_cast<int64_t>(kPrompt.size()) + kNewTokens;
  EXPECT_TRUE(decoder.Load(model, max_tokens, /*int4=*/false, &error)) << error;
  if (!error.empty()) return out;
  std::vector<double> logits;
  int32_t next = 0;
  auto step = [&](int32_t token) {
    next = decoder.Step(token, &logits);
    out.logits.insert(out.logits.end(), logits.begin(), logits.end());
  };
  for (int32_t id : kPrompt) step(id);
  out.ids.push_back(next);
  while (static_cast<int>(out.ids.size()) < kNewTokens) {
    step(out.ids.back());
    out.ids.push_back(next);
  }
  return out;
}

class GgufQ8_0Test : public ::testing::TestWithParam<const char*> {};

TEST_P(GgufQ8_0Test, Int8DecodesAsTheGroupedReference) {
  const std::string gguf = ExportQ8_0(GetParam());
  const tcpu::testing::GreedyRun engine =
      tcpu::testing::RunGreedy(gguf, TCPU_WEIGHTS_INT8, kPrompt, kNewTokens);
  const ReferenceRun reference = RunReference(gguf);
  ASSERT_EQ(engine.ids.size(), static_cast<size_t>(kNewTokens));
  EXPECT_EQ(engine.ids, reference.ids);
  ASSERT_EQ(engine.logits.size(), reference.logits.size());
  double worst = 0;
  for (size_t i = 0; i < reference.logits.size(); ++i) {
    worst = std::max(worst, std::fabs(engine.logits[i] - reference.logits[i]));
  }
  std::printf("%s (Q8_0, int8): max |logit error| vs the grouped reference = %.3g over %zu\n",
              GetParam(), worst, reference.logits.size());
  EXPECT_LE(worst, kLogitTolerance);
}

TEST_P(GgufQ8_0Test, PrefillEqualsStepping) {
  const std::string gguf = ExportQ8_0(GetParam());
  tcpu_decoder* decoder = nullptr;
  const tcpu::testing::GreedyRun stepped =
      tcpu::testing::RunGreedy(gguf, TCPU_WEIGHTS_INT8, kPrompt, 1, &decoder);
  ASSERT_NE(decoder, nullptr);
  ASSERT_EQ(tcpu_decoder_reset(decoder), TCPU_OK);
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  std::vector<float> last(static_cast<size_t>(info.vocab_size));
  int32_t next = -1;
  ASSERT_EQ(tcpu_decoder_prefill(decoder, kPrompt.data(), static_cast<int64_t>(kPrompt.size()),
                                 last.data(), &next),
            TCPU_OK)
      << tcpu_last_error_detail();
  tcpu_decoder_close(decoder);
  EXPECT_EQ(next, stepped.ids[0]);
  const std::vector<float> stepped_last(stepped.logits.end() - info.vocab_size,
                                        stepped.logits.end());
  EXPECT_EQ(last, stepped_last);
}

INSTANTIATE_TEST_SUITE_P(Checkpoints, GgufQ8_0Test,
                         ::testing::Values("tiny_llama", "tiny_qwen3_sharded"));

}  // namespace
