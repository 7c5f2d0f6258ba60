// The greedy choice, one rule for every caller (the decode step, batched prefill, the
// sampler at temperature 0): the first index of the largest logit. A NaN logit is never
// chosen (a NaN compares false, so it cannot displace a number); when every logit is NaN the
// choice is index 0.
//
// It runs on the calling thread once per token over the whole vocabulary (130k logits at
// MiniCPM5-1B's shapes), so aarch64 scans four lanes at a time: each lane keeps the first index
// of its largest value, and the lanes' winners merge by value, then by the smaller index,
// which is the same rule. GreedyTokenScalar is the rule written out, and the tests' model.
#ifndef TCPU_RUNTIME_GREEDY_H_
#define TCPU_RUNTIME_GREEDY_H_

#include <cmath>
#include <cstdint>

#if defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace tcpu {

inline int32_t GreedyTokenScalar(const float* logits, int64_t n) {
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

inline int32_t GreedyToken(const float* logits, int64_t n) {
#if defined(__aarch64__)
  if (n >= 8 && n <= INT32_MAX) {
    const int64_t whole = n / 4 * 4;
    float32x4_t best = vdupq_n_f32(-INFINITY);
    uint32x4_t best_index = vdupq_n_u32(UINT32_MAX);  // UINT32_MAX: nothing found yet
    uint32x4_t index = {0, 1, 2, 3};
    const uint32x4_t step = vdupq_n_u32(4), none = vdupq_n_u32(UINT32_MAX);
    for (int64_t i = 0; i < whole; i += 4) {
      const float32x4_t v = vld1q_f32(logits + i);
      const uint32x4_t first = vandq_u32(vceqq_u32(best_index, none), vceqq_f32(v, v));
      const uint32x4_t take = vorrq_u32(vcgtq_f32(v, best), first);
      best = vbslq_f32(take, v, best);
      best_index = vbslq_u32(take, index, best_index);
      index = vaddq_u32(index, step);
    }
    float values[4];
    uint32_t indices[4];
    vst1q_f32(values, best);
    vst1q_u32(indices, best_index);
    int64_t winner = -1;
    float winner_value = -INFINITY;
    for (int lane = 0; lane < 4; ++lane) {
      if (indices[lane] == UINT32_MAX) continue;
      if (winner < 0 || values[lane] > winner_value ||
          (values[lane] == winner_value && indices[lane] < winner)) {
        winner = indices[lane];
        winner_value = values[lane];
      }
    }
    for (int64_t i = whole; i < n; ++i) {  // the tail comes after every lane's indices
      if (logits[i] > winner_value || (winner < 0 && !std::isnan(logits[i]))) {
        winner = i;
        winner_value = logits[i];
      }
    }
    return static_cast<int32_t>(winner < 0 ? 0 : winner);
  }
#endif
  return GreedyTokenScalar(logits, n);
}

}  // namespace tcpu

#endif  // TCPU_RUNTIME_GREEDY_H_
