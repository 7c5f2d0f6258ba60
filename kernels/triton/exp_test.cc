// exp.ttir (math.exp and math.exp2 on 256-lane blocks) against the C library over the whole
// f32 range: the error of exp's polynomial tcpu-expand-math emits, in units in the last place
// (ulp), with NaN, infinities, overflow and underflow at the edges (exp2's error: math_test).
// Outputs are poisoned before the call, and nothing past n is written.
#include "kernels/triton/exp.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"

namespace {

constexpr int32_t kBlock = 256;
constexpr float kPoison = -12345.0f;
constexpr int32_t kGuard = 16;

// Distance in representable floats between two finite floats of the same sign, or 0 for two
// zeros.
int64_t UlpDistance(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  if (ia < 0) ia = std::numeric_limits<int32_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<int32_t>::min() - ib;
  return std::llabs(static_cast<int64_t>(ia) - ib);
}

struct Results {
  std::vector<float> exp, exp2;
};

Results RunKernel(const std::vector<float>& x) {
  const int32_t n = static_cast<int32_t>(x.size());
  Results r{std::vector<float>(n + kGuard, kPoison), std::vector<float>(n + kGuard, kPoison)};
  std::vector<float> input(x);
  input.resize(n + kGuard, 1.0f);
  EXPECT_EQ(tcpu_launch_exp_kernel(input.data(), r.exp.data(), r.exp2.data(), n,
                                   (n + kBlock - 1) / kBlock, 1, 1),
            TCPU_OK);
  for (int32_t i = n; i < n + kGuard; ++i) {
    EXPECT_EQ(r.exp[i], kPoison) << "wrote past the end at " << i;
    EXPECT_EQ(r.exp2[i], kPoison) << "wrote past the end at " << i;
  }
  return r;
}

TEST(TritonExpTest, ExpWithinThreeUlpOfTheCLibrary) {
  // Every 4099th float from 1e-30 to 88 and their negatives down to -87 (all exponents):
  // about 400k inputs.
  std::vector<float> x;
  int32_t first, last;
  const float low = 1e-30f, high = 88.0f;
  std::memcpy(&first, &low, sizeof first);
  std::memcpy(&last, &high, sizeof last);
  for (int32_t bits = first; bits < last; bits += 4099) {
    float v;
    std::memcpy(&v, &bits, sizeof v);
    x.push_back(v);
    if (v < 87.0f) x.push_back(-v);
  }
  Results r = RunKernel(x);
  int64_t worst = 0;
  size_t worst_i = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t ulp = UlpDistance(r.exp[i], std::exp(x[i]));
    if (ulp > worst) worst = ulp, worst_i = i;
  }
  EXPECT_LE(worst, 3) << "worst at x = " << x[worst_i] << ": " << r.exp[worst_i] << ", C library "
                      << std::exp(x[worst_i]);
}

TEST(TritonExpTest, EdgesOfTheRange) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.0f,   -0.0f,   1.0f,   -1.0f,
                                88.5f,  88.72f,  88.75f, 89.0f,
                                100.0f, inf,     -87.0f, -87.5f,
                                -90.0f, -200.0f, -inf,   std::numeric_limits<float>::quiet_NaN()};
  Results r = RunKernel(x);
  EXPECT_EQ(r.exp[0], 1.0f);
  EXPECT_EQ(r.exp[1], 1.0f);
  EXPECT_LE(UlpDistance(r.exp[2], std::exp(1.0f)), 3);
  EXPECT_LE(UlpDistance(r.exp[3], std::exp(-1.0f)), 3);
  // Near the top, r reaches 0.7 (k stops at 127): within 1e-5 of the C library.
  EXPECT_NEAR(r.exp[4] / std::exp(88.5f), 1.0f, 1e-5f);
  EXPECT_NEAR(r.exp[5] / std::exp(88.72f), 1.0f, 1e-5f);
  for (int i : {6, 7, 8, 9}) EXPECT_EQ(r.exp[i], inf) << "x = " << x[i];
  EXPECT_NEAR(r.exp[10] / std::exp(-87.0f), 1.0f, 1e-5f);
  // Below -87.3 the results are subnormal in the C library; the polynomial gives 0 or a
  // value below the smallest normal float.
  for (int i : {11, 12, 13, 14}) {
    EXPECT_GE(r.exp[i], 0.0f) << "x = " << x[i];
    EXPECT_LT(r.exp[i], std::numeric_limits<float>::min()) << "x = " << x[i];
  }
  EXPECT_EQ(r.exp[14], 0.0f);
  EXPECT_TRUE(std::isnan(r.exp[15]));
  EXPECT_TRUE(std::isnan(r.exp2[15]));
  EXPECT_EQ(r.exp2[0], 1.0f);
  EXPECT_EQ(r.exp2[9], inf);
  EXPECT_EQ(r.exp2[14], 0.0f);
}

}  // namespace
