// math.ttir (math.log, math.sin, math.cos, math.rsqrt, math.erf and libdevice's tanh on 256-lane
// blocks, as Triton prints them) and exp.ttir's math.exp2 against the C library in double
// precision: the error of the vector code tcpu-expand-math emits, in units in the last place of
// the exact result (ulp; 0.5 is correctly rounded), over sweeps of every exponent of each
// function's domain, with its special values (zeros, infinities, NaN, the domain's edges).
// libdevice_kernel calls the same functions by their libdevice names (__nv_expf, ...), as
// Inductor prints them, and must give the same bits as the math ops. Outputs are poisoned
// before every call, and nothing past n is written.
#include "kernels/triton/math.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/exp.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/status.h"

namespace {

using tcpu::testing::F32Bits;
using tcpu::testing::F32FromBits;
using tcpu::testing::F32UlpError;

constexpr int32_t kBlock = 256;
constexpr float kPoison = -12345.0f;
constexpr int32_t kGuard = 16;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

using UnaryLaunch = int (*)(void* x, void* y, int32_t n, int32_t grid_x, int32_t grid_y,
                                    int32_t grid_z);

// Runs a one-input, one-output kernel over `x`, checking that it writes nothing past n.
std::vector<float> RunKernel(UnaryLaunch launch, const std::vector<float>& x) {
  const int32_t n = static_cast<int32_t>(x.size());
  std::vector<float> input(x), y(n + kGuard, kPoison);
  input.resize(n + kGuard, 1.0f);
  EXPECT_EQ(launch(input.data(), y.data(), n, (n + kBlock - 1) / kBlock, 1, 1), TCPU_OK);
  for (int32_t i = n; i < n + kGuard; ++i) {
    EXPECT_EQ(y[i], kPoison) << "wrote past the end at " << i;
  }
  y.resize(n);
  return y;
}

// About `count` floats evenly spaced in bit pattern from `low` to `high` (both positive, so
// every exponent between them is sampled alike), and their negatives when `negatives`.
std::vector<float> Sweep(float low, float high, int32_t count, bool negatives) {
  const uint32_t first = F32Bits(low), last = F32Bits(high);
  const uint32_t step = std::max<uint32_t>(1, (last - first) / static_cast<uint32_t>(count));
  std::vector<float> x;
  for (uint32_t bits = first; bits <= last && bits >= first; bits += step) {
    x.push_back(F32FromBits(bits));
    if (negatives) x.push_back(-F32FromBits(bits));
  }
  x.push_back(high);
  if (negatives) x.push_back(-high);
  return x;
}

// The largest error in ulp of `y` against `exact` over `x`, and where: "2.31 ulp at x = ...".
struct Worst {
  double ulp = 0.0;
  float x = 0.0f, got = 0.0f;
  double want = 0.0;
  std::string Describe(const char* name) const {
    char text[160];
    std::snprintf(text, sizeof text, "%s: %.3f ulp at x = %.9g (%.9g, exact %.17g)", name, ulp,
                  x, got, want);
    return text;
  }
};

template <typename Exact>
Worst Measure(const std::vector<float>& x, const std::vector<float>& y, Exact exact) {
  Worst worst;
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = exact(static_cast<double>(x[i]));
    const double ulp = F32UlpError(y[i], want);
    if (ulp > worst.ulp || std::isnan(ulp)) worst = {ulp, x[i], y[i], want};
  }
  return worst;
}

template <typename Exact>
void ExpectWithin(const char* name, UnaryLaunch launch, const std::vector<float>& x, Exact exact,
                  double bound) {
  const Worst worst = Measure(x, RunKernel(launch, x), exact);
  std::printf("%s over %zu inputs\n", worst.Describe(name).c_str(), x.size());
  EXPECT_LE(worst.ulp, bound) << worst.Describe(name);
}

// exp.ttir writes exp and exp2 of the same input; its exp2 output as a unary launch.
int LaunchExp2(void* x, void* y, int32_t n, int32_t gx, int32_t gy, int32_t gz) {
  std::vector<float> exp(static_cast<size_t>(n) + kGuard);
  return tcpu_launch_exp_kernel(x, exp.data(), y, n, gx, gy, gz);
}

TEST(TritonMathTest, LogOverEveryPositiveFloat) {
  ExpectWithin("log", tcpu_launch_log_kernel,
               Sweep(std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                     60000, false),
               [](double v) { return std::log(v); }, 1.5);
}

TEST(TritonMathTest, LogSpecialValues) {
  const std::vector<float> x = {0.0f, -0.0f, 1.0f, -1.0f, kInf, -kInf, kNaN, 2.0f};
  const std::vector<float> y = RunKernel(tcpu_launch_log_kernel, x);
  EXPECT_EQ(y[0], -kInf);
  EXPECT_EQ(y[1], -kInf);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ(y[4], kInf);
  EXPECT_TRUE(std::isnan(y[5]));
  EXPECT_TRUE(std::isnan(y[6]));
  EXPECT_LE(F32UlpError(y[7], std::log(2.0)), 1.0);
}

TEST(TritonMathTest, SinAndCos) {
  const std::vector<float> x = Sweep(1e-30f, 0x1p20f, 60000, true);
  ExpectWithin("sin", tcpu_launch_sin_kernel, x, [](double v) { return std::sin(v); }, 2.5);
  ExpectWithin("cos", tcpu_launch_cos_kernel, x, [](double v) { return std::cos(v); }, 2.5);
  // Near multiples of pi/2, where the reduction cancels: every float within 4096 of
  // 10^k pi / 2.
  std::vector<float> near;
  for (double multiple = 1; multiple < 1e6; multiple *= 10) {
    const float center = static_cast<float>(multiple * M_PI / 2);
    for (int32_t d = -4096; d <= 4096; ++d) near.push_back(F32FromBits(F32Bits(center) + d));
  }
  ExpectWithin("sin near pi/2 multiples", tcpu_launch_sin_kernel, near,
               [](double v) { return std::sin(v); }, 2.5);
  ExpectWithin("cos near pi/2 multiples", tcpu_launch_cos_kernel, near,
               [](double v) { return std::cos(v); }, 2.5);
}

TEST(TritonMathTest, SinAndCosBeyondTheirAccurateRange) {
  // Past 2^20 the reduction's quotient may be off by one: the results are numbers in [-1, 1],
  // not sin x; infinities and NaN give NaN.
  std::vector<float> x = Sweep(0x1p20f, std::numeric_limits<float>::max(), 4000, true);
  const std::vector<float> sin = RunKernel(tcpu_launch_sin_kernel, x);
  const std::vector<float> cos = RunKernel(tcpu_launch_cos_kernel, x);
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_LE(std::fabs(sin[i]), 1.0f) << "sin at x = " << x[i];
    ASSERT_LE(std::fabs(cos[i]), 1.0f) << "cos at x = " << x[i];
  }
  for (auto launch : {tcpu_launch_sin_kernel, tcpu_launch_cos_kernel}) {
    const std::vector<float> y = RunKernel(launch, {kInf, -kInf, kNaN, 0.0f, -0.0f});
    EXPECT_TRUE(std::isnan(y[0]) && std::isnan(y[1]) && std::isnan(y[2]));
  }
  // sin(-0) is +0: the reduction's first FMA adds -0 to +0.
  const std::vector<float> sin0 = RunKernel(tcpu_launch_sin_kernel, {0.0f, -0.0f});
  EXPECT_EQ(sin0[0], 0.0f);
  EXPECT_EQ(sin0[1], 0.0f);
  EXPECT_EQ(RunKernel(tcpu_launch_cos_kernel, {0.0f})[0], 1.0f);
}

TEST(TritonMathTest, Rsqrt) {
  ExpectWithin("rsqrt", tcpu_launch_rsqrt_kernel,
               Sweep(std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
                     40000, false),
               [](double v) { return 1.0 / std::sqrt(v); }, 1.5);
  const std::vector<float> y =
      RunKernel(tcpu_launch_rsqrt_kernel, {0.0f, -0.0f, kInf, -1.0f, kNaN});
  EXPECT_EQ(y[0], kInf);
  EXPECT_EQ(y[1], -kInf);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_TRUE(std::isnan(y[4]));
}

TEST(TritonMathTest, Erf) {
  ExpectWithin("erf", tcpu_launch_erf_kernel, Sweep(1e-30f, 10.0f, 40000, true),
               [](double v) { return std::erf(v); }, 4.0);
  const std::vector<float> y = RunKernel(tcpu_launch_erf_kernel, {0.0f, kInf, -kInf, kNaN, 1e30f});
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 1.0f);
  EXPECT_EQ(y[2], -1.0f);
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ(y[4], 1.0f);
}

TEST(TritonMathTest, Tanh) {
  ExpectWithin("tanh", tcpu_launch_tanh_kernel, Sweep(1e-30f, 20.0f, 40000, true),
               [](double v) { return std::tanh(v); }, 4.0);
  const std::vector<float> y = RunKernel(tcpu_launch_tanh_kernel, {0.0f, kInf, -kInf, kNaN, 1e30f});
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 1.0f);
  EXPECT_EQ(y[2], -1.0f);
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ(y[4], 1.0f);
}

TEST(TritonMathTest, Exp2WhereTheResultIsANormalFloat) {
  ExpectWithin("exp2", LaunchExp2, Sweep(1e-30f, 126.0f, 60000, true),
               [](double v) { return std::exp2(v); }, 1.5);
}

TEST(TritonMathTest, Exp2EdgesOfTheRange) {
  const std::vector<float> y = RunKernel(
      LaunchExp2, {0.0f, 1.0f, -1.0f, 127.0f, 127.75f, 128.25f, 1000.0f, kInf, -127.0f, -200.0f,
                   -kInf, kNaN, -126.25f});
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(y[1], 2.0f);
  EXPECT_EQ(y[2], 0.5f);
  EXPECT_EQ(y[3], 0x1p127f);
  // Above 127.5 the exponent stops at 127 and the polynomial runs past ln2 / 2 (at 128 it
  // gives the largest float, not +inf).
  EXPECT_NEAR(y[4] / std::exp2(127.75f), 1.0f, 1e-5f);
  for (int i : {5, 6, 7}) EXPECT_EQ(y[i], kInf) << i;
  for (int i : {8, 9, 10}) EXPECT_EQ(y[i], 0.0f) << i;
  EXPECT_TRUE(std::isnan(y[11]));
  // A subnormal result: 0 or below the smallest normal float.
  EXPECT_LT(y[12], std::numeric_limits<float>::min());
  EXPECT_GE(y[12], 0.0f);
}

TEST(TritonMathTest, LibdeviceNamesGiveTheMathOpsBits) {
  std::vector<float> x = Sweep(1e-6f, 80.0f, 3000, true);
  x.insert(x.end(), {0.0f, -0.0f, kInf, -kInf, kNaN});
  const int32_t n = static_cast<int32_t>(x.size());
  std::vector<std::vector<float>> out(8, std::vector<float>(n + kGuard, kPoison));
  std::vector<float> input(x);
  input.resize(n + kGuard, 1.0f);
  ASSERT_EQ(tcpu_launch_libdevice_kernel(input.data(), out[0].data(), out[1].data(),
                                         out[2].data(), out[3].data(), out[4].data(),
                                         out[5].data(), out[6].data(), out[7].data(), n,
                                         (n + kBlock - 1) / kBlock, 1, 1),
            TCPU_OK);
  std::vector<float> exp(n + kGuard), exp2(n + kGuard);
  ASSERT_EQ(tcpu_launch_exp_kernel(input.data(), exp.data(), exp2.data(), n,
                                   (n + kBlock - 1) / kBlock, 1, 1),
            TCPU_OK);
  const struct {
    const char* name;
    std::vector<float> want;
  } ops[] = {{"__nv_expf", exp},
             {"__nv_exp2f", exp2},
             {"__nv_logf", RunKernel(tcpu_launch_log_kernel, x)},
             {"__nv_sinf", RunKernel(tcpu_launch_sin_kernel, x)},
             {"__nv_cosf", RunKernel(tcpu_launch_cos_kernel, x)},
             {"__nv_rsqrtf", RunKernel(tcpu_launch_rsqrt_kernel, x)},
             {"__nv_erff", RunKernel(tcpu_launch_erf_kernel, x)},
             {"__nv_tanhf", RunKernel(tcpu_launch_tanh_kernel, x)}};
  for (int f = 0; f < 8; ++f) {
    for (int32_t i = 0; i < n; ++i) {
      ASSERT_EQ(F32Bits(out[f][i]), F32Bits(ops[f].want[i])) << ops[f].name << " at x = " << x[i];
    }
    for (int32_t i = n; i < n + kGuard; ++i) {
      ASSERT_EQ(out[f][i], kPoison) << ops[f].name << " wrote past the end at " << i;
    }
  }
}

}  // namespace
