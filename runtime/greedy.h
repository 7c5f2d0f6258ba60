// The greedy choice, one rule for every caller (the decode step, batched prefill, the
// sampler at temperature 0): the first index of the largest logit. A NaN logit is never
// chosen (a NaN compares false, so it cannot displace a number); when every logit is NaN the
// choice is index 0.
#ifndef TCPU_RUNTIME_GREEDY_H_
#define TCPU_RUNTIME_GREEDY_H_

#include <cmath>
#include <cstdint>

namespace tcpu {

inline int32_t GreedyToken(const float* logits, int64_t n) {
  int64_t best = 0;
  float best_value = -INFINITY;
  bool found = false;
  for (int64_t i = 0; i < n; ++i) {
    if (logits[i] > best_value || (!found && !std::isnan(logits[i]))) {
      best = i;
      best_value = logits[i];
      found = true;
    }
  }
  return static_cast<int32_t>(best);
}

}  // namespace tcpu

#endif  // TCPU_RUNTIME_GREEDY_H_
