// tcpu_decoder_step_batch against tcpu_decoder_step, in every variant of the QEMU matrix: eight
// sibling decoders (one model, tcpu_decoder_open_sibling), each with its own prompt length (so
// its own position) and its own KV-cache capacity; for n = 1..8 the first n step together three
// times (4 threads) and their logits and next tokens are bit-identical to each decoder stepped
// alone (1 thread), and so are their KV caches (a following single step matches bit for bit).
// With int8 weights on families with biases, q/k norms and muP, and int4 weights on two. Bad
// batches are refused naming the offending index and change nothing.
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

constexpr int kDecoders = 8;
constexpr int kBatchSteps = 3;

using Case = ::tcpu::testing::CheckpointCase;
using ::tcpu::testing::CheckpointCaseName;

// Decoder i's prompt: 2 + 3 i tokens, so every decoder is at another position.
std::vector<int32_t> Prompt(int i) {
  std::vector<int32_t> prompt;
  for (int t = 0; t < 2 + 3 * i; ++t)
    prompt.push_back(static_cast<int32_t>((t * 37 + i * 11) % 251));
  return prompt;
}

// What one decoder produced: after its prompt, then after each of kBatchSteps + 1 steps.
struct Trace {
  std::vector<float> logits;
  std::vector<int32_t> ids;
};

bool BitIdentical(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

class Siblings {
 public:
  Siblings(const std::string& model, int32_t weights) {
    tcpu_decoder_options options{};
    options.weights = weights;
    tcpu_decoder* base = nullptr;
    EXPECT_EQ(tcpu_decoder_open_with_options(model.c_str(), 64, &options, &base), TCPU_OK)
        << tcpu_last_error_detail();
    if (base == nullptr) return;
    tcpu_decoder_info info;
    EXPECT_EQ(tcpu_decoder_get_info(base, &info), TCPU_OK);
    vocab_ = info.vocab_size;
    for (int i = 0; i < kDecoders; ++i) {
      tcpu_decoder* d = nullptr;
      EXPECT_EQ(tcpu_decoder_open_sibling(base, 40 + i, &d), TCPU_OK) << tcpu_last_error_detail();
      decoders_.push_back(d);
    }
    tcpu_decoder_close(base);  // the siblings keep the model alive
  }
  ~Siblings() {
    for (tcpu_decoder* d : decoders_) tcpu_decoder_close(d);
  }
  bool ok() const { return decoders_.size() == kDecoders && decoders_.back() != nullptr; }
  int64_t vocab() const { return vocab_; }
  tcpu_decoder* operator[](int i) const { return decoders_[i]; }

  // Resets decoder i and prefills its prompt: its logits and next token into *trace.
  void Start(int i, Trace* trace, int32_t* next) const {
    std::vector<float> logits(vocab_);
    const std::vector<int32_t> prompt = Prompt(i);
    ASSERT_EQ(tcpu_decoder_reset(decoders_[i]), TCPU_OK);
    ASSERT_EQ(tcpu_decoder_prefill(decoders_[i], prompt.data(), static_cast<int64_t>(prompt.size()),
                                   logits.data(), next),
              TCPU_OK)
        << tcpu_last_error_detail();
    trace->logits = logits;
    trace->ids = {*next};
  }

  // One tcpu_decoder_step of decoder i on *next, appended to *trace.
  void Step(int i, Trace* trace, int32_t* next) const {
    std::vector<float> logits(vocab_);
    ASSERT_EQ(tcpu_decoder_step(decoders_[i], *next, logits.data(), next), TCPU_OK)
        << tcpu_last_error_detail();
    trace->logits.insert(trace->logits.end(), logits.begin(), logits.end());
    trace->ids.push_back(*next);
  }

 private:
  std::vector<tcpu_decoder*> decoders_;
  int64_t vocab_ = 0;
};

class StepBatchTest : public ::testing::TestWithParam<Case> {};

TEST_P(StepBatchTest, BitIdenticalToSteppingEachAlone) {
  const Siblings siblings(std::string("tools/checkpoint/") + GetParam().checkpoint,
                          GetParam().weights);
  ASSERT_TRUE(siblings.ok());
  const int64_t vocab = siblings.vocab();

  // Each decoder alone, one thread: prompt, kBatchSteps steps, one more step.
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
  std::vector<Trace> alone(kDecoders);
  for (int i = 0; i < kDecoders; ++i) {
    int32_t next = 0;
    siblings.Start(i, &alone[i], &next);
    for (int s = 0; s <= kBatchSteps; ++s) siblings.Step(i, &alone[i], &next);
  }

  ASSERT_EQ(tcpu_set_num_threads(4), TCPU_OK);
  for (int n = 1; n <= kDecoders; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<Trace> together(n);
    std::vector<tcpu_decoder*> batch(n);
    std::vector<int32_t> tokens(n), next(n);
    std::vector<std::vector<float>> logits(n, std::vector<float>(vocab));
    std::vector<float*> outs(n);
    for (int i = 0; i < n; ++i) {
      siblings.Start(i, &together[i], &tokens[i]);
      batch[i] = siblings[i];
      // Odd n: every other row's logits left to the decoder (NULL), its next token still out.
      outs[i] = n % 2 == 1 && i % 2 == 1 ? nullptr : logits[i].data();
    }
    for (int s = 0; s < kBatchSteps; ++s) {
      ASSERT_EQ(tcpu_decoder_step_batch(batch.data(), n, tokens.data(),
                                        s == 1 ? nullptr : outs.data(), next.data()),
                TCPU_OK)
          << tcpu_last_error_detail();
      for (int i = 0; i < n; ++i) {
        const bool seen = s != 1 && outs[i] != nullptr;
        // Rows whose logits were not asked for: the step's own logits from the trace.
        const float* row = seen ? logits[i].data() : alone[i].logits.data() + (s + 1) * vocab;
        together[i].logits.insert(together[i].logits.end(), row, row + vocab);
        together[i].ids.push_back(next[i]);
        tokens[i] = next[i];
      }
    }
    for (int i = 0; i < n; ++i) {
      siblings.Step(i, &together[i], &tokens[i]);  // reads the cache the batch wrote
      EXPECT_TRUE(BitIdentical(together[i].logits, alone[i].logits)) << "decoder " << i;
      EXPECT_EQ(together[i].ids, alone[i].ids) << "decoder " << i;
      tcpu_decoder_info info;
      ASSERT_EQ(tcpu_decoder_get_info(siblings[i], &info), TCPU_OK);
      EXPECT_EQ(info.position, static_cast<int64_t>(Prompt(i).size()) + kBatchSteps + 1);
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

// int4 (two cases: QEMU time): biases and q/k norms (tiny_llama3 has attention biases) and
// tiny_wide_vocab, whose hidden size of 8 leaves every row a partial group of 32.
INSTANTIATE_TEST_SUITE_P(Checkpoints, StepBatchTest,
                         ::testing::Values(Case{"tiny_llama3", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_qwen3_sharded", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_minicpm", TCPU_WEIGHTS_INT8},
                                           Case{"tiny_llama3", TCPU_WEIGHTS_INT4},
                                           Case{"tiny_wide_vocab", TCPU_WEIGHTS_INT4}),
                         CheckpointCaseName);

bool DetailHas(const char* text) {
  return std::string(tcpu_last_error_detail()).find(text) != std::string::npos;
}

TEST(StepBatchApiTest, RefusesBadBatchesChangingNothing) {
  tcpu_decoder* base = nullptr;
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama3", 8, &base), TCPU_OK);
  tcpu_decoder* sibling = nullptr;
  ASSERT_EQ(tcpu_decoder_open_sibling(base, 2, &sibling), TCPU_OK);
  tcpu_decoder* stranger = nullptr;  // the same files, but another loaded model
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama3", 8, &stranger), TCPU_OK);
  int32_t next[3] = {0, 0, 0};
  const int32_t tokens[3] = {1, 2, 3};

  tcpu_decoder* pair[2] = {base, sibling};
  EXPECT_EQ(tcpu_decoder_step_batch(nullptr, 2, tokens, nullptr, next), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_step_batch(pair, 2, nullptr, nullptr, next), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_step_batch(pair, 2, tokens, nullptr, nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_step_batch(pair, 0, tokens, nullptr, next), TCPU_ERR_INVALID_SIZE);
  tcpu_decoder* with_null[2] = {base, nullptr};
  EXPECT_EQ(tcpu_decoder_step_batch(with_null, 2, tokens, nullptr, next), TCPU_ERR_NULL_POINTER);
  EXPECT_TRUE(DetailHas("decoders[1] is NULL")) << tcpu_last_error_detail();
  tcpu_decoder* twice[3] = {base, sibling, base};
  EXPECT_EQ(tcpu_decoder_step_batch(twice, 3, tokens, nullptr, next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("decoders[2] is decoders[0] again")) << tcpu_last_error_detail();
  tcpu_decoder* mixed[2] = {base, stranger};
  EXPECT_EQ(tcpu_decoder_step_batch(mixed, 2, tokens, nullptr, next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("decoders[1] runs another model")) << tcpu_last_error_detail();
  const int32_t outside[2] = {1, 256};
  EXPECT_EQ(tcpu_decoder_step_batch(pair, 2, outside, nullptr, next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("tokens[1] = 256 is outside the vocabulary")) << tcpu_last_error_detail();
  // The sibling's cache holds 2 tokens: fill it, then the batch is refused.
  ASSERT_EQ(tcpu_decoder_prefill(sibling, tokens, 2, nullptr, next), TCPU_OK);
  EXPECT_EQ(tcpu_decoder_step_batch(pair, 2, tokens, nullptr, next), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("the KV cache of decoders[1] is full (2 tokens)"))
      << tcpu_last_error_detail();

  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(base, &info), TCPU_OK);
  EXPECT_EQ(info.position, 0) << "a refused batch changes nothing";
  ASSERT_EQ(tcpu_decoder_get_info(sibling, &info), TCPU_OK);
  EXPECT_EQ(info.position, 2);
  EXPECT_EQ(info.max_tokens, 2);
  ASSERT_EQ(tcpu_decoder_reset(sibling), TCPU_OK);
  EXPECT_EQ(tcpu_decoder_step_batch(pair, 2, tokens, nullptr, next), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_get_info(base, &info), TCPU_OK);
  EXPECT_EQ(info.position, 1);
  tcpu_decoder_close(stranger);
  tcpu_decoder_close(sibling);
  tcpu_decoder_close(base);
}

TEST(StepBatchApiTest, OpenSiblingChecksItsArguments) {
  tcpu_decoder* base = nullptr;
  ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama3", 8, &base), TCPU_OK);
  tcpu_decoder* sibling = nullptr;
  EXPECT_EQ(tcpu_decoder_open_sibling(nullptr, 8, &sibling), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(sibling, nullptr);
  EXPECT_EQ(tcpu_decoder_open_sibling(base, 8, nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_decoder_open_sibling(base, 0, &sibling), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_decoder_open_sibling(base, int64_t{1} << 40, &sibling), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("exceeds the model's")) << tcpu_last_error_detail();
  EXPECT_EQ(sibling, nullptr);
  tcpu_decoder_close(base);
}

}  // namespace
