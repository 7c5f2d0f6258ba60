// tcpu_gemv_w4a8 and tcpu_gemm_w4a8 against the arithmetic of tcpu/gemv_q4.h written out here
// (int32 per group, the fp16 scale widened by the compiler's _Float16, fmaf per group in order,
// one multiply): bit-exact on every variant, every kernel this CPU can run, tails of n, k and
// m, extremes, scales from fp16 subnormals to 65504, threads and bad arguments.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/grouped/grouped_runner.h"
#include "kernels/q4/q4_kernels.h"
#include "kernels/q4/q4_packed.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::CompilerF16Bits;
using ::tcpu::testing::CompilerF16Value;
using ::tcpu::testing::RandomFloat;
using ::tcpu::testing::RandomInt8;

struct Shape {
  int64_t n;
  int64_t k;
};

std::string Describe(const Shape& s) {
  return "n = " + std::to_string(s.n) + ", k = " + std::to_string(s.k);
}

// Tails of n (tiles of 16 rows, row quads of 4) and of k (groups of 32, partial last group).
const Shape kShapes[] = {{1, 1},   {1, 32},   {1, 33},    {3, 31},  {4, 64},   {5, 65},
                         {8, 96},  {12, 100}, {17, 200},  {33, 32}, {63, 129}, {64, 256},
                         {65, 40}, {100, 70}, {130, 300}, {257, 64}};

std::vector<Shape> AllShapes() {
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  std::mt19937 rng(77);
  std::uniform_int_distribution<int64_t> n_dist(1, 200), k_dist(1, 300);
  for (int i = 0; i < 10; ++i) shapes.push_back({n_dist(rng), k_dist(rng)});
  return shapes;
}

struct Matrix {
  int64_t n = 0, k = 0, groups = 0;
  std::vector<int8_t> q;
  std::vector<uint16_t> scales;  // fp16 bits
  std::vector<uint8_t> packed;
};

// Scales of a few orders of magnitude, with zeros, subnormals and the largest fp16 among them.
std::vector<uint16_t> RandomScales(int64_t count, uint32_t seed) {
  const std::vector<float> v = RandomFloat(count, seed, -0.02f, 0.02f);
  std::vector<uint16_t> scales(count);
  for (int64_t i = 0; i < count; ++i) scales[i] = CompilerF16Bits(v[i]);
  for (int64_t i = 5; i < count; i += 29) scales[i] = 0;
  for (int64_t i = 7; i < count; i += 31) scales[i] = static_cast<uint16_t>(0x8000 | (i & 0x3ff));
  for (int64_t i = 11; i < count; i += 37) scales[i] = 0x7bff;
  return scales;
}

Matrix RandomMatrix(const Shape& s, uint32_t seed) {
  Matrix m;
  m.n = s.n;
  m.k = s.k;
  m.groups = (s.k + 31) / 32;
  m.q = RandomInt8(s.n * s.k, seed, -8, 7);
  m.scales = RandomScales(s.n * m.groups, seed + 1);
  const int64_t size = tcpu_q4_packed_size(s.n, s.k);
  m.packed.resize(size);
  EXPECT_EQ(tcpu_pack_q4(m.q.data(), m.scales.data(), s.n, s.k, m.packed.data(), size), TCPU_OK)
      << tcpu_last_error_detail();
  return m;
}

// The documented arithmetic for one activation row.
std::vector<float> ModelGemv(const Matrix& w, const int8_t* x, float x_scale) {
  std::vector<float> y(w.n);
  for (int64_t i = 0; i < w.n; ++i) {
    float f = 0.0f;
    for (int64_t g = 0; g < w.groups; ++g) {
      int32_t acc = 0;
      for (int64_t j = 32 * g; j < std::min<int64_t>(32 * g + 32, w.k); ++j) {
        acc += w.q[i * w.k + j] * x[j];
      }
      f = std::fma(static_cast<float>(acc), CompilerF16Value(w.scales[i * w.groups + g]), f);
    }
    y[i] = f * x_scale;
  }
  return y;
}

void ExpectSameBits(const std::vector<float>& y, const std::vector<float>& expected, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint32_t a, b;
    std::memcpy(&a, &y[i], 4);
    std::memcpy(&b, &expected[i], 4);
    ASSERT_EQ(a, b) << "row " << i << ": " << y[i] << " vs " << expected[i];
  }
}

constexpr float kPoison = -12345.5f;

void ExpectGemvMatches(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Describe(s));
  const Matrix w = RandomMatrix(s, seed);
  const std::vector<int8_t> x = RandomInt8(s.k, seed + 2);
  const float x_scale = 0.0123f;
  std::vector<float> y(s.n + 1, kPoison);
  ASSERT_EQ(tcpu_gemv_w4a8(w.packed.data(), x.data(), x_scale, y.data(), s.n, s.k), TCPU_OK)
      << tcpu_last_error_detail();
  ExpectSameBits(y, ModelGemv(w, x.data(), x_scale), s.n);
  EXPECT_EQ(y[s.n], kPoison) << "wrote past y[n - 1]";
}

class Q4GemvTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK); }
};

TEST_F(Q4GemvTest, RunsTheExpectedVariant) {
  // q4_disable_test runs with TCPU_DISABLE=i8mm,sve2: every CPU with SDOT falls back to it.
  const char* disable = std::getenv("TCPU_DISABLE");
  if (disable != nullptr && std::string(disable) == "i8mm,sve2") {
    const std::string expected =
        testing::ExpectedVariant({{"a64fx", "neon"}, {"a53", "neon"}, {"*", "dotprod"}});
    if (expected.empty()) GTEST_SKIP() << "not run by the QEMU matrix";
    EXPECT_EQ(GemvW4A8Variant(), "gemv_w4a8:" + expected);
    EXPECT_EQ(GemmW4A8Variant(), "gemm_w4a8:" + expected);
    return;
  }
  const std::string gemv = testing::ExpectedVariant({{"nosve", "gemv_w4a8:dotprod"},
                                                     {"n1", "gemv_w4a8:dotprod"},
                                                     {"vl128", "gemv_w4a8:dotprod"},
                                                     {"a64fx", "gemv_w4a8:neon"},
                                                     {"a53", "gemv_w4a8:neon"},
                                                     {"*", "gemv_w4a8:sve2"}});
  if (gemv.empty()) GTEST_SKIP() << "not run by the QEMU matrix";
  EXPECT_EQ(GemvW4A8Variant(), gemv);
  // SMMLA up to 256 bits; from 512 every row through the SVE2 GEMV executes fewer instructions.
  const std::string gemm = testing::ExpectedVariant({{"n1", "gemm_w4a8:dotprod"},
                                                     {"a64fx", "gemm_w4a8:neon"},
                                                     {"a53", "gemm_w4a8:neon"},
                                                     {"vl512", "gemm_w4a8:sve2"},
                                                     {"vl1024", "gemm_w4a8:sve2"},
                                                     {"vl2048", "gemm_w4a8:sve2"},
                                                     {"*", "gemm_w4a8:i8mm"}});
  EXPECT_EQ(GemmW4A8Variant(), gemm);
}

TEST_F(Q4GemvTest, MatchesModelOnAllShapes) {
  uint32_t seed = 10;
  for (const Shape& s : AllShapes()) ExpectGemvMatches(s, seed += 3);
}

TEST_F(Q4GemvTest, ExtremesAreExact) {
  // q = -8 against x = -128 everywhere: the largest products (16 * q * x = 2^14 per lane).
  const int64_t n = 9, k = 1000, groups = 32;
  Matrix w;
  w.n = n;
  w.k = k;
  w.groups = groups;
  w.q.assign(n * k, -8);
  w.scales.assign(n * groups, 0x3c00);  // 1.0
  w.packed.resize(tcpu_q4_packed_size(n, k));
  ASSERT_EQ(tcpu_pack_q4(w.q.data(), w.scales.data(), n, k, w.packed.data(),
                         static_cast<int64_t>(w.packed.size())),
            TCPU_OK);
  const std::vector<int8_t> x(k, -128);
  std::vector<float> y(n, kPoison);
  ASSERT_EQ(tcpu_gemv_w4a8(w.packed.data(), x.data(), 1.0f, y.data(), n, k), TCPU_OK);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(y[i], 1024.0f * k) << i;
  ExpectSameBits(y, ModelGemv(w, x.data(), 1.0f), n);
}

TEST_F(Q4GemvTest, LongRowsWithSmallN) {
  ExpectGemvMatches({3, 70001}, 7);  // no K limit, a partial last group
}

TEST_F(Q4GemvTest, IdenticalForEveryThreadCount) {
  for (int threads : testing::kThreadCounts) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    ExpectGemvMatches({300, 1000}, 41);
  }
}

// Every GEMV kernel compiled in that this CPU can run, called directly (also those dispatch
// does not pick here, e.g. sve2 at 128 bits).
TEST_F(Q4GemvTest, EveryRunnableKernelMatchesModel) {
  tcpu_cpu_info info;
  ASSERT_EQ(tcpu_cpu_info_get(&info), TCPU_OK);
  std::vector<std::pair<const char*, q4::GemvTilesFn>> kernels = {{"ref", q4::GemvTilesRef}};
#if defined(__aarch64__)
  kernels.push_back({"neon", q4::GemvTilesNeon});
  if (info.hw_features & TCPU_FEATURE_DOTPROD) kernels.push_back({"dotprod", q4::GemvTilesDotprod});
  if (info.hw_features & TCPU_FEATURE_SVE2) kernels.push_back({"sve2", q4::GemvTilesSve2});
#endif
  uint32_t seed = 500;
  for (const auto& [name, kernel] : kernels) {
    SCOPED_TRACE(name);
    for (const Shape& s : AllShapes()) {
      SCOPED_TRACE(Describe(s));
      const Matrix w = RandomMatrix(s, ++seed);
      std::vector<int8_t> x = RandomInt8(s.k, ++seed);
      const std::vector<float> expected = ModelGemv(w, x.data(), 0.5f);
      x.resize(w.groups * 32, 0);
      q4::W4GemvArgs args;
      ASSERT_EQ(q4::ViewQ4("test", w.packed.data(), s.n, s.k, &args.w), TCPU_OK);
      std::vector<float> y(s.n + 1, kPoison);
      args.x = x.data();
      args.x_scale = 0.5f;
      args.y = y.data();
      kernel(args, 0, args.w.layout.tiles);
      ExpectSameBits(y, expected, s.n);
      ASSERT_EQ(y[s.n], kPoison);
    }
  }
}

// --- GEMM ---

void ExpectGemmMatches(int64_t m, const Shape& s, uint32_t seed) {
  SCOPED_TRACE("m = " + std::to_string(m) + ", " + Describe(s));
  const Matrix w = RandomMatrix(s, seed);
  const std::vector<int8_t> x = RandomInt8(m * s.k, seed + 2);
  std::vector<float> x_scales(m);
  for (int64_t r = 0; r < m; ++r) x_scales[r] = 0.01f * static_cast<float>(r + 1);
  std::vector<float> y(m * s.n + 1, kPoison);
  ASSERT_EQ(tcpu_gemm_w4a8(w.packed.data(), x.data(), x_scales.data(), y.data(), m, s.n, s.k),
            TCPU_OK)
      << tcpu_last_error_detail();
  for (int64_t r = 0; r < m; ++r) {
    SCOPED_TRACE("x row " + std::to_string(r));
    const std::vector<float> row(y.begin() + r * s.n, y.begin() + (r + 1) * s.n);
    ExpectSameBits(row, ModelGemv(w, x.data() + r * s.k, x_scales[r]), s.n);
  }
  EXPECT_EQ(y[m * s.n], kPoison);
}

TEST_F(Q4GemvTest, GemmMatchesModel) {
  uint32_t seed = 900;
  for (int64_t m : {1, 2, 3, 5, 8, 9, 16, 17, 26, 31}) {
    for (const Shape& s : {Shape{1, 1}, Shape{5, 33}, Shape{17, 100}, Shape{70, 64}}) {
      ExpectGemmMatches(m, s, seed += 5);
    }
  }
}

TEST_F(Q4GemvTest, GemmIdenticalForEveryThreadCount) {
  for (int threads : testing::kThreadCounts) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    ExpectGemmMatches(7, {150, 600}, 61);
  }
}

#if defined(__aarch64__)
TEST_F(Q4GemvTest, I8mmKernelMatchesModel) {
  tcpu_cpu_info info;
  ASSERT_EQ(tcpu_cpu_info_get(&info), TCPU_OK);
  if (!(info.hw_features & TCPU_FEATURE_I8MM)) GTEST_SKIP() << "no i8mm";
  uint32_t seed = 1300;
  for (int64_t m : {1, 2, 7, 8, 10, 17, 26}) {
    for (const Shape& s : {Shape{3, 31}, Shape{66, 96}, Shape{130, 45}}) {
      SCOPED_TRACE("m = " + std::to_string(m) + ", " + Describe(s));
      const Matrix w = RandomMatrix(s, ++seed);
      const std::vector<int8_t> x = RandomInt8(m * s.k, ++seed);
      const std::vector<float> x_scales(m, 0.25f);
      q4::GemmArgs args;
      ASSERT_EQ(q4::ViewQ4("test", w.packed.data(), s.n, s.k, &args.w), TCPU_OK);
      std::vector<int8_t> pairs((m + 1) / 2 * w.groups * 64);
      grouped::ArrangeXPairs(x.data(), m, s.k, w.groups, pairs.data());
      std::vector<float> y(m * s.n + 1, kPoison);
      args.x_pairs = pairs.data();
      args.x_scales = x_scales.data();
      args.m = m;
      args.y = y.data();
      q4::GemmTilesI8mm(args, 0, args.w.layout.tiles);
      for (int64_t r = 0; r < m; ++r) {
        const std::vector<float> row(y.begin() + r * s.n, y.begin() + (r + 1) * s.n);
        ExpectSameBits(row, ModelGemv(w, x.data() + r * s.k, 0.25f), s.n);
      }
      ASSERT_EQ(y[m * s.n], kPoison);
    }
  }
}
#endif

// --- The bf16 W4A8 GEMV of decode ---

// x quantized as tcpu/gemv.h documents the W8A8 activations, then the int4 arithmetic.
std::vector<uint16_t> ModelGemvBf16W4(const Matrix& w, const std::vector<uint16_t>& x) {
  float absmax = 0.0f;
  for (uint16_t v : x) {
    const float a = std::fabs(tcpu_bf16_to_f32(v));
    if (!std::isnan(a) && a > absmax) absmax = a;
  }
  std::vector<uint16_t> y(w.n, 0);
  if (absmax == 0.0f) return y;
  const float inv = 127.0f / absmax;
  std::vector<int8_t> q(w.k);
  for (int64_t j = 0; j < w.k; ++j) {
    const float v = tcpu_bf16_to_f32(x[j]) * inv;
    const float r = std::isnan(v) ? 0.0f : std::nearbyint(v);
    q[j] = static_cast<int8_t>(std::min(127.0f, std::max(-127.0f, r)));
  }
  const std::vector<float> f = ModelGemv(w, q.data(), absmax / 127.0f);
  for (int64_t i = 0; i < w.n; ++i) y[i] = tcpu_f32_to_bf16(f[i]);
  return y;
}

TEST_F(Q4GemvTest, Bf16W4MatchesModel) {
  uint32_t seed = 2000;
  for (const Shape& s : {Shape{1, 1}, Shape{5, 33}, Shape{37, 100}, Shape{130, 300}}) {
    SCOPED_TRACE(Describe(s));
    const Matrix w = RandomMatrix(s, ++seed);
    std::vector<uint16_t> x = testing::RandomBf16(s.k, ++seed);
    if (s.k > 10) x[7] = 0x7fc0;  // NaN: ignored by absmax, quantized to 0
    std::vector<uint16_t> y(s.n + 1, testing::kPoisonBf16);
    ASSERT_EQ(tcpu_gemv_bf16_w4(w.packed.data(), x.data(), y.data(), s.n, s.k), TCPU_OK)
        << tcpu_last_error_detail();
    const std::vector<uint16_t> expected = ModelGemvBf16W4(w, x);
    for (int64_t i = 0; i < s.n; ++i) ASSERT_EQ(y[i], expected[i]) << "row " << i;
    EXPECT_EQ(y[s.n], testing::kPoisonBf16);
  }
  // An all-zero activation gives zeros.
  const Matrix w = RandomMatrix({9, 40}, 3);
  std::vector<uint16_t> x(40, 0), y(10, testing::kPoisonBf16);
  x[3] = 0x8000;  // -0
  ASSERT_EQ(tcpu_gemv_bf16_w4(w.packed.data(), x.data(), y.data(), 9, 40), TCPU_OK);
  for (int64_t i = 0; i < 9; ++i) EXPECT_EQ(y[i], 0);
  EXPECT_EQ(y[9], testing::kPoisonBf16);
  EXPECT_EQ(tcpu_gemv_bf16_w4(w.packed.data(), x.data(), y.data(), 9, 41),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_gemv_bf16_w4(w.packed.data(), nullptr, y.data(), 9, 40), TCPU_ERR_NULL_POINTER);
}

// --- Bad arguments ---

class Q4GemvArgsTest : public Q4GemvTest {
 protected:
  static constexpr int64_t kN = 8, kK = 40;
  Matrix w_ = RandomMatrix({kN, kK}, 1);
  std::vector<int8_t> x_ = RandomInt8(2 * kK, 2);
  std::vector<float> xs_ = std::vector<float>(2, 1.0f);
  std::vector<float> y_ = std::vector<float>(2 * kN, kPoison);

  int Gemv(int64_t n, int64_t k) {
    return tcpu_gemv_w4a8(w_.packed.data(), x_.data(), 1.0f, y_.data(), n, k);
  }
  int Gemm(int64_t m, int64_t n, int64_t k) {
    return tcpu_gemm_w4a8(w_.packed.data(), x_.data(), xs_.data(), y_.data(), m, n, k);
  }
  void ExpectOutputUntouched() {
    for (float v : y_) EXPECT_EQ(v, kPoison);
  }
};

TEST_F(Q4GemvArgsTest, NullPointers) {
  EXPECT_EQ(tcpu_gemv_w4a8(nullptr, x_.data(), 1.0f, y_.data(), kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemv_w4a8: packed_w is NULL");
  EXPECT_EQ(tcpu_gemv_w4a8(w_.packed.data(), nullptr, 1.0f, y_.data(), kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_gemv_w4a8(w_.packed.data(), x_.data(), 1.0f, nullptr, kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_gemm_w4a8(w_.packed.data(), x_.data(), nullptr, y_.data(), 1, kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_w4a8: x_scales is NULL");
  ExpectOutputUntouched();
}

TEST_F(Q4GemvArgsTest, BadSizes) {
  EXPECT_EQ(Gemv(0, kK), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(Gemv(kN, -1), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(Gemv(int64_t{1} << 40, int64_t{1} << 40), TCPU_ERR_SIZE_OVERFLOW);
  EXPECT_EQ(Gemm(0, kN, kK), TCPU_ERR_INVALID_SIZE);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_w4a8: m = 0, expected > 0");
  ExpectOutputUntouched();
}

TEST_F(Q4GemvArgsTest, PackedForAnotherShapeIsRefused) {
  EXPECT_EQ(Gemv(kN, kK - 1), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_gemv_w4a8: packed_w holds n = 8, k = 40 but the call has n = 8, k = 39");
  EXPECT_EQ(Gemv(kN + 1, kK), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(Gemm(2, kN - 1, kK), TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputUntouched();
}

TEST_F(Q4GemvArgsTest, NotPackedIsRefused) {
  std::vector<uint8_t> raw(w_.packed.size(), 0);
  EXPECT_EQ(tcpu_gemv_w4a8(raw.data(), x_.data(), 1.0f, y_.data(), kN, kK),
            TCPU_ERR_INVALID_ARGUMENT);
  // An int8 matrix of tcpu_pack_weights_i8 is not an int4 one either: another magic.
  std::memcpy(raw.data(), "TCPUW8P", 8);
  EXPECT_EQ(tcpu_gemm_w4a8(raw.data(), x_.data(), xs_.data(), y_.data(), 2, kN, kK),
            TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputUntouched();
}

TEST_F(Q4GemvArgsTest, SuccessClearsTheDetail) {
  EXPECT_EQ(Gemv(0, kK), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(Gemv(kN, kK), TCPU_OK);
  EXPECT_STREQ(tcpu_last_error_detail(), "");
  EXPECT_EQ(Gemm(2, kN, kK), TCPU_OK);
}

}  // namespace
}  // namespace tcpu
