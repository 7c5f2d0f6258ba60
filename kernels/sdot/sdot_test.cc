// tcpu_sdot_i8x16: every variant the CPU supports against an int64 model reduced modulo 2^32,
// on random and extreme inputs, with aliasing, poisoned outputs and every bad argument.
#include "tcpu/sdot.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "kernels/sdot/sdot_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/status.h"

namespace {

using tcpu::sdot::SdotFn;
using tcpu::testing::kPoisonI32;

// Exact sum in int64, then wrapped to int32 as SDOT's 32-bit adder does.
void Model(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out) {
  for (int i = 0; i < 4; ++i) {
    int64_t sum = acc[i];
    for (int j = 0; j < 4; ++j) sum += int64_t{a[4 * i + j]} * b[4 * i + j];
    out[i] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
  }
}

std::vector<tcpu::KernelVariant<SdotFn>> SupportedVariants() {
  int count = 0;
  const tcpu::KernelVariant<SdotFn>* table = tcpu::sdot::SdotVariantTable(&count);
  std::vector<tcpu::KernelVariant<SdotFn>> out;
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) == table[i].required) out.push_back(table[i]);
  }
  return out;
}

// Runs `fn` (a variant, or the public entry point wrapped) on one case and checks all four
// lanes plus a poisoned guard element past the end.
void CheckCase(const char* name, SdotFn fn, const int32_t acc[4], const int8_t a[16],
               const int8_t b[16]) {
  int32_t expected[4];
  Model(acc, a, b, expected);
  int32_t out[5] = {kPoisonI32, kPoisonI32, kPoisonI32, kPoisonI32, kPoisonI32};
  fn(acc, a, b, out);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], expected[i]) << name << " lane " << i;
  EXPECT_EQ(out[4], kPoisonI32) << name << " wrote past the end";
  // In place: out aliases acc.
  int32_t inout[5] = {acc[0], acc[1], acc[2], acc[3], kPoisonI32};
  fn(inout, a, b, inout);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(inout[i], expected[i]) << name << " aliased lane " << i;
  EXPECT_EQ(inout[4], kPoisonI32) << name << " wrote past the end (aliased)";
}

void PublicEntry(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out) {
  ASSERT_EQ(tcpu_sdot_i8x16(acc, a, b, out), TCPU_OK) << tcpu_last_error_detail();
}

std::string ExpectedSdotVariant() {
  if (const char* forced = std::getenv("SDOT_TEST_EXPECT")) return forced;
  return tcpu::testing::ExpectedVariant({{"vl128", "sdot:dotprod"},
                                         {"vl256", "sdot:dotprod"},
                                         {"vl512", "sdot:dotprod"},
                                         {"vl1024", "sdot:dotprod"},
                                         {"vl2048", "sdot:dotprod"},
                                         {"nosve", "sdot:dotprod"},
                                         {"n1", "sdot:dotprod"},
                                         {"a64fx", "sdot:neon"},
                                         {"a53", "sdot:neon"}});
}

TEST(SdotTest, DispatchesToExpectedVariant) {
  std::cout << "[ variants ]";
  for (const auto& v : SupportedVariants()) std::cout << " " << v.name;
  std::cout << " public\n";
  const std::string expected = ExpectedSdotVariant();
  if (expected.empty()) {
#if defined(__x86_64__)
    EXPECT_STREQ(tcpu::SdotVariant(), "sdot:ref");
#else
    GTEST_SKIP() << "not run by the QEMU matrix; dispatches to " << tcpu::SdotVariant();
#endif
  } else {
    EXPECT_EQ(tcpu::SdotVariant(), expected);
  }
}

TEST(SdotTest, EveryVariantMatchesModelOnRandomInputs) {
  const auto variants = SupportedVariants();
  ASSERT_FALSE(variants.empty());
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int32_t> acc_dist(INT32_MIN, INT32_MAX);
  for (int iter = 0; iter < 2000; ++iter) {
    const std::vector<int8_t> a = tcpu::testing::RandomInt8(16, 100 + iter);
    const std::vector<int8_t> b = tcpu::testing::RandomInt8(16, 5000 + iter);
    const int32_t acc[4] = {acc_dist(rng), acc_dist(rng), acc_dist(rng), acc_dist(rng)};
    for (const auto& v : variants) CheckCase(v.name, v.fn, acc, a.data(), b.data());
    CheckCase("public", PublicEntry, acc, a.data(), b.data());
    if (HasFailure()) return;
  }
}

TEST(SdotTest, ExtremesWrapLikeSdot) {
  // 4 * (-128 * -128) = 65536 per lane: INT32_MAX + 65536 wraps to negative, and
  // INT32_MIN + 4 * (-128 * 127) wraps to positive.
  int8_t a[16], b_pos[16], b_neg[16];
  for (int i = 0; i < 16; ++i) {
    a[i] = -128;
    b_neg[i] = -128;
    b_pos[i] = 127;
  }
  const int32_t acc_max[4] = {INT32_MAX, INT32_MAX - 65535, INT32_MAX - 65536, 0};
  const int32_t acc_min[4] = {INT32_MIN, INT32_MIN + 65024, INT32_MIN + 65023, -1};
  for (const auto& v : SupportedVariants()) {
    CheckCase(v.name, v.fn, acc_max, a, b_neg);
    CheckCase(v.name, v.fn, acc_min, a, b_pos);
  }
  CheckCase("public", PublicEntry, acc_max, a, b_neg);
  CheckCase("public", PublicEntry, acc_min, a, b_pos);
  int32_t out[4];
  ASSERT_EQ(tcpu_sdot_i8x16(acc_max, a, b_neg, out), TCPU_OK);
  EXPECT_EQ(out[0], static_cast<int32_t>(0x8000ffffu));  // INT32_MAX + 65536, wrapped.
  EXPECT_EQ(out[3], 65536);
}

TEST(SdotTest, LanesAreIndependent) {
  // One non-zero product per case, so a lane mix-up cannot cancel out.
  const int32_t acc[4] = {0, 0, 0, 0};
  for (int pos = 0; pos < 16; ++pos) {
    int8_t a[16] = {}, b[16] = {};
    a[pos] = static_cast<int8_t>(pos + 1);
    b[pos] = -3;
    for (const auto& v : SupportedVariants()) CheckCase(v.name, v.fn, acc, a, b);
  }
}

class SdotBadArgumentTest : public ::testing::Test {
 protected:
  const int32_t acc_[4] = {1, 2, 3, 4};
  const int8_t a_[16] = {};
  const int8_t b_[16] = {};
  int32_t out_[4] = {kPoisonI32, kPoisonI32, kPoisonI32, kPoisonI32};

  void ExpectFails(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out,
                   const char* detail) {
    EXPECT_EQ(tcpu_sdot_i8x16(acc, a, b, out), TCPU_ERR_NULL_POINTER);
    EXPECT_STREQ(tcpu_last_error_detail(), detail);
    for (int32_t v : out_) EXPECT_EQ(v, kPoisonI32);
  }
};

TEST_F(SdotBadArgumentTest, NullAcc) {
  ExpectFails(nullptr, a_, b_, out_, "tcpu_sdot_i8x16: acc is NULL");
}

TEST_F(SdotBadArgumentTest, NullA) {
  ExpectFails(acc_, nullptr, b_, out_, "tcpu_sdot_i8x16: a is NULL");
}

TEST_F(SdotBadArgumentTest, NullB) {
  ExpectFails(acc_, a_, nullptr, out_, "tcpu_sdot_i8x16: b is NULL");
}

TEST_F(SdotBadArgumentTest, NullOut) {
  ExpectFails(acc_, a_, b_, nullptr, "tcpu_sdot_i8x16: out is NULL");
}

TEST_F(SdotBadArgumentTest, SuccessClearsTheDetail) {
  ExpectFails(nullptr, a_, b_, out_, "tcpu_sdot_i8x16: acc is NULL");
  EXPECT_EQ(tcpu_sdot_i8x16(acc_, a_, b_, out_), TCPU_OK);
  EXPECT_STREQ(tcpu_last_error_detail(), "");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out_[i], acc_[i]);
}

}  // namespace
