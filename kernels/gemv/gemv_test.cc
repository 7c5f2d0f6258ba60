// tcpu_gemv_i8 and tcpu_gemv_bf16_w8 against scalar models written here from the documented
// semantics (tcpu/gemv.h): exact int32, and bit-exact bf16.
#include "tcpu/gemv.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/gemv/gemv_kernels.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::kPoisonBf16;
using ::tcpu::testing::kPoisonI32;
using ::tcpu::testing::RandomBf16;
using ::tcpu::testing::RandomInt8;

struct Shape {
  int64_t n;
  int64_t k;
};

std::string Describe(const Shape& s) {
  return "n = " + std::to_string(s.n) + ", k = " + std::to_string(s.k);
}

// Tails of every kind: n and k not multiples of 4, 8, 16 or the stream a 2048-bit vector
// covers per step (4 x 256 bytes = k 256); n = 1; k = 1.
const Shape kShapes[] = {
    {1, 1},    {1, 7},   {1, 8},    {1, 9},      {1, 16},   {1, 17},   {1, 1000}, {2, 1},
    {3, 1},    {4, 1},   {5, 1},    {9, 1},      {2, 15},   {3, 24},   {4, 8},    {5, 33},
    {6, 40},   {7, 63},  {8, 64},   {9, 65},     {11, 127}, {12, 128}, {13, 129}, {16, 248},
    {17, 255}, {5, 256}, {7, 257},  {10, 264},   {3, 511},  {9, 513},  {2, 1023}, {6, 1025},
    {33, 96},  {64, 31}, {67, 200}, {130, 1536},
};

// Random shapes on top (a fixed seed: the same ones every run).
std::vector<Shape> AllShapes() {
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int64_t> n_dist(1, 70), k_dist(1, 700);
  for (int i = 0; i < 40; ++i) shapes.push_back({n_dist(rng), k_dist(rng)});
  return shapes;
}

std::vector<uint8_t> Pack(const std::vector<int8_t>& w, int64_t n, int64_t k) {
  const int64_t size = tcpu_packed_weights_size(n, k);
  EXPECT_GT(size, 0);
  std::vector<uint8_t> packed(size);
  EXPECT_EQ(tcpu_pack_weights_i8(w.data(), n, k, packed.data(), size), TCPU_OK)
      << tcpu_last_error_detail();
  return packed;
}

// y = W x in int64, wrapped to int32 as the contract's int32 sums are.
std::vector<int32_t> ModelGemvI8(const std::vector<int8_t>& w, const std::vector<int8_t>& x,
                                 int64_t n, int64_t k) {
  std::vector<int32_t> y(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t sum = 0;
    for (int64_t j = 0; j < k; ++j) sum += int64_t{w[i * k + j]} * x[j];
    y[i] = static_cast<int32_t>(static_cast<uint32_t>(sum));
  }
  return y;
}

// The documented W8A8 formula, step by step.
std::vector<uint16_t> ModelGemvBf16W8(const std::vector<int8_t>& w,
                                      const std::vector<float>& w_scales,
                                      const std::vector<uint16_t>& x, int64_t n, int64_t k) {
  float absmax = 0.0f;
  for (uint16_t v : x) {
    const float a = std::fabs(tcpu_bf16_to_f32(v));
    if (!std::isnan(a) && a > absmax) absmax = a;
  }
  std::vector<uint16_t> y(n, 0);
  if (absmax == 0.0f) return y;
  const float inv = 127.0f / absmax;
  std::vector<int8_t> q(k);
  for (int64_t j = 0; j < k; ++j) {
    const float v = tcpu_bf16_to_f32(x[j]) * inv;
    float r = std::isnan(v) ? 0.0f : std::nearbyint(v);  // default mode: ties to even
    r = r < -127.0f ? -127.0f : (r > 127.0f ? 127.0f : r);
    q[j] = static_cast<int8_t>(r);
  }
  const std::vector<int32_t> acc = ModelGemvI8(w, q, n, k);
  const float x_scale = absmax / 127.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float scaled = static_cast<float>(acc[i]) * x_scale;
    y[i] = tcpu_f32_to_bf16(scaled * w_scales[i]);
  }
  return y;
}

std::vector<float> RandomScales(int64_t n, uint32_t seed) {
  return testing::RandomFloat(n, seed, 1e-4f, 2e-2f);
}

// Random int8 weights (packed) and activations, with the model's result.
struct GemvI8Problem {
  std::vector<int8_t> x;
  std::vector<uint8_t> packed;
  std::vector<int32_t> expected;
};

GemvI8Problem RandomGemvI8Problem(const Shape& s, uint32_t seed) {
  const std::vector<int8_t> w = RandomInt8(s.n * s.k, seed);
  GemvI8Problem p{RandomInt8(s.k, seed + 1), Pack(w, s.n, s.k), {}};
  p.expected = ModelGemvI8(w, p.x, s.n, s.k);
  return p;
}

// Runs tcpu_gemv_i8 into a poisoned y with one element more than n, checks every element and
// that the extra one is untouched.
void ExpectGemvI8Matches(const Shape& s, const GemvI8Problem& p) {
  SCOPED_TRACE(Describe(s));
  std::vector<int32_t> y(s.n + 1, kPoisonI32);
  ASSERT_EQ(tcpu_gemv_i8(p.packed.data(), p.x.data(), y.data(), s.n, s.k), TCPU_OK)
      << tcpu_last_error_detail();
  for (int64_t i = 0; i < s.n; ++i) ASSERT_EQ(y[i], p.expected[i]) << "row " << i;
  EXPECT_EQ(y[s.n], kPoisonI32) << "wrote past y[n - 1]";
}

void ExpectGemvI8Matches(const Shape& s, uint32_t seed) {
  ExpectGemvI8Matches(s, RandomGemvI8Problem(s, seed));
}

void ExpectGemvBf16W8Matches(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Describe(s));
  const std::vector<int8_t> w = RandomInt8(s.n * s.k, seed, -127, 127);
  const std::vector<float> scales = RandomScales(s.n, seed + 1);
  const std::vector<uint16_t> x = RandomBf16(s.k, seed + 2);
  const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
  std::vector<uint16_t> y(s.n + 1, kPoisonBf16);
  ASSERT_EQ(tcpu_gemv_bf16_w8(packed.data(), scales.data(), x.data(), y.data(), s.n, s.k), TCPU_OK)
      << tcpu_last_error_detail();
  const std::vector<uint16_t> expected = ModelGemvBf16W8(w, scales, x, s.n, s.k);
  for (int64_t i = 0; i < s.n; ++i) {
    ASSERT_EQ(y[i], expected[i]) << "row " << i << ": " << tcpu_bf16_to_f32(y[i]) << " vs "
                                 << tcpu_bf16_to_f32(expected[i]);
  }
  EXPECT_EQ(y[s.n], kPoisonBf16) << "wrote past y[n - 1]";
}

class GemvTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK); }
};

TEST_F(GemvTest, RunsTheExpectedVariant) {
  // At 128 bits the dotprod kernel beats SVE2 (fewer instructions), from 256 on SVE2 wins.
  const std::string i8 = testing::ExpectedVariant({{"nosve", "gemv_i8:dotprod"},
                                                   {"n1", "gemv_i8:dotprod"},
                                                   {"vl128", "gemv_i8:dotprod"},
                                                   {"a64fx", "gemv_i8:neon"},
                                                   {"a53", "gemv_i8:neon"},
                                                   {"*", "gemv_i8:sve2"}});
  if (i8.empty()) GTEST_SKIP() << "not run by the QEMU matrix";
  EXPECT_EQ(GemvI8Variant(), i8);
  // The W8A8 GEMV runs on the same int8 kernel.
  EXPECT_EQ(std::string(GemvBf16W8Variant()), "gemv_bf16_w8:" + i8.substr(i8.find(':') + 1));
}

TEST_F(GemvTest, I8MatchesModelOnAllShapes) {
  uint32_t seed = 100;
  for (const Shape& s : AllShapes()) ExpectGemvI8Matches(s, seed += 3);
}

TEST_F(GemvTest, I8ExtremesAreExact) {
  // -128 * -128 everywhere: the largest products, where an int16 pair sum would overflow.
  for (const Shape& s : {Shape{5, 1000}, Shape{8, 4096}}) {
    SCOPED_TRACE(Describe(s));
    const std::vector<int8_t> w(s.n * s.k, -128), x(s.k, -128);
    const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
    std::vector<int32_t> y(s.n + 1, kPoisonI32);
    ASSERT_EQ(tcpu_gemv_i8(packed.data(), x.data(), y.data(), s.n, s.k), TCPU_OK);
    for (int64_t i = 0; i < s.n; ++i) EXPECT_EQ(y[i], 16384 * s.k);
    EXPECT_EQ(y[s.n], kPoisonI32);
  }
  // 127 * -128 alternating with -128 * -128.
  const int64_t n = 4, k = 24;
  std::vector<int8_t> w(n * k), x(k);
  for (int64_t j = 0; j < k; ++j) x[j] = -128;
  for (int64_t i = 0; i < n * k; ++i) w[i] = (i % 2 == 0) ? 127 : -128;
  const std::vector<uint8_t> packed = Pack(w, n, k);
  std::vector<int32_t> y(n, kPoisonI32);
  ASSERT_EQ(tcpu_gemv_i8(packed.data(), x.data(), y.data(), n, k), TCPU_OK);
  EXPECT_EQ(y, ModelGemvI8(w, x, n, k));
}

TEST_F(GemvTest, I8LongRowsWithSmallN) {
  ExpectGemvI8Matches({3, 65536 + 13}, 7);
  ExpectGemvI8Matches({1, (int64_t{1} << 20) + 5}, 8);  // no K limit (stack buffers cap others)
}

TEST_F(GemvTest, I8IdenticalForEveryThreadCount) {
  // Big enough to be split (n * k >= 2^18), with row and k tails; the last one splits into
  // many tiny blocks.
  for (const Shape& s : {Shape{301, 1003}, Shape{258, 2056}, Shape{40001, 7}}) {
    const GemvI8Problem problem = RandomGemvI8Problem(s, 77);  // Once (QEMU time).
    for (int threads : testing::kThreadCounts) {
      SCOPED_TRACE("threads = " + std::to_string(threads));
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      ExpectGemvI8Matches(s, problem);
    }
  }
}

TEST_F(GemvTest, I8ScratchDoesNotLeakBetweenShapes) {
  // A long x leaves prepared data in the arena; a shorter call must not read it.
  ExpectGemvI8Matches({9, 4000}, 5);
  ExpectGemvI8Matches({9, 3}, 6);
  ExpectGemvI8Matches({9, 4000}, 8);
}

// Every kernel compiled in that this CPU can run, called directly: the ones dispatch does not
// pick here (e.g. ref and neon on an SVE2 machine) are checked too.
TEST_F(GemvTest, EveryRunnableKernelMatchesModel) {
  tcpu_cpu_info info;
  ASSERT_EQ(tcpu_cpu_info_get(&info), TCPU_OK);
  std::vector<std::pair<const char*, const gemv::GemvKernel*>> kernels = {{"ref", &gemv::kGemvRef}};
#if defined(__aarch64__)
  kernels.push_back({"neon", &gemv::kGemvNeon});
  if (info.hw_features & TCPU_FEATURE_DOTPROD) kernels.push_back({"dotprod", &gemv::kGemvDotprod});
  if (info.hw_features & TCPU_FEATURE_SVE2) kernels.push_back({"sve2", &gemv::kGemvSve2});
#endif
  uint32_t seed = 500;
  for (const auto& [name, kernel] : kernels) {
    SCOPED_TRACE(name);
    for (const Shape& s : AllShapes()) {
      SCOPED_TRACE(Describe(s));
      const std::vector<int8_t> w = RandomInt8(s.n * s.k, ++seed);
      const std::vector<int8_t> x = RandomInt8(s.k, ++seed);
      const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
      PackedWeightsView view;
      ASSERT_EQ(ViewPackedWeights("test", packed.data(), s.n, s.k, &view), TCPU_OK);
      std::vector<int8_t> prepared(view.layout.chunks * kernel->prepared_x_bytes_per_chunk + 1);
      if (kernel->prepare_x != nullptr)
        kernel->prepare_x(x.data(), s.k, view.layout.chunks, prepared.data());
      std::vector<int32_t> y(s.n + 1, kPoisonI32);
      gemv::I8GemvArgs args;
      args.w = view.data;
      args.chunks = view.layout.chunks;
      args.n = s.n;
      args.k = s.k;
      args.x = x.data();
      args.x_prepared = prepared.data();
      args.y_i32 = y.data();
      kernel->run_blocks(args, 0, view.layout.blocks);
      const std::vector<int32_t> expected = ModelGemvI8(w, x, s.n, s.k);
      for (int64_t i = 0; i < s.n; ++i) ASSERT_EQ(y[i], expected[i]) << "row " << i;
      ASSERT_EQ(y[s.n], kPoisonI32);
    }
  }
}

// Every quantizer against the scalar model, including ties, NaN, infinities and overflow.
TEST_F(GemvTest, EveryQuantizerMatchesModel) {
  std::vector<std::pair<const char*, const gemv::GemvKernel*>> kernels = {{"ref", &gemv::kGemvRef}};
#if defined(__aarch64__)
  kernels.push_back({"neon", &gemv::kGemvNeon});
#endif
  std::vector<uint16_t> x = RandomBf16(203, 9);
  x[3] = 0x7fc0;   // NaN
  x[17] = 0xffc1;  // -NaN
  x[40] = 0x7f80;  // +inf, in the absmax only where kept below
  for (const auto& [name, kernel] : kernels) {
    SCOPED_TRACE(name);
    for (float inv : {1.0f, 0.5f, 3.0f, 1e30f, 0.0f}) {
      std::vector<int8_t> q(x.size() + 1, 99), expected(x.size());
      kernel->quantize_bf16(x.data(), static_cast<int64_t>(x.size()), inv, q.data());
      for (size_t j = 0; j < x.size(); ++j) {
        const float v = tcpu_bf16_to_f32(x[j]) * inv;
        float r = std::isnan(v) ? 0.0f : std::nearbyint(v);
        r = r < -127.0f ? -127.0f : (r > 127.0f ? 127.0f : r);
        ASSERT_EQ(q[j], static_cast<int8_t>(r)) << "j = " << j << ", inv = " << inv;
      }
      EXPECT_EQ(q[x.size()], 99);
    }
    EXPECT_EQ(kernel->absmax_bf16(x.data(), static_cast<int64_t>(x.size())), INFINITY);
    std::vector<uint16_t> finite = x;
    finite[40] = tcpu_f32_to_bf16(-300.0f);
    EXPECT_EQ(kernel->absmax_bf16(finite.data(), static_cast<int64_t>(finite.size())), 300.0f);
    const uint16_t nans[] = {0x7fc0, 0xffff, 0x7f81, 0x8000, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0,
                             0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0};
    EXPECT_EQ(kernel->absmax_bf16(nans, 17), 0.0f);
  }
}

TEST_F(GemvTest, Bf16W8MatchesModelOnAllShapes) {
  uint32_t seed = 900;
  for (const Shape& s : AllShapes()) ExpectGemvBf16W8Matches(s, seed += 5);
}

TEST_F(GemvTest, Bf16W8RoundsHalfToEven) {
  // absmax 127 makes inv exactly 1, so x itself is rounded: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.
  const int64_t n = 1, k = 8;
  const float xs[k] = {127.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 3.5f};
  std::vector<uint16_t> x(k);
  for (int64_t j = 0; j < k; ++j) x[j] = tcpu_f32_to_bf16(xs[j]);
  // One weight row picks out every q with a distinct power of two.
  std::vector<int8_t> w = {0, 1, 2, 4, 8, 16, 32, 64};
  const std::vector<float> scales = {1.0f};
  const std::vector<uint8_t> packed = Pack(w, n, k);
  uint16_t y = kPoisonBf16;
  ASSERT_EQ(tcpu_gemv_bf16_w8(packed.data(), scales.data(), x.data(), &y, n, k), TCPU_OK);
  // q = [127, 0, 2, 2, 0, -2, -2, 4]: acc = 0 + 4 + 8 + 0 - 32 - 64 + 256 = 172.
  EXPECT_EQ(y, tcpu_f32_to_bf16(172.0f));
}

TEST_F(GemvTest, Bf16W8ZeroActivationGivesZeros) {
  const int64_t n = 7, k = 19;
  const std::vector<int8_t> w = RandomInt8(n * k, 3);
  const std::vector<float> scales = RandomScales(n, 4);
  std::vector<uint16_t> x(k, 0);
  x[5] = 0x8000;  // -0.0
  const std::vector<uint8_t> packed = Pack(w, n, k);
  std::vector<uint16_t> y(n + 1, kPoisonBf16);
  ASSERT_EQ(tcpu_gemv_bf16_w8(packed.data(), scales.data(), x.data(), y.data(), n, k), TCPU_OK);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(y[i], 0);
  EXPECT_EQ(y[n], kPoisonBf16);
}

TEST_F(GemvTest, Bf16W8IgnoresNanInTheScale) {
  const int64_t n = 6, k = 37;
  const std::vector<int8_t> w = RandomInt8(n * k, 13, -127, 127);
  const std::vector<float> scales = RandomScales(n, 14);
  std::vector<uint16_t> x = RandomBf16(k, 15);
  x[4] = 0x7fc0;
  x[30] = 0xffc0;
  const std::vector<uint8_t> packed = Pack(w, n, k);
  std::vector<uint16_t> y(n + 1, kPoisonBf16);
  ASSERT_EQ(tcpu_gemv_bf16_w8(packed.data(), scales.data(), x.data(), y.data(), n, k), TCPU_OK);
  const std::vector<uint16_t> expected = ModelGemvBf16W8(w, scales, x, n, k);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(y[i], expected[i]) << i;
  EXPECT_EQ(y[n], kPoisonBf16);
}

TEST_F(GemvTest, Bf16W8LongRowsWithSmallN) { ExpectGemvBf16W8Matches({2, 70001}, 31); }

TEST_F(GemvTest, Bf16W8IdenticalForEveryThreadCount) {
  for (int threads : testing::kThreadCounts) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    ExpectGemvBf16W8Matches({299, 1030}, 41);
  }
}

TEST_F(GemvTest, Bf16W8ScratchSize) {
  const int64_t size = tcpu_gemv_bf16_w8_scratch_size(1536);
  EXPECT_GE(size, 1536);
  EXPECT_LE(size, 1536 + 64 + 4 * 1536);
  // Reserved up front, a call never grows the arena.
  ASSERT_EQ(tcpu_scratch_reserve(tcpu_gemv_bf16_w8_scratch_size(2001)), TCPU_OK);
  const int64_t capacity = tcpu_scratch_capacity();
  ExpectGemvBf16W8Matches({5, 2001}, 3);
  EXPECT_EQ(tcpu_scratch_capacity(), capacity);
  EXPECT_EQ(tcpu_gemv_bf16_w8_scratch_size(0), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_gemv_bf16_w8_scratch_size(-5), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_gemv_bf16_w8_scratch_size(std::numeric_limits<int64_t>::max()),
            TCPU_ERR_SIZE_OVERFLOW);
}

// --- Bad arguments: one test per case, each with its exact status. ---

class GemvArgsTest : public GemvTest {
 protected:
  static constexpr int64_t kN = 8, kK = 16;
  std::vector<int8_t> w_ = RandomInt8(kN * kK, 1);
  std::vector<uint8_t> packed_ = Pack(w_, kN, kK);
  std::vector<int8_t> x_ = RandomInt8(kK, 2);
  std::vector<int32_t> y_ = std::vector<int32_t>(kN + 1, kPoisonI32);
  std::vector<uint16_t> xb_ = RandomBf16(kK, 3);
  std::vector<uint16_t> yb_ = std::vector<uint16_t>(kN + 1, kPoisonBf16);
  std::vector<float> scales_ = RandomScales(kN, 4);

  int GemvI8(int64_t n, int64_t k) {
    return tcpu_gemv_i8(packed_.data(), x_.data(), y_.data(), n, k);
  }
  int GemvBf16(int64_t n, int64_t k) {
    return tcpu_gemv_bf16_w8(packed_.data(), scales_.data(), xb_.data(), yb_.data(), n, k);
  }
  void ExpectOutputsUntouched() {
    for (int32_t v : y_) EXPECT_EQ(v, kPoisonI32);
    for (uint16_t v : yb_) EXPECT_EQ(v, kPoisonBf16);
  }
};

TEST_F(GemvArgsTest, I8NullPackedWeights) {
  EXPECT_EQ(tcpu_gemv_i8(nullptr, x_.data(), y_.data(), kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemv_i8: packed_w is NULL");
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, I8NullX) {
  EXPECT_EQ(tcpu_gemv_i8(packed_.data(), nullptr, y_.data(), kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemv_i8: x is NULL");
}

TEST_F(GemvArgsTest, I8NullY) {
  EXPECT_EQ(tcpu_gemv_i8(packed_.data(), x_.data(), nullptr, kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemv_i8: y is NULL");
}

TEST_F(GemvArgsTest, I8ZeroN) {
  EXPECT_EQ(GemvI8(0, kK), TCPU_ERR_INVALID_SIZE);
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, I8NegativeN) { EXPECT_EQ(GemvI8(-8, kK), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, I8ZeroK) { EXPECT_EQ(GemvI8(kN, 0), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, I8NegativeK) { EXPECT_EQ(GemvI8(kN, -16), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, I8OverflowingShape) {
  EXPECT_EQ(GemvI8(int64_t{1} << 40, int64_t{1} << 40), TCPU_ERR_SIZE_OVERFLOW);
  EXPECT_EQ(GemvI8(std::numeric_limits<int64_t>::max(), 1), TCPU_ERR_SIZE_OVERFLOW);
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, I8PackedForAnotherK) {
  EXPECT_EQ(GemvI8(kN, kK - 1), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_gemv_i8: packed_w holds n = 8, k = 16 but the call has n = 8, k = 15");
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, I8PackedForAnotherN) {
  EXPECT_EQ(GemvI8(kN - 1, kK), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(GemvI8(kN + 1, kK), TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, I8NotPacked) {
  std::vector<uint8_t> raw(packed_.size(), 0);
  EXPECT_EQ(tcpu_gemv_i8(raw.data(), x_.data(), y_.data(), kN, kK), TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, I8SuccessClearsTheDetail) {
  EXPECT_EQ(GemvI8(0, kK), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(GemvI8(kN, kK), TCPU_OK);
  EXPECT_STREQ(tcpu_last_error_detail(), "");
}

TEST_F(GemvArgsTest, Bf16NullPackedWeights) {
  EXPECT_EQ(tcpu_gemv_bf16_w8(nullptr, scales_.data(), xb_.data(), yb_.data(), kN, kK),
            TCPU_ERR_NULL_POINTER);
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, Bf16NullScales) {
  EXPECT_EQ(tcpu_gemv_bf16_w8(packed_.data(), nullptr, xb_.data(), yb_.data(), kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemv_bf16_w8: w_scales is NULL");
}

TEST_F(GemvArgsTest, Bf16NullX) {
  EXPECT_EQ(tcpu_gemv_bf16_w8(packed_.data(), scales_.data(), nullptr, yb_.data(), kN, kK),
            TCPU_ERR_NULL_POINTER);
}

TEST_F(GemvArgsTest, Bf16NullY) {
  EXPECT_EQ(tcpu_gemv_bf16_w8(packed_.data(), scales_.data(), xb_.data(), nullptr, kN, kK),
            TCPU_ERR_NULL_POINTER);
}

TEST_F(GemvArgsTest, Bf16ZeroN) { EXPECT_EQ(GemvBf16(0, kK), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, Bf16NegativeN) { EXPECT_EQ(GemvBf16(-1, kK), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, Bf16ZeroK) { EXPECT_EQ(GemvBf16(kN, 0), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, Bf16NegativeK) { EXPECT_EQ(GemvBf16(kN, -2), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemvArgsTest, Bf16OverflowingShape) {
  EXPECT_EQ(GemvBf16(int64_t{1} << 33, int64_t{1} << 31), TCPU_ERR_SIZE_OVERFLOW);
  ExpectOutputsUntouched();
}

TEST_F(GemvArgsTest, Bf16PackedForAnotherShape) {
  EXPECT_EQ(GemvBf16(kN, kK + 8), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_gemv_bf16_w8: packed_w holds n = 8, k = 16 but the call has n = 8, k = 24");
  EXPECT_EQ(GemvBf16(kN + 4, kK), TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputsUntouched();
}

}  // namespace
}  // namespace tcpu
