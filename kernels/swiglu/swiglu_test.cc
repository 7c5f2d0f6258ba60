// tcpu_swiglu_bf16: every variant the CPU supports (and the dispatched entry point) within
// 2 bf16 ulp of a float64 reference, over every bf16 gate value (a dense sweep) times a set
// of up values, over sizes with every kind of tail, in place, on 1/2/4 threads, and every
// bad argument.
#include "tcpu/swiglu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/swiglu/swiglu_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

using tcpu::swiglu::SwigluFn;
using tcpu::testing::kPoisonBf16;
using tcpu::testing::RandomBf16;

constexpr double kMaxUlp = 2.0;  // The contract of tcpu/swiglu.h.

// A way to run SwiGLU: one variant through SwigluWith, or the public entry point.
struct Runner {
  std::string name;
  SwigluFn kernel;  // nullptr: tcpu_swiglu_bf16
  void Run(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n) const {
    const int status = kernel == nullptr ? tcpu_swiglu_bf16(gate, up, out, n)
                                         : tcpu::swiglu::SwigluWith(kernel, gate, up, out, n);
    ASSERT_EQ(status, TCPU_OK) << name << ": " << tcpu_last_error_detail();
  }
};

std::vector<Runner> Runners() {
  std::vector<Runner> runners;
  int count = 0;
  const auto* table = tcpu::swiglu::SwigluVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) == table[i].required) {
      runners.push_back({table[i].name, table[i].fn});
    }
  }
  runners.push_back({"public", nullptr});
  return runners;
}

// silu(g) * u in float64, silu(-Inf) taken as its limit 0.
double Reference(uint16_t gate, uint16_t up) {
  const double g = tcpu_bf16_to_f32(gate);
  const double u = tcpu_bf16_to_f32(up);
  if (std::isnan(g)) return g;
  double silu;
  if (g == -std::numeric_limits<double>::infinity()) {
    silu = -0.0;
  } else if (g >= 0.0) {
    silu = g / (1.0 + std::exp(-g));
  } else {
    const double e = std::exp(g);
    silu = g * e / (1.0 + e);
  }
  return silu * u;
}

// Bf16UlpError, with exact values beyond the largest bf16 expected to round to +-Inf.
double UlpError(uint16_t actual, double expected) {
  if (std::fabs(expected) >= 0x1.ffp127) {
    expected = std::copysign(std::numeric_limits<double>::infinity(), expected);
  }
  return tcpu::testing::Bf16UlpError(actual, expected);
}

struct Worst {
  double ulp = 0.0;
  uint16_t gate = 0, up = 0, got = 0;
};

std::vector<double> References(const std::vector<uint16_t>& gate, const std::vector<uint16_t>& up) {
  std::vector<double> expected(gate.size());
  for (size_t i = 0; i < gate.size(); ++i) expected[i] = Reference(gate[i], up[i]);
  return expected;
}

// Runs every runner out of place and, if `aliasing`, in place (over gate, then over up),
// checks every element against `expected` (References) and the guard past the end, and
// returns the worst error of each runner.
std::vector<Worst> CheckAll(const std::vector<uint16_t>& gate, const std::vector<uint16_t>& up,
                            const std::vector<double>& expected, const std::string& what,
                            bool aliasing = true) {
  const int64_t n = static_cast<int64_t>(gate.size());
  std::vector<Worst> worst;
  for (const Runner& runner : Runners()) {
    Worst w;
    std::vector<uint16_t> out(n + 1, kPoisonBf16);
    runner.Run(gate.data(), up.data(), out.data(), n);
    std::vector<uint16_t> over_gate(gate), over_up(up);
    over_gate.push_back(kPoisonBf16);
    over_up.push_back(kPoisonBf16);
    std::vector<const std::vector<uint16_t>*> results = {&out};
    if (aliasing) {
      runner.Run(over_gate.data(), up.data(), over_gate.data(), n);
      runner.Run(gate.data(), over_up.data(), over_up.data(), n);
      results.push_back(&over_gate);
      results.push_back(&over_up);
    }
    for (const auto* result : results) {
      const char* mode = result == &out         ? ""
                         : result == &over_gate ? " (out = gate)"
                                                : " (out = up)";
      int reported = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double err = UlpError((*result)[i], expected[i]);
        if (err > w.ulp) w = {err, gate[i], up[i], (*result)[i]};
        if (!(err <= kMaxUlp) && reported++ < 5) {
          ADD_FAILURE() << runner.name << mode << " " << what << " n=" << n << " i=" << i
                        << ": gate " << tcpu_bf16_to_f32(gate[i]) << " up "
                        << tcpu_bf16_to_f32(up[i]) << ": got " << tcpu_bf16_to_f32((*result)[i])
                        << " (0x" << std::hex << (*result)[i] << std::dec << "), expected "
                        << expected[i] << " (" << err << " ulp)";
        }
      }
      EXPECT_EQ((*result)[n], kPoisonBf16) << runner.name << mode << " wrote past n=" << n;
    }
    worst.push_back(w);
  }
  return worst;
}

std::vector<Worst> CheckAll(const std::vector<uint16_t>& gate, const std::vector<uint16_t>& up,
                            const std::string& what, bool aliasing = true) {
  return CheckAll(gate, up, References(gate, up), what, aliasing);
}

std::string ExpectedSwigluVariant() {
  if (const char* forced = std::getenv("SWIGLU_TEST_EXPECT")) return forced;
  return tcpu::testing::ExpectedVariant({{"vl128", "swiglu_bf16:sve2"},
                                         {"vl256", "swiglu_bf16:sve2"},
                                         {"vl512", "swiglu_bf16:sve2"},
                                         {"vl1024", "swiglu_bf16:sve2"},
                                         {"vl2048", "swiglu_bf16:sve2"},
                                         {"*", "swiglu_bf16:neon"}});
}

TEST(SwigluTest, DispatchesToExpectedVariant) {
  std::cout << "[ variants ]";
  for (const Runner& r : Runners()) std::cout << " " << r.name;
  std::cout << "\n";
  const std::string expected = ExpectedSwigluVariant();
  if (expected.empty()) {
#if defined(__x86_64__)
    EXPECT_STREQ(tcpu::SwigluBf16Variant(), "swiglu_bf16:ref");
#else
    GTEST_SKIP() << "not run by the QEMU matrix; dispatches to " << tcpu::SwigluBf16Variant();
#endif
  } else {
    EXPECT_EQ(tcpu::SwigluBf16Variant(), expected);
  }
}

// Every one of the 65536 bf16 gate bit patterns (finite, +-Inf and NaN) against up values
// from 0 and subnormal to the largest bf16; prints the worst error of each variant. Element i
// takes up value (i + pass) % 11: each of the two passes gives every up value every 11th bit
// pattern (all exponents, ~12 mantissas each), and every gate meets two up values, at 2/11 of
// the emulated work of sweeping every gate against every up value.
TEST(SwigluTest, SweepOfAllGateValues) {
  std::vector<uint16_t> gate(65536);
  for (int i = 0; i < 65536; ++i) gate[i] = static_cast<uint16_t>(i);
  const float ups[] = {1.0f,     -1.0f,     0.3f,        -7.5f,  1000.0f, 3.0e4f,
                       0x1p100f, 0x1p-100f, 0x1.fep127f, 1e-40f, 0.0f};
  constexpr int kUps = sizeof(ups) / sizeof(ups[0]);
  const std::vector<Runner> runners = Runners();
  std::vector<Worst> worst(runners.size());
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<uint16_t> up(gate.size());
    for (size_t i = 0; i < up.size(); ++i) up[i] = tcpu_f32_to_bf16(ups[(i + pass) % kUps]);
    const std::vector<Worst> w = CheckAll(gate, up, "sweep", /*aliasing=*/false);
    for (size_t r = 0; r < w.size(); ++r) {
      if (w[r].ulp > worst[r].ulp) worst[r] = w[r];
    }
    if (HasFailure()) break;
  }
  for (size_t r = 0; r < runners.size(); ++r) {
    std::cout << "[ sweep ] " << runners[r].name << ": max error " << worst[r].ulp << " ulp (gate "
              << tcpu_bf16_to_f32(worst[r].gate) << ", up " << tcpu_bf16_to_f32(worst[r].up)
              << ", got " << tcpu_bf16_to_f32(worst[r].got) << ")\n";
  }
}

TEST(SwigluTest, LargeAndSpecialGates) {
  const float gates[] = {0.0f,    -0.0f,    1e30f,   -1e30f,  88.0f,   -87.0f,
                         -88.0f,  -95.0f,   -104.0f, -150.0f, -189.0f, -191.0f,
                         3.0e38f, -3.0e38f, 1e-40f,  -1e-40f, 20.0f,   -20.0f};
  const float ups[] = {1.0f, -3.0f, 1e30f, 1e-30f, 0x1.fep127f};
  std::vector<uint16_t> g, u;
  for (float gv : gates) {
    for (float uv : ups) {
      g.push_back(tcpu_f32_to_bf16(gv));
      u.push_back(tcpu_f32_to_bf16(uv));
    }
  }
  CheckAll(g, u, "special");
  // +-Inf gates: silu(+Inf) = +Inf, silu(-Inf) = 0 (never NaN from Inf / Inf).
  const std::vector<uint16_t> inf_gate = {0x7f80, 0xff80, 0x7f80, 0xff80};
  const std::vector<uint16_t> inf_up = {tcpu_f32_to_bf16(2.0f), tcpu_f32_to_bf16(2.0f),
                                        tcpu_f32_to_bf16(-1.0f), tcpu_f32_to_bf16(-1.0f)};
  CheckAll(inf_gate, inf_up, "inf");
}

TEST(SwigluTest, TailsAndPrimes) {
  for (int64_t n : {1,  2,  3,  4,  5,  7,   8,   9,   15,  16,   17,   31,
                    33, 37, 63, 64, 65, 127, 129, 255, 257, 1531, 4608, 4609}) {
    CheckAll(RandomBf16(n, 31 + static_cast<uint32_t>(n), 4.0f),
             RandomBf16(n, 900 + static_cast<uint32_t>(n), 2.0f), "tails");
  }
}

TEST(SwigluTest, RandomSizes) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> size(1, 5000);
  for (int iter = 0; iter < 10; ++iter) {
    const int64_t n = size(rng);
    CheckAll(RandomBf16(n, 300 + iter, 8.0f), RandomBf16(n, 400 + iter, 1.0f), "random size");
  }
}

// Long enough to be split over the pool into 4 ranges; every thread count gives the same bits.
TEST(SwigluTest, ThreadCountsGiveIdenticalResults) {
  const int64_t n = 70001;
  const auto gate = RandomBf16(n, 50, 6.0f);
  const auto up = RandomBf16(n, 51, 2.0f);
  const std::vector<double> expected = References(gate, up);  // Once (QEMU time).
  const int initial_threads = tcpu_get_num_threads();
  ASSERT_GT(initial_threads, 0);
  std::vector<uint16_t> first;
  for (int threads : tcpu::testing::kThreadCounts) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK) << tcpu_last_error_detail();
    std::vector<uint16_t> out(n + 1, kPoisonBf16);
    ASSERT_EQ(tcpu_swiglu_bf16(gate.data(), up.data(), out.data(), n), TCPU_OK);
    EXPECT_EQ(out[n], kPoisonBf16) << threads << " threads: wrote past the end";
    if (first.empty()) {
      // Within the bound here; the other thread counts must give these bits.
      int bad = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (!(UlpError(out[i], expected[i]) <= kMaxUlp)) ++bad;
      }
      EXPECT_EQ(bad, 0) << threads << " threads";
      first = out;
    } else {
      EXPECT_EQ(out, first) << threads << " threads";
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(initial_threads), TCPU_OK);
  // Every variant on the largest pool, in place too.
  ASSERT_EQ(tcpu_set_num_threads(4), TCPU_OK);
  CheckAll(gate, up, expected, "4 threads");
  ASSERT_EQ(tcpu_set_num_threads(initial_threads), TCPU_OK);
}

class SwigluBadArgumentTest : public ::testing::Test {
 protected:
  std::vector<uint16_t> gate_ = RandomBf16(8, 1);
  std::vector<uint16_t> up_ = RandomBf16(8, 2);
  std::vector<uint16_t> out_ = std::vector<uint16_t>(8, kPoisonBf16);

  void ExpectFails(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n, int status,
                   const char* detail) {
    EXPECT_EQ(tcpu_swiglu_bf16(gate, up, out, n), status);
    EXPECT_STREQ(tcpu_last_error_detail(), detail);
    for (uint16_t v : out_) EXPECT_EQ(v, kPoisonBf16);
  }
};

TEST_F(SwigluBadArgumentTest, NullGate) {
  ExpectFails(nullptr, up_.data(), out_.data(), 8, TCPU_ERR_NULL_POINTER,
              "tcpu_swiglu_bf16: gate is NULL");
}

TEST_F(SwigluBadArgumentTest, NullUp) {
  ExpectFails(gate_.data(), nullptr, out_.data(), 8, TCPU_ERR_NULL_POINTER,
              "tcpu_swiglu_bf16: up is NULL");
}

TEST_F(SwigluBadArgumentTest, NullOut) {
  ExpectFails(gate_.data(), up_.data(), nullptr, 8, TCPU_ERR_NULL_POINTER,
              "tcpu_swiglu_bf16: out is NULL");
}

TEST_F(SwigluBadArgumentTest, ZeroN) {
  ExpectFails(gate_.data(), up_.data(), out_.data(), 0, TCPU_ERR_INVALID_SIZE,
              "tcpu_swiglu_bf16: n = 0, expected > 0");
}

TEST_F(SwigluBadArgumentTest, NegativeN) {
  ExpectFails(gate_.data(), up_.data(), out_.data(), -1, TCPU_ERR_INVALID_SIZE,
              "tcpu_swiglu_bf16: n = -1, expected > 0");
}

TEST_F(SwigluBadArgumentTest, NBytesOverflow) {
  ExpectFails(gate_.data(), up_.data(), out_.data(), std::numeric_limits<int64_t>::max() / 2 + 1,
              TCPU_ERR_SIZE_OVERFLOW,
              "tcpu_swiglu_bf16: n * static_cast<int64_t>(sizeof(uint16_t)) = "
              "4611686018427387904 * 2 overflows int64");
}

}  // namespace
