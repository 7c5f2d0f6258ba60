// The sampler's distributions, checked by drawing many tokens with fixed seeds and comparing
// the frequencies with the probabilities each setting should give (within 5 standard
// deviations), plus greedy, determinism and the parameter errors.
#include "tcpu/sampler.h"

#include <cmath>
#include <cstdint>
#include <iterator>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"

namespace {

constexpr int kDraws = 20000;

tcpu_sampler* Make(const tcpu_sampler_params& params, int64_t vocab) {
  tcpu_sampler* sampler = nullptr;
  EXPECT_EQ(tcpu_sampler_create(&params, vocab, &sampler), TCPU_OK) << tcpu_last_error_detail();
  return sampler;
}

tcpu_sampler_params Sampling(float temperature, uint64_t seed) {
  tcpu_sampler_params params;
  tcpu_sampler_default_params(&params);
  params.temperature = temperature;
  params.seed = seed;
  return params;
}

std::vector<double> Softmax(const std::vector<float>& logits, double temperature) {
  std::vector<double> p(logits.size());
  double total = 0;
  for (size_t i = 0; i < logits.size(); ++i) total += p[i] = std::exp(logits[i] / temperature);
  for (double& v : p) v /= total;
  return p;
}

// Draws kDraws tokens and checks each token's frequency against `expected`.
void ExpectDistribution(const tcpu_sampler_params& params, const std::vector<float>& logits,
                        const std::vector<double>& expected,
                        const std::vector<int32_t>& history = {}) {
  tcpu_sampler* sampler = Make(params, static_cast<int64_t>(logits.size()));
  ASSERT_NE(sampler, nullptr);
  std::vector<int> counts(logits.size(), 0);
  for (int i = 0; i < kDraws; ++i) {
    int32_t token = -1;
    ASSERT_EQ(tcpu_sampler_sample(sampler, logits.data(), history.data(),
                                  static_cast<int64_t>(history.size()), &token),
              TCPU_OK);
    ASSERT_GE(token, 0);
    ASSERT_LT(token, static_cast<int32_t>(logits.size()));
    ++counts[token];
  }
  for (size_t t = 0; t < logits.size(); ++t) {
    const double p = expected[t];
    if (p == 0) {
      EXPECT_EQ(counts[t], 0) << "token " << t << " should never be drawn";
      continue;
    }
    const double sigma = std::sqrt(kDraws * p * (1 - p));
    EXPECT_NEAR(counts[t], kDraws * p, 5 * sigma + 1) << "token " << t;
  }
  tcpu_sampler_destroy(sampler);
}

const std::vector<float> kLogits = {2.0f, 1.5f, 0.5f, -1.0f, 0.0f};

TEST(SamplerTest, GreedyIsArgmaxWithLowestIdOnTies) {
  tcpu_sampler_params params;
  tcpu_sampler_default_params(&params);
  tcpu_sampler* sampler = Make(params, 4);
  const float logits[] = {0.5f, 3.0f, 3.0f, -1.0f};
  int32_t token = -1;
  ASSERT_EQ(tcpu_sampler_sample(sampler, logits, nullptr, 0, &token), TCPU_OK);
  EXPECT_EQ(token, 1);
  tcpu_sampler_destroy(sampler);
}

// The decoder's rule: a NaN logit is never chosen, greedy or sampled; all NaN gives id 0.
TEST(SamplerTest, NanIsNeverChosen) {
  tcpu_sampler_params params;
  tcpu_sampler_default_params(&params);
  tcpu_sampler* greedy = Make(params, 4);
  const float logits[] = {NAN, -1.0f, NAN, -2.0f};
  int32_t token = -1;
  ASSERT_EQ(tcpu_sampler_sample(greedy, logits, nullptr, 0, &token), TCPU_OK);
  EXPECT_EQ(token, 1);
  const float all_nan[] = {NAN, NAN, NAN, NAN};
  ASSERT_EQ(tcpu_sampler_sample(greedy, all_nan, nullptr, 0, &token), TCPU_OK);
  EXPECT_EQ(token, 0);
  tcpu_sampler_destroy(greedy);
  const std::vector<float> with_nan(std::begin(logits), std::end(logits));
  const std::vector<double> expected = {0.0, std::exp(-1.0) / (std::exp(-1.0) + std::exp(-2.0)),
                                        0.0, std::exp(-2.0) / (std::exp(-1.0) + std::exp(-2.0))};
  ExpectDistribution(Sampling(1.0f, 7), with_nan, expected);
  tcpu_sampler* sampling = Make(Sampling(1.0f, 8), 4);
  ASSERT_EQ(tcpu_sampler_sample(sampling, all_nan, nullptr, 0, &token), TCPU_OK);
  EXPECT_EQ(token, 0);
  tcpu_sampler_destroy(sampling);
}

TEST(SamplerTest, TemperatureOneFollowsTheSoftmax) {
  ExpectDistribution(Sampling(1.0f, 1), kLogits, Softmax(kLogits, 1.0));
}

TEST(SamplerTest, TemperatureSharpensAndFlattens) {
  ExpectDistribution(Sampling(0.5f, 2), kLogits, Softmax(kLogits, 0.5));
  ExpectDistribution(Sampling(2.0f, 3), kLogits, Softmax(kLogits, 2.0));
}

TEST(SamplerTest, TopKKeepsTheKMostLikely) {
  tcpu_sampler_params params = Sampling(1.0f, 4);
  params.top_k = 2;
  const std::vector<float> top2 = {kLogits[0], kLogits[1]};
  std::vector<double> expected = Softmax(top2, 1.0);
  expected.resize(kLogits.size(), 0.0);
  ExpectDistribution(params, kLogits, expected);
}

TEST(SamplerTest, TopPKeepsTheSmallestSetReachingP) {
  // Probabilities 0.5, 0.3, 0.15, 0.05: top_p 0.75 keeps the first two (0.5 < 0.75 <= 0.8).
  const std::vector<float> logits = {std::log(0.5f), std::log(0.3f), std::log(0.15f),
                                     std::log(0.05f)};
  tcpu_sampler_params params = Sampling(1.0f, 5);
  params.top_p = 0.75f;
  ExpectDistribution(params, logits, {0.5 / 0.8, 0.3 / 0.8, 0, 0});
}

TEST(SamplerTest, MinPDropsTokensBelowAFractionOfTheBest) {
  // min_p 0.25 of the best 0.5 is 0.125: 0.15 stays, 0.05 goes.
  const std::vector<float> logits = {std::log(0.5f), std::log(0.3f), std::log(0.15f),
                                     std::log(0.05f)};
  tcpu_sampler_params params = Sampling(1.0f, 6);
  params.min_p = 0.25f;
  ExpectDistribution(params, logits, {0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95, 0});
}

TEST(SamplerTest, RepetitionPenaltyDividesPositiveAndMultipliesNegativeLogits) {
  tcpu_sampler_params params = Sampling(1.0f, 7);
  params.repetition_penalty = 2.0f;
  // Tokens 0 (logit 2) and 3 (logit -1) were seen, token 0 twice: penalized once each.
  std::vector<float> penalized = kLogits;
  penalized[0] = 1.0f;
  penalized[3] = -2.0f;
  ExpectDistribution(params, kLogits, Softmax(penalized, 1.0), {0, 3, 0});
}

TEST(SamplerTest, SameSeedSameTokensOtherSeedOtherTokens) {
  std::vector<float> logits(64);
  for (int i = 0; i < 64; ++i) logits[i] = std::sin(0.7f * i);
  const auto draw = [&](uint64_t seed) {
    tcpu_sampler* sampler = Make(Sampling(1.0f, seed), 64);
    std::vector<int32_t> tokens(100);
    for (int32_t& token : tokens) tcpu_sampler_sample(sampler, logits.data(), nullptr, 0, &token);
    tcpu_sampler_destroy(sampler);
    return tokens;
  };
  EXPECT_EQ(draw(42), draw(42));
  EXPECT_NE(draw(42), draw(43));
}

TEST(SamplerTest, BadParametersAndInputsAreRefused) {
  tcpu_sampler* sampler = nullptr;
  tcpu_sampler_params params = Sampling(-1.0f, 0);
  EXPECT_EQ(tcpu_sampler_create(&params, 8, &sampler), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("temperature = -1"), std::string::npos);
  params = Sampling(1.0f, 0);
  params.top_p = 0.0f;
  EXPECT_EQ(tcpu_sampler_create(&params, 8, &sampler), TCPU_ERR_INVALID_ARGUMENT);
  params = Sampling(1.0f, 0);
  params.min_p = 1.5f;
  EXPECT_EQ(tcpu_sampler_create(&params, 8, &sampler), TCPU_ERR_INVALID_ARGUMENT);
  params = Sampling(1.0f, 0);
  params.repetition_penalty = 0.0f;
  EXPECT_EQ(tcpu_sampler_create(&params, 8, &sampler), TCPU_ERR_INVALID_ARGUMENT);
  params = Sampling(1.0f, 0);
  params.top_k = -2;
  EXPECT_EQ(tcpu_sampler_create(&params, 8, &sampler), TCPU_ERR_INVALID_ARGUMENT);
  params = Sampling(1.0f, 0);
  EXPECT_EQ(tcpu_sampler_create(&params, 0, &sampler), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_sampler_create(nullptr, 8, &sampler), TCPU_ERR_NULL_POINTER);

  sampler = Make(params, 4);
  float logits[] = {0.0f, 0.0f, 1.0f, 2.0f};
  int32_t token = 0;
  const int32_t history[] = {1, 9};
  EXPECT_EQ(tcpu_sampler_sample(sampler, logits, history, 2, &token), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("history[1] = 9"), std::string::npos);
  tcpu_sampler_destroy(sampler);
}

}  // namespace
