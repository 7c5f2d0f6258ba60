// tcpu_rms_norm_bf16: every variant the CPU supports (and the dispatched entry point) within
// 1 bf16 ulp of a float64 reference over sizes with every kind of tail, in place and not,
// with extreme magnitudes that take the float64 fallback, and every bad argument.
#include "tcpu/rms_norm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/rms_norm/rms_norm_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"

namespace {

using tcpu::rms_norm::RmsNormKernel;
using tcpu::testing::Bf16UlpError;
using tcpu::testing::kPoisonBf16;
using tcpu::testing::RandomBf16;

constexpr double kMaxUlp = 1.0;  // The contract of tcpu/rms_norm.h.
constexpr float kEps = 1e-6f;

// A way to run RMSNorm: one variant through RmsNormWith, or the public entry point.
struct Runner {
  std::string name;
  const RmsNormKernel* kernel;  // nullptr: tcpu_rms_norm_bf16
  void Run(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float eps) const {
    if (kernel == nullptr) {
      ASSERT_EQ(tcpu_rms_norm_bf16(x, w, out, d, eps), TCPU_OK) << tcpu_last_error_detail();
    } else {
      tcpu::rms_norm::RmsNormWith(*kernel, x, w, out, d, eps);
    }
  }
};

std::vector<Runner> Runners() {
  std::vector<Runner> runners;
  int count = 0;
  const auto* table = tcpu::rms_norm::RmsNormVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) == table[i].required) {
      runners.push_back({table[i].name, table[i].fn});
    }
  }
  runners.push_back({"public", nullptr});
  return runners;
}

// x[i] / sqrt(mean(x^2) + eps) * w[i], all in float64 from the same bf16 inputs.
std::vector<double> Reference(const std::vector<uint16_t>& x, const std::vector<uint16_t>& w,
                              float eps) {
  double sum = 0.0;
  for (uint16_t v : x) sum += static_cast<double>(tcpu_bf16_to_f32(v)) * tcpu_bf16_to_f32(v);
  const double inv = 1.0 / std::sqrt(sum / static_cast<double>(x.size()) + eps);
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    out[i] = static_cast<double>(tcpu_bf16_to_f32(x[i])) * inv * tcpu_bf16_to_f32(w[i]);
  }
  return out;
}

// Runs every runner out of place and in place; checks every element and the guard past the
// end. Returns the largest error seen, in ulps.
double CheckAll(const std::vector<uint16_t>& x, const std::vector<uint16_t>& w, float eps,
                const std::string& what) {
  const int64_t d = static_cast<int64_t>(x.size());
  const std::vector<double> expected = Reference(x, w, eps);
  double worst = 0.0;
  for (const Runner& runner : Runners()) {
    std::vector<uint16_t> out(d + 1, kPoisonBf16);
    runner.Run(x.data(), w.data(), out.data(), d, eps);
    std::vector<uint16_t> inplace(x);
    inplace.push_back(kPoisonBf16);
    runner.Run(inplace.data(), w.data(), inplace.data(), d, eps);
    for (const auto* result : {&out, &inplace}) {
      const char* mode = result == &out ? "out of place" : "in place";
      int reported = 0;
      for (int64_t i = 0; i < d; ++i) {
        const double err = Bf16UlpError((*result)[i], expected[i]);
        worst = std::max(worst, err);
        if (!(err <= kMaxUlp) && reported++ < 5) {
          ADD_FAILURE() << runner.name << " " << mode << " " << what << " d=" << d << " i=" << i
                        << ": got 0x" << std::hex << (*result)[i] << std::dec << " ("
                        << tcpu_bf16_to_f32((*result)[i]) << "), expected " << expected[i] << " ("
                        << err << " ulp)";
        }
      }
      EXPECT_EQ((*result)[d], kPoisonBf16) << runner.name << " " << mode << " wrote past d=" << d;
    }
  }
  return worst;
}

std::string ExpectedRmsNormVariant() {
  if (const char* forced = std::getenv("RMS_NORM_TEST_EXPECT")) return forced;
  return tcpu::testing::ExpectedVariant({{"vl128", "rms_norm_bf16:sve2"},
                                         {"vl256", "rms_norm_bf16:sve2"},
                                         {"vl512", "rms_norm_bf16:sve2"},
                                         {"vl1024", "rms_norm_bf16:sve2"},
                                         {"vl2048", "rms_norm_bf16:sve2"},
                                         {"*", "rms_norm_bf16:neon"}});
}

TEST(RmsNormTest, DispatchesToExpectedVariant) {
  std::cout << "[ variants ]";
  for (const Runner& r : Runners()) std::cout << " " << r.name;
  std::cout << "\n";
  const std::string expected = ExpectedRmsNormVariant();
  if (expected.empty()) {
#if defined(__x86_64__)
    EXPECT_STREQ(tcpu::RmsNormBf16Variant(), "rms_norm_bf16:ref");
#else
    GTEST_SKIP() << "not run by the QEMU matrix; dispatches to " << tcpu::RmsNormBf16Variant();
#endif
  } else {
    EXPECT_EQ(tcpu::RmsNormBf16Variant(), expected);
  }
}

TEST(RmsNormTest, TailsAndPrimes) {
  double worst = 0.0;
  for (int64_t d : {1,  2,  3,  4,  5,  7,   8,   9,   15,  16,  17,   31,   32,
                    33, 37, 63, 64, 65, 127, 128, 129, 255, 257, 1531, 1536, 2049}) {
    const auto x = RandomBf16(d, 11 + static_cast<uint32_t>(d));
    const auto w = RandomBf16(d, 7000 + static_cast<uint32_t>(d), 0.5f);
    worst = std::max(worst, CheckAll(x, w, kEps, "tails"));
  }
  std::cout << "max error " << worst << " ulp\n";
}

TEST(RmsNormTest, RandomSizes) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int64_t> size(1, 3000);
  for (int iter = 0; iter < 12; ++iter) {
    const int64_t d = size(rng);
    const auto x = RandomBf16(d, 100 + iter, 3.0f);
    const auto w = RandomBf16(d, 200 + iter, 1.0f);
    CheckAll(x, w, 1e-5f, "random size");
  }
}

TEST(RmsNormTest, LargeD) {
  const int64_t d = 70001;  // Over 2^16, odd.
  CheckAll(RandomBf16(d, 5), RandomBf16(d, 6, 2.0f), kEps, "large");
}

TEST(RmsNormTest, EpsDominatesSmallInputs) {
  const auto x = RandomBf16(301, 8, 1e-4f);
  const auto w = RandomBf16(301, 9);
  CheckAll(x, w, 1e-2f, "eps dominates");
  CheckAll(x, w, 1e30f, "huge eps");
}

TEST(RmsNormTest, HugeValuesUseTheFloat64Path) {
  // Squares of 1e25 overflow fp32; the float64 fallback must still be within 1 ulp.
  CheckAll(RandomBf16(173, 10, 1e25f), RandomBf16(173, 11), kEps, "huge");
  auto x = RandomBf16(100, 12);
  x[37] = tcpu_f32_to_bf16(3.0e38f);  // Near the bf16 maximum, with ordinary neighbours.
  CheckAll(x, RandomBf16(100, 13), kEps, "one huge");
}

TEST(RmsNormTest, TinyValuesUseTheFloat64Path) {
  // Squares of 1e-30 underflow fp32 (and some inputs are bf16 subnormals).
  CheckAll(RandomBf16(211, 14, 1e-30f), RandomBf16(211, 15), 1e-45f, "tiny");
  std::vector<uint16_t> sub(67);
  for (size_t i = 0; i < sub.size(); ++i) sub[i] = static_cast<uint16_t>((i * 37) % 128);
  CheckAll(sub, RandomBf16(67, 16), 1e-45f, "subnormal");
}

TEST(RmsNormTest, ZeroInputGivesZero) {
  const std::vector<uint16_t> zeros(45, 0);
  CheckAll(zeros, RandomBf16(45, 17), kEps, "zeros");
}

TEST(RmsNormTest, NanAndInfPropagateLikeTheReference) {
  auto x = RandomBf16(50, 18);
  x[20] = 0x7fc0;  // NaN: every output is NaN.
  CheckAll(x, RandomBf16(50, 19), kEps, "nan");
  x[20] = 0xff80;  // -Inf: inv = 0, so finite inputs give 0 and the Inf gives NaN.
  CheckAll(x, RandomBf16(50, 19), kEps, "inf");
  auto w = RandomBf16(50, 20);
  w[3] = 0x7f80;  // Inf weight: only that output is Inf (or NaN when x[3] is 0).
  CheckAll(RandomBf16(50, 21), w, kEps, "inf weight");
}

class RmsNormBadArgumentTest : public ::testing::Test {
 protected:
  std::vector<uint16_t> x_ = RandomBf16(8, 1);
  std::vector<uint16_t> w_ = RandomBf16(8, 2);
  std::vector<uint16_t> out_ = std::vector<uint16_t>(8, kPoisonBf16);

  void ExpectFails(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float eps,
                   int status, const char* detail) {
    EXPECT_EQ(tcpu_rms_norm_bf16(x, w, out, d, eps), status);
    EXPECT_STREQ(tcpu_last_error_detail(), detail);
    for (uint16_t v : out_) EXPECT_EQ(v, kPoisonBf16);
  }
};

TEST_F(RmsNormBadArgumentTest, NullX) {
  ExpectFails(nullptr, w_.data(), out_.data(), 8, kEps, TCPU_ERR_NULL_POINTER,
              "tcpu_rms_norm_bf16: x is NULL");
}

TEST_F(RmsNormBadArgumentTest, NullW) {
  ExpectFails(x_.data(), nullptr, out_.data(), 8, kEps, TCPU_ERR_NULL_POINTER,
              "tcpu_rms_norm_bf16: w is NULL");
}

TEST_F(RmsNormBadArgumentTest, NullOut) {
  ExpectFails(x_.data(), w_.data(), nullptr, 8, kEps, TCPU_ERR_NULL_POINTER,
              "tcpu_rms_norm_bf16: out is NULL");
}

TEST_F(RmsNormBadArgumentTest, ZeroD) {
  ExpectFails(x_.data(), w_.data(), out_.data(), 0, kEps, TCPU_ERR_INVALID_SIZE,
              "tcpu_rms_norm_bf16: d = 0, expected > 0");
}

TEST_F(RmsNormBadArgumentTest, NegativeD) {
  ExpectFails(x_.data(), w_.data(), out_.data(), -3, kEps, TCPU_ERR_INVALID_SIZE,
              "tcpu_rms_norm_bf16: d = -3, expected > 0");
}

TEST_F(RmsNormBadArgumentTest, DBytesOverflow) {
  ExpectFails(x_.data(), w_.data(), out_.data(), std::numeric_limits<int64_t>::max(), kEps,
              TCPU_ERR_SIZE_OVERFLOW,
              "tcpu_rms_norm_bf16: d * static_cast<int64_t>(sizeof(uint16_t)) = "
              "9223372036854775807 * 2 overflows int64");
}

TEST_F(RmsNormBadArgumentTest, ZeroEps) {
  ExpectFails(x_.data(), w_.data(), out_.data(), 8, 0.0f, TCPU_ERR_INVALID_ARGUMENT,
              "tcpu_rms_norm_bf16: eps = 0, expected > 0 and finite");
}

TEST_F(RmsNormBadArgumentTest, NegativeEps) {
  ExpectFails(x_.data(), w_.data(), out_.data(), 8, -1e-6f, TCPU_ERR_INVALID_ARGUMENT,
              "tcpu_rms_norm_bf16: eps = -1e-06, expected > 0 and finite");
}

TEST_F(RmsNormBadArgumentTest, NanEps) {
  ExpectFails(x_.data(), w_.data(), out_.data(), 8, std::numeric_limits<float>::quiet_NaN(),
              TCPU_ERR_INVALID_ARGUMENT, "tcpu_rms_norm_bf16: eps = nan, expected > 0 and finite");
}

TEST_F(RmsNormBadArgumentTest, InfEps) {
  ExpectFails(x_.data(), w_.data(), out_.data(), 8, std::numeric_limits<float>::infinity(),
              TCPU_ERR_INVALID_ARGUMENT, "tcpu_rms_norm_bf16: eps = inf, expected > 0 and finite");
}

}  // namespace
