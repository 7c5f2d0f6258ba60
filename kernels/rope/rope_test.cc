// tcpu_rope_bf16 against its documented formula, evaluated here in long double, plus the
// properties callers rely on (position 0 is the identity, norms are kept) and argument checks.
#include "tcpu/rope.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"

namespace {

using ::tcpu::testing::Bf16UlpError;
using ::tcpu::testing::RandomBf16;

TEST(RopeTest, MatchesTheFormulaAtManyPositionsAndShapes) {
  const int64_t head_dims[] = {2, 4, 6, 32, 64, 128, 256};
  const int64_t positions[] = {0, 1, 2, 7, 100, 4095, 32767, 1000000};
  const float thetas[] = {10000.0f, 1000000.0f, 500.0f};
  double worst = 0;
  for (int64_t d : head_dims) {
    for (int64_t p : positions) {
      for (float theta : thetas) {
        const int64_t heads = 3;
        const std::vector<uint16_t> x = RandomBf16(heads * d, static_cast<uint32_t>(d * 31 + p));
        std::vector<uint16_t> y = x;
        ASSERT_EQ(tcpu_rope_bf16(y.data(), heads, d, p, theta), TCPU_OK);
        // The angle of each pair, once for all heads: long double is software binary128 on
        // AArch64, so each pow, cos and sin costs QEMU thousands of instructions.
        std::vector<long double> cosines(d / 2), sines(d / 2);
        for (int64_t i = 0; i < d / 2; ++i) {
          const long double angle = p * std::pow(static_cast<long double>(theta), -2.0L * i / d);
          cosines[i] = std::cos(angle);
          sines[i] = std::sin(angle);
        }
        for (int64_t h = 0; h < heads; ++h) {
          for (int64_t i = 0; i < d / 2; ++i) {
            const long double c = cosines[i], s = sines[i];
            const long double a = tcpu_bf16_to_f32(x[h * d + i]);
            const long double b = tcpu_bf16_to_f32(x[h * d + i + d / 2]);
            const double e0 = static_cast<double>(a * c - b * s);
            const double e1 = static_cast<double>(b * c + a * s);
            // Rounding of c and s to fp32 and the final bf16 rounding: within 1 bf16 ulp
            // except where cancellation makes the exact value tiny.
            const double tol = 1.0 + 1e-6 * (std::fabs(static_cast<double>(a)) +
                                             std::fabs(static_cast<double>(b))) /
                                         (std::fabs(e0) + 1e-30) * 256;
            const double err0 = Bf16UlpError(y[h * d + i], e0);
            const double err1 = Bf16UlpError(y[h * d + i + d / 2], e1);
            ASSERT_LE(err0, tol) << "d " << d << " p " << p << " i " << i;
            const double tol1 = 1.0 + 1e-6 * (std::fabs(static_cast<double>(a)) +
                                              std::fabs(static_cast<double>(b))) /
                                          (std::fabs(e1) + 1e-30) * 256;
            ASSERT_LE(err1, tol1) << "d " << d << " p " << p << " i " << i;
            worst = std::max(worst, std::min(err0, err1));
          }
        }
      }
    }
  }
  EXPECT_LE(worst, 1.0);
}

TEST(RopeTest, PositionZeroIsTheIdentity) {
  std::vector<uint16_t> x = RandomBf16(4 * 64, 9);
  const std::vector<uint16_t> before = x;
  ASSERT_EQ(tcpu_rope_bf16(x.data(), 4, 64, 0, 10000.0f), TCPU_OK);
  EXPECT_EQ(x, before);
}

TEST(RopeTest, KeepsEachPairsNorm) {
  std::vector<uint16_t> x = RandomBf16(128, 10);
  const std::vector<uint16_t> before = x;
  ASSERT_EQ(tcpu_rope_bf16(x.data(), 1, 128, 12345, 10000.0f), TCPU_OK);
  for (int i = 0; i < 64; ++i) {
    const double r0 = std::hypot(tcpu_bf16_to_f32(before[i]), tcpu_bf16_to_f32(before[i + 64]));
    const double r1 = std::hypot(tcpu_bf16_to_f32(x[i]), tcpu_bf16_to_f32(x[i + 64]));
    EXPECT_NEAR(r1, r0, r0 * 1.0 / 128 + 1e-30) << i;
  }
}

TEST(RopeTest, RejectsBadArgumentsNamingThem) {
  std::vector<uint16_t> x(8);
  EXPECT_EQ(tcpu_rope_bf16(nullptr, 1, 8, 0, 1e4f), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), 0, 8, 0, 1e4f), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), 1, 7, 0, 1e4f), TCPU_ERR_INVALID_SIZE);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("head_dim = 7"), std::string::npos);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), 1, 8, -1, 1e4f), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("position = -1"), std::string::npos);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), 1, 8, 0, 0.0f), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), 1, 8, 0, INFINITY), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), 1, 8, 0, NAN), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("theta"), std::string::npos);
  EXPECT_EQ(tcpu_rope_bf16(x.data(), INT64_MAX / 4, 8, 0, 1e4f), TCPU_ERR_SIZE_OVERFLOW);
}

}  // namespace
