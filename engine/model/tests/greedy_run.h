// The decoder tests' greedy run through the C ABI: open a model with room for the prompt and
// the new tokens, step through the prompt, then feed each greedy token back until `new_tokens`
// ids are out; every step's logits are kept. gtest expectations on every status.
#ifndef TCPU_ENGINE_MODEL_TESTS_GREEDY_RUN_H_
#define TCPU_ENGINE_MODEL_TESTS_GREEDY_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"

namespace tcpu::testing {

struct GreedyRun {
  std::vector<int32_t> ids;
  std::vector<float> logits;  // steps x vocab
};

// `weights` is a tcpu_weight_format. The decoder stays open in *open when that is not null
// (the caller closes it), else it is closed.
inline GreedyRun RunGreedy(const std::string& model, int32_t weights,
                           const std::vector<int32_t>& prompt, int new_tokens,
                           tcpu_decoder** open = nullptr) {
  GreedyRun out;
  tcpu_decoder* decoder = nullptr;
  tcpu_decoder_options options{};
  options.weights = weights;
  const int64_t max_tokens = static_cast<int64_t>(prompt.size()) + new_tokens;
  EXPECT_EQ(tcpu_decoder_open_with_options(model.c_str(), max_tokens, &options, &decoder), TCPU_OK)
      << model << ": " << tcpu_last_error_detail();
  if (decoder == nullptr) return out;
  tcpu_decoder_info info;
  EXPECT_EQ(tcpu_decoder_get_info(decoder, &info), TCPU_OK);
  std::vector<float> logits(static_cast<size_t>(info.vocab_size));
  int32_t next = -1;
  auto step = [&](int32_t token) {
    EXPECT_EQ(tcpu_decoder_step(decoder, token, logits.data(), &next), TCPU_OK)
        << tcpu_last_error_detail();
    out.logits.insert(out.logits.end(), logits.begin(), logits.end());
  };
  for (int32_t id : prompt) step(id);
  out.ids.push_back(next);
  while (static_cast<int>(out.ids.size()) < new_tokens) {
    step(out.ids.back());
    out.ids.push_back(next);
  }
  if (open != nullptr) {
    *open = decoder;
  } else {
    tcpu_decoder_close(decoder);
  }
  return out;
}

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_MODEL_TESTS_GREEDY_RUN_H_
