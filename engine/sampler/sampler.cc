// tcpu/sampler.h: the sampling pipeline over one step's logits, in a workspace sized once.
#include "tcpu/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <random>
#include <vector>

#include "runtime/check.h"
#include "runtime/greedy.h"

struct tcpu_sampler {
  tcpu_sampler_params params;
  int64_t vocab_size;
  std::mt19937_64 rng;
  std::vector<float> scores;        // penalized, temperature-scaled logits
  std::vector<int32_t> candidates;  // ids still in the running, most likely first once sorted
  std::vector<float> probs;         // probabilities of `candidates`, same order
  std::vector<uint8_t> seen;        // history membership, so each id is penalized once
};

namespace {

constexpr char kCreate[] = "tcpu_sampler_create";
constexpr char kSample[] = "tcpu_sampler_sample";

int CheckParams(const tcpu_sampler_params& p) {
  if (!(p.temperature >= 0.0f) || !std::isfinite(p.temperature)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: temperature = %g, expected finite >= 0",
                      kCreate, p.temperature);
  }
  if (p.top_k < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: top_k = %d, expected >= 0 (0: off)", kCreate,
                      p.top_k);
  }
  if (!(p.top_p > 0.0f && p.top_p <= 1.0f)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: top_p = %g, expected in (0, 1]", kCreate,
                      p.top_p);
  }
  if (!(p.min_p >= 0.0f && p.min_p <= 1.0f)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: min_p = %g, expected in [0, 1]", kCreate,
                      p.min_p);
  }
  if (!(p.repetition_penalty > 0.0f) || !std::isfinite(p.repetition_penalty)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: repetition_penalty = %g, expected finite > 0 (1: off)", kCreate,
                      p.repetition_penalty);
  }
  return TCPU_OK;
}

// A uniform double in [0, 1) from the top 53 bits: the same on every platform, unlike
// std::uniform_real_distribution whose algorithm the standard leaves open.
double Uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace

extern "C" void tcpu_sampler_default_params(tcpu_sampler_params* params) {
  if (params == nullptr) return;
  *params = tcpu_sampler_params{0.0f, 0, 1.0f, 0.0f, 1.0f, 0};
}

extern "C" int tcpu_sampler_create(const tcpu_sampler_params* params, int64_t vocab_size,
                                   tcpu_sampler** sampler) {
  TCPU_CHECK_NOT_NULL(kCreate, params);
  TCPU_CHECK_NOT_NULL(kCreate, sampler);
  TCPU_CHECK_POSITIVE(kCreate, vocab_size);
  *sampler = nullptr;
  if (vocab_size > INT32_MAX) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: vocab_size = %lld, expected < 2^31", kCreate,
                      static_cast<long long>(vocab_size));
  }
  if (int s = CheckParams(*params); s != TCPU_OK) return s;
  try {
    auto* made = new tcpu_sampler;
    made->params = *params;
    made->vocab_size = vocab_size;
    made->rng.seed(params->seed);
    made->scores.resize(vocab_size);
    made->candidates.resize(vocab_size);
    made->probs.resize(vocab_size);
    made->seen.assign(vocab_size, 0);
    *sampler = made;
  } catch (const std::bad_alloc&) {
    return tcpu::Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: no memory for a vocabulary of %lld", kCreate,
                      static_cast<long long>(vocab_size));
  }
  return tcpu::Succeed();
}

extern "C" void tcpu_sampler_destroy(tcpu_sampler* sampler) { delete sampler; }

extern "C" int tcpu_sampler_sample(tcpu_sampler* s, const float* logits, const int32_t* history,
                                   int64_t n_history, int32_t* token) {
  TCPU_CHECK_NOT_NULL(kSample, s);
  TCPU_CHECK_NOT_NULL(kSample, logits);
  TCPU_CHECK_NOT_NULL(kSample, token);
  if (n_history < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: n_history = %lld, expected >= 0", kSample,
                      static_cast<long long>(n_history));
  }
  if (n_history > 0) TCPU_CHECK_NOT_NULL(kSample, history);
  const int64_t n = s->vocab_size;
  const tcpu_sampler_params& p = s->params;
  // A NaN logit is never chosen (runtime/greedy.h's rule): it scores -infinity.
  for (int64_t i = 0; i < n; ++i) s->scores[i] = std::isnan(logits[i]) ? -INFINITY : logits[i];
  for (int64_t i = 0; i < n_history; ++i) {
    if (history[i] < 0 || history[i] >= n) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: history[%lld] = %d is outside the vocabulary [0, %lld)", kSample,
                        static_cast<long long>(i), history[i], static_cast<long long>(n));
    }
  }
  if (p.repetition_penalty != 1.0f) {
    for (int64_t i = 0; i < n_history; ++i) {
      const int32_t id = history[i];
      if (s->seen[id]) continue;
      s->seen[id] = 1;
      float& score = s->scores[id];
      score = score < 0 ? score * p.repetition_penalty : score / p.repetition_penalty;
    }
    for (int64_t i = 0; i < n_history; ++i) s->seen[history[i]] = 0;
  }

  if (p.temperature == 0.0f) {
    *token = tcpu::GreedyToken(s->scores.data(), n);
    return tcpu::Succeed();
  }

  // Candidates most likely first; with top-k only the k best need ordering. Ties keep the
  // lower id first, so the order (and the sample) does not depend on the sort algorithm.
  int64_t kept = n;
  for (int64_t i = 0; i < n; ++i) s->candidates[i] = static_cast<int32_t>(i);
  const auto more_likely = [&](int32_t a, int32_t b) {
    return s->scores[a] != s->scores[b] ? s->scores[a] > s->scores[b] : a < b;
  };
  if (p.top_k > 0 && p.top_k < n) {
    kept = p.top_k;
    std::partial_sort(s->candidates.begin(), s->candidates.begin() + kept, s->candidates.end(),
                      more_likely);
  } else {
    std::sort(s->candidates.begin(), s->candidates.end(), more_likely);
  }

  // Softmax of score / temperature over the kept candidates, in double for the sums.
  const double inv_t = 1.0 / p.temperature;
  const double top = s->scores[s->candidates[0]] * inv_t;
  if (std::isinf(top) && top < 0) {  // nothing to draw from: the greedy rule's choice
    *token = tcpu::GreedyToken(s->scores.data(), n);
    return tcpu::Succeed();
  }
  double total = 0;
  for (int64_t i = 0; i < kept; ++i) {
    const double e = std::exp(s->scores[s->candidates[i]] * inv_t - top);
    s->probs[i] = static_cast<float>(e);
    total += e;
  }
  if (p.top_p < 1.0f) {
    // Keep the fewest candidates whose probability reaches top_p (at least one).
    double mass = 0;
    int64_t i = 0;
    while (i < kept) {
      mass += s->probs[i] / total;
      ++i;
      if (mass >= p.top_p) break;
    }
    kept = i;
  }
  if (p.min_p > 0.0f) {
    // probs[0] is the most likely one's; drop those below min_p times it.
    const float floor = p.min_p * s->probs[0];
    int64_t i = 1;
    while (i < kept && s->probs[i] >= floor) ++i;
    kept = i;
  }
  double kept_mass = 0;
  for (int64_t i = 0; i < kept; ++i) kept_mass += s->probs[i];
  double target = Uniform(s->rng) * kept_mass;
  for (int64_t i = 0; i < kept; ++i) {
    target -= s->probs[i];
    if (target < 0 || i + 1 == kept) {
      *token = s->candidates[i];
      break;
    }
  }
  return tcpu::Succeed();
}
