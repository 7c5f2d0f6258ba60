// Each instruction-set extension the variant offers computes the same values as scalar
// arithmetic; an extension the variant promises is never silently skipped.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/toolchain/cpu_probe.h"
#include "tests/toolchain/isa_kernels.h"

namespace tcpu::testing {
namespace {

// Decides whether a feature's kernel can run here. A feature the variant promises but
// the CPU lacks is a failure, not a skip.
#define REQUIRE_FEATURE(field)                                                   \
  do {                                                                           \
    std::string error;                                                           \
    const std::optional<CpuFeatures> expected = ExpectedCpu(&error);             \
    ASSERT_TRUE(error.empty()) << error;                                         \
    const bool present = ProbeCpu().field;                                       \
    if (expected && expected->field) {                                           \
      ASSERT_TRUE(present) << "variant " << VariantName() << " promises " #field \
                           << " but the CPU does not report it";                 \
    }                                                                            \
    if (!present) GTEST_SKIP() << #field " not available on this CPU";           \
  } while (0)

// Deterministic values in [-128, 127] covering the extremes.
int8_t TestByte(int i, int salt) {
  return static_cast<int8_t>(static_cast<uint8_t>((i * 37 + salt * 101 + 128) & 0xff));
}

uint16_t Bf16FromFloat(float f) {  // Exact for the small integers used here.
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

TEST(IsaTest, NeonMultiplyAdd) {
  const int32_t a[4] = {1, -2, 300000, -7};
  const int32_t b[4] = {5, 6, 7, -8};
  const int32_t c[4] = {10, 20, -30, 40};
  int32_t out[4];
  NeonMultiplyAdd(a, b, c, out);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], a[i] * b[i] + c[i]) << "lane " << i;
}

TEST(IsaTest, DotprodSdot) {
  REQUIRE_FEATURE(dotprod);
  int8_t a[16], b[16];
  for (int i = 0; i < 16; ++i) a[i] = TestByte(i, 1), b[i] = TestByte(i, 2);
  a[0] = -128, b[0] = -128;  // The extreme product.
  const int32_t acc[4] = {1, -1, 1000, -1000};
  int32_t out[4];
  DotprodSdot(acc, a, b, out);
  for (int i = 0; i < 4; ++i) {
    int32_t want = acc[i];
    for (int k = 0; k < 4; ++k) want += a[4 * i + k] * b[4 * i + k];
    EXPECT_EQ(out[i], want) << "lane " << i;
  }
}

TEST(IsaTest, I8mmSmmla) {
  REQUIRE_FEATURE(i8mm);
  int8_t a[16], b[16];
  for (int i = 0; i < 16; ++i) a[i] = TestByte(i, 3), b[i] = TestByte(i, 4);
  const int32_t acc[4] = {7, -7, 70000, -70000};
  int32_t out[4];
  I8mmSmmla(acc, a, b, out);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      int32_t want = acc[2 * r + c];
      for (int k = 0; k < 8; ++k) want += a[8 * r + k] * b[8 * c + k];
      EXPECT_EQ(out[2 * r + c], want) << "row " << r << " column " << c;
    }
  }
}

TEST(IsaTest, Bf16Dot) {
  REQUIRE_FEATURE(bf16);
  float af[8], bf[8];
  uint16_t a[8], b[8];
  for (int i = 0; i < 8; ++i) {
    af[i] = static_cast<float>(i - 3);
    bf[i] = static_cast<float>(2 * i + 1);
    a[i] = Bf16FromFloat(af[i]);
    b[i] = Bf16FromFloat(bf[i]);
  }
  const float acc[4] = {0.5f, -0.5f, 100.0f, -100.0f};
  float out[4];
  Bf16Dot(acc, a, b, out);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(out[i], acc[i] + af[2 * i] * bf[2 * i] + af[2 * i + 1] * bf[2 * i + 1])
        << "lane " << i;
  }
}

TEST(IsaTest, SveVectorLengthAndSum) {
  REQUIRE_FEATURE(sve);
  std::string error;
  const std::optional<CpuFeatures> expected = ExpectedCpu(&error);
  if (expected) {
    EXPECT_EQ(SveBytesPerVector() * 8, expected->sve_vl_bits)
        << "svcntb() disagrees with variant " << VariantName();
  }
  EXPECT_EQ(SveBytesPerVector() * 8, ProbeCpu().sve_vl_bits) << "svcntb() disagrees with prctl";
  // Lengths around every vector length from 128 to 2048 bits exercise the predicated tail.
  for (int64_t n : {0, 1, 2, 3, 5, 37, 64, 65, 129}) {
    std::vector<int32_t> x(n);
    int64_t want = 0;
    for (int64_t i = 0; i < n; ++i) {
      x[i] = static_cast<int32_t>((i % 2 ? -1 : 1) * (2000000000 - i * 12345));
      want += x[i];
    }
    EXPECT_EQ(SveSum(x.data(), n), want) << "n = " << n;
  }
}

TEST(IsaTest, Sve2RoundingHalvingAdd) {
  REQUIRE_FEATURE(sve2);
  EXPECT_EQ(Sve2BytesPerVector(), ProbeCpu().sve_vl_bits / 8);
  for (int64_t n : {1, 7, 37, 128, 131}) {
    std::vector<int16_t> a(n), b(n), out(n, 0);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = static_cast<int16_t>(i % 3 == 0 ? 32767 : -i * 251);
      b[i] = static_cast<int16_t>(i % 5 == 0 ? 32767 : i * 97 - 4000);
    }
    Sve2RoundingHalvingAdd(a.data(), b.data(), out.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      const int32_t want = (static_cast<int32_t>(a[i]) + b[i] + 1) >> 1;
      ASSERT_EQ(out[i], want) << "n = " << n << ", element " << i;
    }
  }
}

}  // namespace
}  // namespace tcpu::testing
