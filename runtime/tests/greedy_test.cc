// GreedyToken (the vector scan on aarch64) against GreedyTokenScalar, the rule written out:
// ties, NaNs, infinities, all-NaN rows and every tail length.
#include "runtime/greedy.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tcpu {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(GreedyTest, MatchesTheRuleOnRandomRows) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> few(-3, 3), kind(0, 19);
  for (int64_t n = 0; n <= 70; ++n) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<float> logits(n);
      for (float& v : logits) {  // few distinct values: ties everywhere
        const int k = kind(rng);
        v = k == 0 ? kNaN : k == 1 ? -INFINITY : k == 2 ? INFINITY : static_cast<float>(few(rng));
      }
      ASSERT_EQ(GreedyToken(logits.data(), n), GreedyTokenScalar(logits.data(), n))
          << "n = " << n << ", trial " << trial;
    }
  }
}

TEST(GreedyTest, FirstIndexOfTheLargest) {
  std::vector<float> logits(131, 0.0f);
  logits[77] = 2.0f;
  logits[5] = 2.0f;  // same value, earlier: in another lane than 77
  logits[130] = 2.0f;
  EXPECT_EQ(GreedyToken(logits.data(), 131), 5);
  logits[130] = 3.0f;  // in the tail
  EXPECT_EQ(GreedyToken(logits.data(), 131), 130);
}

TEST(GreedyTest, NaNNeverWinsAndAllNaNIsZero) {
  std::vector<float> logits(64, kNaN);
  EXPECT_EQ(GreedyToken(logits.data(), 64), 0);
  logits[41] = -INFINITY;  // a number, however small, beats NaN
  EXPECT_EQ(GreedyToken(logits.data(), 64), 41);
  logits[3] = -INFINITY;
  EXPECT_EQ(GreedyToken(logits.data(), 64), 3);
  logits[63] = -1e30f;
  EXPECT_EQ(GreedyToken(logits.data(), 64), 63);
}

}  // namespace
}  // namespace tcpu
