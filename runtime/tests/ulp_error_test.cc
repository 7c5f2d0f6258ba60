// The ulp errors of the kernel tests' shared helpers (runtime/testing/kernel_test_util.h):
// F32UlpError and Bf16UlpError measure an error in ulps of the exact value's magnitude, so a
// correctly rounded result is within 0.5 and a neighbour about 1.
#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"

namespace {

using tcpu::testing::Bf16UlpError;
using tcpu::testing::F32UlpError;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(UlpErrorTest, F32InUlpsOfTheExactValue) {
  EXPECT_EQ(F32UlpError(1.0f, 1.0), 0.0);
  // One float above 1 is 2^-23 away: one ulp of [1, 2).
  EXPECT_DOUBLE_EQ(F32UlpError(std::nextafter(1.0f, 2.0f), 1.0), 1.0);
  // Just below 1 the ulp is 2^-24: one float below 1 is one ulp of [0.5, 1) from 1 - 2^-25.
  EXPECT_DOUBLE_EQ(F32UlpError(std::nextafter(1.0f, 0.0f), 1.0 - 0x1p-25), 0.5);
  // Halfway between two floats: a correctly rounded result is 0.5 away.
  EXPECT_DOUBLE_EQ(F32UlpError(3.0f, 3.0 + 0x1p-23), 0.5);
  EXPECT_DOUBLE_EQ(F32UlpError(-3.0f, -3.0 - 0x1p-22), 1.0);
  // Subnormals: the ulp is 2^-149 at every magnitude below 2^-126.
  EXPECT_DOUBLE_EQ(F32UlpError(0x1p-149f, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(F32UlpError(0x1p-140f, 0x1p-140 + 0x1p-148), 2.0);
}

TEST(UlpErrorTest, F32SpecialValues) {
  EXPECT_EQ(F32UlpError(kNaN, std::nan("")), 0.0);
  EXPECT_EQ(F32UlpError(kNaN, 1.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(F32UlpError(1.0f, std::nan("")), std::numeric_limits<double>::infinity());
  EXPECT_EQ(F32UlpError(kInf, static_cast<double>(kInf)), 0.0);
  EXPECT_EQ(F32UlpError(-kInf, static_cast<double>(kInf)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(F32UlpError(std::numeric_limits<float>::max(), static_cast<double>(kInf)),
            std::numeric_limits<double>::infinity());
}

TEST(UlpErrorTest, Bf16InUlpsOfTheExactValue) {
  EXPECT_EQ(Bf16UlpError(tcpu_f32_to_bf16(1.0f), 1.0), 0.0);
  // bf16 keeps 8 significant bits: its ulp in [1, 2) is 2^-7.
  EXPECT_DOUBLE_EQ(Bf16UlpError(tcpu_f32_to_bf16(1.0f + 0x1p-7f), 1.0), 1.0);
  EXPECT_EQ(Bf16UlpError(tcpu_f32_to_bf16(kNaN), std::nan("")), 0.0);
}

}  // namespace
