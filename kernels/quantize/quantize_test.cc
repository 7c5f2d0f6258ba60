// tcpu_quantize_weights_bf16: every variant the CPU supports (and the dispatched entry point)
// bit-identical to a scalar model of the FlagTree definition, over shapes with every kind of
// tail, with zero rows, exact ties, subnormals, on 1/2/4 threads, the Inf/NaN policy, and
// every bad argument.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/quantize/quantize_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/gemv.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

using tcpu::quantize::QuantizeKernel;
using tcpu::testing::RandomBf16;

constexpr int8_t kPoisonI8 = -128;  // Never written: outputs are clamped to [-127, 127].
constexpr uint32_t kPoisonScaleBits = 0x7fa5beefu;  // A NaN the kernel never writes.

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

float PoisonScale() {
  float f;
  std::memcpy(&f, &kPoisonScaleBits, sizeof(f));
  return f;
}

// The definition, written independently of the kernels: fp32 absmax, fp32 scale, fp32
// division, round half to even (by hand, not nearbyint), clamp.
void Model(const std::vector<uint16_t>& w, int64_t n, int64_t k, std::vector<int8_t>* q,
           std::vector<float>* scales) {
  q->assign(n * k, 0);
  scales->assign(n, 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    float absmax = 0.0f;
    for (int64_t j = 0; j < k; ++j)
      absmax = std::max(absmax, std::fabs(tcpu_bf16_to_f32(w[i * k + j])));
    if (absmax == 0.0f) {
      (*scales)[i] = 1.0f;
      continue;
    }
    const float scale = absmax / 127.0f;
    (*scales)[i] = scale;
    for (int64_t j = 0; j < k; ++j) {
      const float v = tcpu_bf16_to_f32(w[i * k + j]) / scale;
      float r = std::floor(v);
      const float frac = v - r;  // Exact for |v| < 2^23.
      if (frac > 0.5f || (frac == 0.5f && std::fmod(r, 2.0f) != 0.0f)) r += 1.0f;
      (*q)[i * k + j] = static_cast<int8_t>(std::min(127.0f, std::max(-127.0f, r)));
    }
  }
}

struct Runner {
  std::string name;
  const QuantizeKernel* kernel;  // nullptr: tcpu_quantize_weights_bf16
  int Run(const uint16_t* w, int64_t n, int64_t k, int8_t* q, float* scales) const {
    return kernel == nullptr ? tcpu_quantize_weights_bf16(w, n, k, q, scales)
                             : tcpu::quantize::QuantizeWith(*kernel, w, n, k, q, scales);
  }
};

std::vector<Runner> Runners() {
  std::vector<Runner> runners;
  int count = 0;
  const auto* table = tcpu::quantize::QuantizeVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) == table[i].required) {
      runners.push_back({table[i].name, table[i].fn});
    }
  }
  runners.push_back({"public", nullptr});
  return runners;
}

// Every runner bit-identical to the model's want_q and want_scales, nothing written past the
// outputs. Returns the public entry point's outputs.
std::vector<int8_t> CheckAll(const std::vector<uint16_t>& w, int64_t n, int64_t k,
                             const std::vector<int8_t>& want_q,
                             const std::vector<float>& want_scales, const std::string& what) {
  std::vector<int8_t> public_q;
  for (const Runner& runner : Runners()) {
    std::vector<int8_t> q(n * k + 1, kPoisonI8);
    std::vector<float> scales(n + 1, PoisonScale());
    const int status = runner.Run(w.data(), n, k, q.data(), scales.data());
    EXPECT_EQ(status, TCPU_OK) << runner.name << " " << what << ": " << tcpu_last_error_detail();
    int reported = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (Bits(scales[i]) != Bits(want_scales[i]) && reported++ < 5) {
        ADD_FAILURE() << runner.name << " " << what << " n=" << n << " k=" << k << " scale[" << i
                      << "] = " << scales[i] << ", expected " << want_scales[i];
      }
      for (int64_t j = 0; j < k; ++j) {
        if (q[i * k + j] != want_q[i * k + j] && reported++ < 5) {
          ADD_FAILURE() << runner.name << " " << what << " n=" << n << " k=" << k << " q[" << i
                        << "][" << j << "] = " << int{q[i * k + j]} << ", expected "
                        << int{want_q[i * k + j]} << " (w = " << tcpu_bf16_to_f32(w[i * k + j])
                        << ", scale " << want_scales[i] << ")";
        }
      }
    }
    EXPECT_EQ(q[n * k], kPoisonI8) << runner.name << " wrote past w_i8";
    EXPECT_EQ(Bits(scales[n]), kPoisonScaleBits) << runner.name << " wrote past scales";
    if (runner.kernel == nullptr) public_q = q;
  }
  return public_q;
}

std::vector<int8_t> CheckAll(const std::vector<uint16_t>& w, int64_t n, int64_t k,
                             const std::string& what) {
  std::vector<int8_t> want_q;
  std::vector<float> want_scales;
  Model(w, n, k, &want_q, &want_scales);
  return CheckAll(w, n, k, want_q, want_scales, what);
}

std::string ExpectedQuantizeVariant() {
  if (const char* forced = std::getenv("QUANTIZE_TEST_EXPECT")) return forced;
  return tcpu::testing::ExpectedVariant({{"vl128", "quantize_weights_bf16:sve2"},
                                         {"vl256", "quantize_weights_bf16:sve2"},
                                         {"vl512", "quantize_weights_bf16:sve2"},
                                         {"vl1024", "quantize_weights_bf16:sve2"},
                                         {"vl2048", "quantize_weights_bf16:sve2"},
                                         {"*", "quantize_weights_bf16:neon"}});
}

TEST(QuantizeTest, DispatchesToExpectedVariant) {
  std::cout << "[ variants ]";
  for (const Runner& r : Runners()) std::cout << " " << r.name;
  std::cout << "\n";
  const std::string expected = ExpectedQuantizeVariant();
  if (expected.empty()) {
#if defined(__x86_64__)
    EXPECT_STREQ(tcpu::QuantizeWeightsBf16Variant(), "quantize_weights_bf16:ref");
#else
    GTEST_SKIP() << "not run by the QEMU matrix; dispatches to "
                 << tcpu::QuantizeWeightsBf16Variant();
#endif
  } else {
    EXPECT_EQ(tcpu::QuantizeWeightsBf16Variant(), expected);
  }
}

TEST(QuantizeTest, TailsAndPrimes) {
  const int64_t shapes[][2] = {{1, 1},  {1, 2},   {2, 3},   {3, 7},    {1, 8},   {4, 9},   {5, 15},
                               {4, 16}, {7, 17},  {3, 31},  {2, 32},   {6, 33},  {37, 37}, {2, 63},
                               {3, 65}, {2, 129}, {3, 255}, {2, 1531}, {9, 1536}};
  for (const auto& shape : shapes) {
    const int64_t n = shape[0], k = shape[1];
    CheckAll(RandomBf16(n * k, static_cast<uint32_t>(n * 1000 + k), 0.05f), n, k, "tails");
  }
}

TEST(QuantizeTest, RandomShapes) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int64_t> rows(1, 40), cols(1, 700);
  for (int iter = 0; iter < 10; ++iter) {
    const int64_t n = rows(rng), k = cols(rng);
    CheckAll(RandomBf16(n * k, 70 + iter, 2.0f), n, k, "random shape");
  }
}

TEST(QuantizeTest, LargeK) {
  const int64_t n = 3, k = 65537;
  CheckAll(RandomBf16(n * k, 3, 0.02f), n, k, "large k");
}

TEST(QuantizeTest, ExactTiesRoundHalfToEven) {
  // absmax 127 gives scale exactly 1, so w / scale = w: the ties are exact.
  const float row[] = {127.0f, 2.5f, 3.5f, -2.5f, -0.5f, 0.5f, 1.5f, -1.5f, 126.5f, -126.5f};
  const int8_t expected[] = {127, 2, 4, -2, 0, 0, 2, -2, 126, -126};
  const int64_t k = sizeof(row) / sizeof(row[0]);
  std::vector<uint16_t> w;
  for (float v : row) w.push_back(tcpu_f32_to_bf16(v));
  const std::vector<int8_t> q = CheckAll(w, 1, k, "ties");
  ASSERT_GE(q.size(), static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) EXPECT_EQ(q[j], expected[j]) << "w = " << row[j];
}

TEST(QuantizeTest, ZeroRowsGetScaleOne) {
  const int64_t n = 4, k = 19;
  std::vector<uint16_t> w = RandomBf16(n * k, 8);
  for (int64_t j = 0; j < k; ++j) {
    w[1 * k + j] = 0x0000;
    w[3 * k + j] = j % 2 ? 0x8000 : 0x0000;  // -0 and +0.
  }
  const std::vector<int8_t> q = CheckAll(w, n, k, "zero rows");
  std::vector<float> scales(n);
  std::vector<int8_t> out(n * k);
  ASSERT_EQ(tcpu_quantize_weights_bf16(w.data(), n, k, out.data(), scales.data()), TCPU_OK);
  EXPECT_EQ(scales[1], 1.0f);
  EXPECT_EQ(scales[3], 1.0f);
  for (int64_t j = 0; j < k; ++j) EXPECT_EQ(out[1 * k + j], 0);
}

TEST(QuantizeTest, SubnormalAndHugeRows) {
  const int64_t k = 41;
  std::vector<uint16_t> w(3 * k);
  for (int64_t j = 0; j < k; ++j) {
    w[j] = static_cast<uint16_t>((j * 29) % 128 | (j % 3 == 0 ? 0x8000 : 0));  // Subnormals.
    w[k + j] = tcpu_f32_to_bf16((j % 2 ? 1.0f : -1.0f) * 3.0e38f / static_cast<float>(j + 1));
    w[2 * k + j] = tcpu_f32_to_bf16(1e-38f * static_cast<float>(j - 20));
  }
  CheckAll(w, 3, k, "subnormal and huge");
}

TEST(QuantizeTest, ThreadCountsGiveIdenticalResults) {
  const int64_t n = 173, k = 1531;  // 530 KB of weights: 4 tasks of >= 128 KB.
  const auto w = RandomBf16(n * k, 21, 0.03f);
  std::vector<int8_t> want_q;
  std::vector<float> want_scales;
  Model(w, n, k, &want_q, &want_scales);  // Once (QEMU time).
  const int initial_threads = tcpu_get_num_threads();
  ASSERT_GT(initial_threads, 0);
  std::vector<int8_t> first;
  for (int threads : tcpu::testing::kThreadCounts) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK) << tcpu_last_error_detail();
    const std::vector<int8_t> q =
        CheckAll(w, n, k, want_q, want_scales, "threads=" + std::to_string(threads));
    if (first.empty()) {
      first = q;
    } else {
      EXPECT_EQ(q, first) << threads << " threads";
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(initial_threads), TCPU_OK);
}

// Inf/NaN weights fail naming the first one; rows without any are still quantized, rows
// with one are left as they were.
TEST(QuantizeTest, NonFiniteWeightsAreRejectedByPosition) {
  const int64_t n = 40, k = 3001;  // 240 KB: rows 0-19 and 20-39 on two threads.
  std::vector<uint16_t> w = RandomBf16(n * k, 30);
  w[7 * k + 2] = 0x7fc1;     // NaN
  w[7 * k + 100] = 0x7f80;   // +Inf, later in the same row
  w[5 * k + 2999] = 0xff80;  // -Inf: row 5 is the first bad row
  w[31 * k + 0] = 0xffc0;    // -NaN
  const std::vector<int64_t> bad_rows = {5, 7, 31};
  std::vector<int8_t> want_q;
  std::vector<float> want_scales;
  Model(w, n, k, &want_q, &want_scales);
  const int initial_threads = tcpu_get_num_threads();
  for (int threads : tcpu::testing::kThreadCounts) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Runner& runner : Runners()) {
      std::vector<int8_t> q(n * k + 1, kPoisonI8);
      std::vector<float> scales(n + 1, PoisonScale());
      EXPECT_EQ(runner.Run(w.data(), n, k, q.data(), scales.data()), TCPU_ERR_INVALID_ARGUMENT)
          << runner.name;
      EXPECT_STREQ(tcpu_last_error_detail(),
                   "tcpu_quantize_weights_bf16: w[5][2999] = -inf (bf16 0xff80), expected finite")
          << runner.name << " threads=" << threads;
      for (int64_t i = 0; i < n; ++i) {
        const bool bad = std::find(bad_rows.begin(), bad_rows.end(), i) != bad_rows.end();
        EXPECT_EQ(Bits(scales[i]), bad ? kPoisonScaleBits : Bits(want_scales[i]))
            << runner.name << " row " << i;
        for (int64_t j = 0; j < k; ++j) {
          ASSERT_EQ(q[i * k + j], bad ? kPoisonI8 : want_q[i * k + j])
              << runner.name << " q[" << i << "][" << j << "]";
        }
      }
      EXPECT_EQ(q[n * k], kPoisonI8);
      EXPECT_EQ(Bits(scales[n]), kPoisonScaleBits);
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(initial_threads), TCPU_OK);

  std::vector<uint16_t> one_nan(10, tcpu_f32_to_bf16(1.0f));
  one_nan[6] = 0x7fc0;
  std::vector<int8_t> q(10);
  float scale;
  EXPECT_EQ(tcpu_quantize_weights_bf16(one_nan.data(), 1, 10, q.data(), &scale),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_quantize_weights_bf16: w[0][6] = nan (bf16 0x7fc0), expected finite");
}

class QuantizeBadArgumentTest : public ::testing::Test {
 protected:
  std::vector<uint16_t> w_ = RandomBf16(16, 1);
  std::vector<int8_t> q_ = std::vector<int8_t>(16, kPoisonI8);
  std::vector<float> scales_ = std::vector<float>(4, PoisonScale());

  void ExpectFails(const uint16_t* w, int64_t n, int64_t k, int8_t* q, float* scales, int status,
                   const char* detail) {
    EXPECT_EQ(tcpu_quantize_weights_bf16(w, n, k, q, scales), status);
    EXPECT_STREQ(tcpu_last_error_detail(), detail);
    for (int8_t v : q_) EXPECT_EQ(v, kPoisonI8);
    for (float s : scales_) EXPECT_EQ(Bits(s), kPoisonScaleBits);
  }
};

TEST_F(QuantizeBadArgumentTest, NullW) {
  ExpectFails(nullptr, 4, 4, q_.data(), scales_.data(), TCPU_ERR_NULL_POINTER,
              "tcpu_quantize_weights_bf16: w is NULL");
}

TEST_F(QuantizeBadArgumentTest, NullWI8) {
  ExpectFails(w_.data(), 4, 4, nullptr, scales_.data(), TCPU_ERR_NULL_POINTER,
              "tcpu_quantize_weights_bf16: w_i8 is NULL");
}

TEST_F(QuantizeBadArgumentTest, NullScales) {
  ExpectFails(w_.data(), 4, 4, q_.data(), nullptr, TCPU_ERR_NULL_POINTER,
              "tcpu_quantize_weights_bf16: scales is NULL");
}

TEST_F(QuantizeBadArgumentTest, ZeroN) {
  ExpectFails(w_.data(), 0, 4, q_.data(), scales_.data(), TCPU_ERR_INVALID_SIZE,
              "tcpu_quantize_weights_bf16: n = 0, expected > 0");
}

TEST_F(QuantizeBadArgumentTest, NegativeN) {
  ExpectFails(w_.data(), -4, 4, q_.data(), scales_.data(), TCPU_ERR_INVALID_SIZE,
              "tcpu_quantize_weights_bf16: n = -4, expected > 0");
}

TEST_F(QuantizeBadArgumentTest, ZeroK) {
  ExpectFails(w_.data(), 4, 0, q_.data(), scales_.data(), TCPU_ERR_INVALID_SIZE,
              "tcpu_quantize_weights_bf16: k = 0, expected > 0");
}

TEST_F(QuantizeBadArgumentTest, NegativeK) {
  ExpectFails(w_.data(), 4, -1, q_.data(), scales_.data(), TCPU_ERR_INVALID_SIZE,
              "tcpu_quantize_weights_bf16: k = -1, expected > 0");
}

TEST_F(QuantizeBadArgumentTest, NTimesKOverflows) {
  ExpectFails(w_.data(), int64_t{1} << 32, int64_t{1} << 31, q_.data(), scales_.data(),
              TCPU_ERR_SIZE_OVERFLOW,
              "tcpu_quantize_weights_bf16: n * k = 4294967296 * 2147483648 overflows int64");
}

TEST_F(QuantizeBadArgumentTest, ByteSizeOverflows) {
  ExpectFails(w_.data(), int64_t{1} << 31, int64_t{1} << 31, q_.data(), scales_.data(),
              TCPU_ERR_SIZE_OVERFLOW,
              "tcpu_quantize_weights_bf16: elements * static_cast<int64_t>(sizeof(uint16_t)) = "
              "4611686018427387904 * 2 overflows int64");
}

}  // namespace
