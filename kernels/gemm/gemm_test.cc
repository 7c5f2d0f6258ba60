// tcpu_gemm_i8 against a scalar model written here: exact int32 for every shape, thread count
// and kernel this CPU can run; tcpu_gemm_w8a8 and tcpu_gemm_bf16_w8a8 bit for bit against the
// GEMV's scalar epilogue on those sums (NaN and infinity included). Also built as
// gemm_disable_i8mm_test (TCPU_DISABLE=i8mm).
#include "tcpu/gemm.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/gemm/gemm_kernels.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/gemv.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::F32Bits;
using ::tcpu::testing::F32FromBits;
using ::tcpu::testing::kPoisonBf16;
using ::tcpu::testing::kPoisonI32;
using ::tcpu::testing::RandomFloat;
using ::tcpu::testing::RandomInt8;

struct Shape {
  int64_t m;
  int64_t n;
  int64_t k;
};

std::string Describe(const Shape& s) {
  return "m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) +
         ", k = " + std::to_string(s.k);
}

// m, n, k with tails against every tile (x rows 2/4/8, w rows 4/8, k 8/16); m, n, k = 1.
const Shape kShapes[] = {
    {1, 1, 1},     {1, 5, 9},     {2, 4, 8},      {3, 7, 15},   {4, 8, 16},   {5, 9, 17},
    {6, 1, 40},    {7, 12, 33},   {8, 8, 64},     {9, 13, 100}, {11, 3, 1},   {13, 17, 129},
    {16, 16, 256}, {17, 23, 255}, {1, 130, 1536}, {8, 33, 257}, {24, 40, 72}, {10, 6, 7},
};

std::vector<Shape> AllShapes() {
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  std::mt19937 rng(4242);
  std::uniform_int_distribution<int64_t> m_dist(1, 20), n_dist(1, 40), k_dist(1, 300);
  for (int i = 0; i < 30; ++i) shapes.push_back({m_dist(rng), n_dist(rng), k_dist(rng)});
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

// y[r][i] = sum_j x[r][j] * w[i][j] in int64, wrapped to int32.
std::vector<int32_t> ModelGemm(const std::vector<int8_t>& w, const std::vector<int8_t>& x,
                               const Shape& s) {
  std::vector<int32_t> y(s.m * s.n);
  for (int64_t r = 0; r < s.m; ++r) {
    for (int64_t i = 0; i < s.n; ++i) {
      int64_t sum = 0;
      for (int64_t j = 0; j < s.k; ++j) sum += int64_t{x[r * s.k + j]} * w[i * s.k + j];
      y[r * s.n + i] = static_cast<int32_t>(static_cast<uint32_t>(sum));
    }
  }
  return y;
}

void ExpectMatches(const std::vector<int32_t>& y, const std::vector<int32_t>& expected,
                   const Shape& s) {
  for (int64_t r = 0; r < s.m; ++r) {
    for (int64_t i = 0; i < s.n; ++i) {
      ASSERT_EQ(y[r * s.n + i], expected[r * s.n + i]) << "y[" << r << "][" << i << "]";
    }
  }
  EXPECT_EQ(y[s.m * s.n], kPoisonI32) << "wrote past y[m - 1][n - 1]";
}

// tcpu_gemm_i8 into a poisoned y with one extra element.
void ExpectGemmMatches(const Shape& s, uint32_t seed) {
  SCOPED_TRACE(Describe(s));
  const std::vector<int8_t> w = RandomInt8(s.n * s.k, seed);
  const std::vector<int8_t> x = RandomInt8(s.m * s.k, seed + 1);
  const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
  std::vector<int32_t> y(s.m * s.n + 1, kPoisonI32);
  ASSERT_EQ(tcpu_gemm_i8(packed.data(), x.data(), y.data(), s.m, s.n, s.k), TCPU_OK)
      << tcpu_last_error_detail();
  ExpectMatches(y, ModelGemm(w, x, s), s);
}

// The W8A8 epilogue's inputs: scales and a bias (the sums come from w and x).
struct Epilogue {
  std::vector<float> x_scales;  // [m]
  std::vector<float> w_scales;  // [n]
  std::vector<float> bias;      // [n]
};

// Random positive scales, x row 0 of a multi-row x at scale 0 (a row that quantized to zeros).
Epilogue RandomEpilogue(const Shape& s, uint32_t seed) {
  Epilogue e{RandomFloat(s.m, seed, 0.0f, 0.1f), RandomFloat(s.n, seed + 1, 0.0f, 0.02f),
             RandomFloat(s.n, seed + 2, -4.0f, 4.0f)};
  if (s.m > 1) e.x_scales[0] = 0.0f;
  return e;
}

// tcpu_gemv_bf16_w8's epilogue on one sum, written out here: two fp32 roundings, then the bias
// (one more) and bf16.
float ModelF32(int32_t acc, float x_scale, float w_scale) {
  const float scaled = static_cast<float>(acc) * x_scale;
  return scaled * w_scale;
}
uint16_t ModelBf16(int32_t acc, float x_scale, float w_scale, const float* bias) {
  float value = ModelF32(acc, x_scale, w_scale);
  if (bias != nullptr) value += *bias;
  return tcpu_f32_to_bf16(value);
}

// The fp32 and bf16 (with and without bias) outputs against the model on the exact sums, bit
// for bit, each into a poisoned y with one extra element.
void ExpectEpiloguesMatch(const std::vector<uint8_t>& packed, const std::vector<int8_t>& x,
                          const std::vector<int32_t>& sums, const Epilogue& e, const Shape& s) {
  std::vector<float> y_f32(s.m * s.n + 1, F32FromBits(kPoisonI32));
  ASSERT_EQ(tcpu_gemm_w8a8(packed.data(), e.w_scales.data(), x.data(), e.x_scales.data(),
                           y_f32.data(), s.m, s.n, s.k),
            TCPU_OK)
      << tcpu_last_error_detail();
  for (int64_t r = 0; r < s.m; ++r) {
    for (int64_t i = 0; i < s.n; ++i) {
      const float expected = ModelF32(sums[r * s.n + i], e.x_scales[r], e.w_scales[i]);
      ASSERT_EQ(F32Bits(y_f32[r * s.n + i]), F32Bits(expected))
          << "fp32 y[" << r << "][" << i << "]";
    }
  }
  EXPECT_EQ(F32Bits(y_f32[s.m * s.n]), static_cast<uint32_t>(kPoisonI32)) << "fp32: wrote past y";
  for (const bool with_bias : {false, true}) {
    SCOPED_TRACE(with_bias ? "bf16 + bias" : "bf16");
    std::vector<uint16_t> y(s.m * s.n + 1, kPoisonBf16);
    ASSERT_EQ(
        tcpu_gemm_bf16_w8a8(packed.data(), e.w_scales.data(), with_bias ? e.bias.data() : nullptr,
                            x.data(), e.x_scales.data(), y.data(), s.m, s.n, s.k),
        TCPU_OK)
        << tcpu_last_error_detail();
    for (int64_t r = 0; r < s.m; ++r) {
      for (int64_t i = 0; i < s.n; ++i) {
        const uint16_t expected = ModelBf16(sums[r * s.n + i], e.x_scales[r], e.w_scales[i],
                                            with_bias ? &e.bias[i] : nullptr);
        ASSERT_EQ(y[r * s.n + i], expected) << "y[" << r << "][" << i << "]";
      }
    }
    EXPECT_EQ(y[s.m * s.n], kPoisonBf16) << "wrote past y[m - 1][n - 1]";
  }
}

class GemmTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK); }
};

TEST_F(GemmTest, RunsTheExpectedVariant) {
  const char* disable = std::getenv("TCPU_DISABLE");
  const bool no_i8mm = disable != nullptr && std::strstr(disable, "i8mm") != nullptr;
  const std::string expected =
      testing::ExpectedVariant({{"n1", "gemm_i8:dotprod"},
                                {"a64fx", "gemm_i8:neon"},
                                {"a53", "gemm_i8:neon"},
                                {"*", no_i8mm ? "gemm_i8:dotprod" : "gemm_i8:i8mm"}});
  if (expected.empty()) GTEST_SKIP() << "not run by the QEMU matrix";
  EXPECT_EQ(GemmI8Variant(), expected);
}

TEST_F(GemmTest, MatchesModelOnAllShapes) {
  uint32_t seed = 10;
  for (const Shape& s : AllShapes()) ExpectGemmMatches(s, seed += 2);
}

TEST_F(GemmTest, W8A8EpiloguesMatchModelOnAllShapes) {
  uint32_t seed = 700;
  for (const Shape& s : AllShapes()) {
    SCOPED_TRACE(Describe(s));
    const std::vector<int8_t> w = RandomInt8(s.n * s.k, ++seed);
    const std::vector<int8_t> x = RandomInt8(s.m * s.k, ++seed);
    ExpectEpiloguesMatch(Pack(w, s.n, s.k), x, ModelGemm(w, x, s), RandomEpilogue(s, seed += 3), s);
  }
}

// Infinite and NaN values take the scalar epilogue's path too: a product that overflows, an
// infinity times a zero weight scale (NaN), NaN biases whose payloads would carry into the
// exponent if they were rounded as numbers (the quiet bit is set, the top bits kept).
TEST_F(GemmTest, W8A8EpiloguesKeepInfinityAndNaN) {
  const Shape s{9, 12, 40};
  const std::vector<int8_t> w = RandomInt8(s.n * s.k, 5), x(s.m * s.k, 127);
  const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
  Epilogue e = RandomEpilogue(s, 6);
  e.x_scales[1] = 3.0e38f;  // row 1: every product overflows
  e.w_scales[2] = 0.0f;     // column 2: row 1 is infinity * 0 = NaN
  e.bias[3] = F32FromBits(0x7fffffffu);
  e.bias[4] = F32FromBits(0xffffffffu);
  e.bias[5] = F32FromBits(0x7f800001u);  // signaling: the addition makes it quiet
  e.bias[6] = -std::numeric_limits<float>::infinity();
  e.bias[7] = F32FromBits(0x7f7fffffu);  // the largest float: rounds to infinity in bf16
  ExpectEpiloguesMatch(packed, x, ModelGemm(w, x, s), e, s);
}

TEST_F(GemmTest, W8A8EpiloguesIdenticalForEveryThreadCount) {
  for (const Shape& s : {Shape{37, 129, 300}, Shape{16, 257, 72}}) {
    const std::vector<int8_t> w = RandomInt8(s.n * s.k, 71), x = RandomInt8(s.m * s.k, 72);
    const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
    const std::vector<int32_t> sums = ModelGemm(w, x, s);
    const Epilogue e = RandomEpilogue(s, 73);
    for (int threads : testing::kThreadCounts) {
      SCOPED_TRACE("threads = " + std::to_string(threads));
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      ExpectEpiloguesMatch(packed, x, sums, e, s);
    }
  }
}

TEST_F(GemmTest, ExtremesAreExact) {
  const Shape s{9, 10, 1000};
  const std::vector<int8_t> w(s.n * s.k, -128), x(s.m * s.k, -128);
  const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
  std::vector<int32_t> y(s.m * s.n + 1, kPoisonI32);
  ASSERT_EQ(tcpu_gemm_i8(packed.data(), x.data(), y.data(), s.m, s.n, s.k), TCPU_OK);
  for (int64_t i = 0; i < s.m * s.n; ++i) ASSERT_EQ(y[i], 16384 * s.k) << i;
  EXPECT_EQ(y[s.m * s.n], kPoisonI32);
}

TEST_F(GemmTest, LongRowsWithSmallShape) { ExpectGemmMatches({3, 5, 65536 + 9}, 3); }

TEST_F(GemmTest, IdenticalForEveryThreadCount) {
  // Large enough to split over the pool (m * n * k >= 2^18), with tails in m, n and k.
  for (const Shape& s : {Shape{37, 129, 300}, Shape{16, 257, 72}, Shape{130, 9, 520}}) {
    for (int threads : testing::kThreadCounts) {
      SCOPED_TRACE("threads = " + std::to_string(threads));
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      ExpectGemmMatches(s, 55);
    }
  }
}

TEST_F(GemmTest, SingleRowMatchesGemv) {
  const int64_t n = 45, k = 77;
  const std::vector<int8_t> w = RandomInt8(n * k, 8), x = RandomInt8(k, 9);
  const std::vector<uint8_t> packed = Pack(w, n, k);
  std::vector<int32_t> y_gemm(n, kPoisonI32), y_model = ModelGemm(w, x, {1, n, k});
  ASSERT_EQ(tcpu_gemm_i8(packed.data(), x.data(), y_gemm.data(), 1, n, k), TCPU_OK);
  EXPECT_EQ(y_gemm, y_model);
}

TEST_F(GemmTest, ScratchSize) {
  const int64_t size = tcpu_gemm_i8_scratch_size(16, 1536);
  EXPECT_GE(size, 0);
  EXPECT_LE(size, 2 * 16 * 1536);
  // Reserved up front, a call never grows the arena.
  ASSERT_EQ(tcpu_scratch_reserve(tcpu_gemm_i8_scratch_size(13, 129)), TCPU_OK);
  const int64_t capacity = tcpu_scratch_capacity();
  ExpectGemmMatches({13, 17, 129}, 21);
  EXPECT_EQ(tcpu_scratch_capacity(), capacity);
  EXPECT_EQ(tcpu_gemm_i8_scratch_size(0, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_gemm_i8_scratch_size(8, 0), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_gemm_i8_scratch_size(-1, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_gemm_i8_scratch_size(8, std::numeric_limits<int64_t>::max()),
            TCPU_ERR_SIZE_OVERFLOW);
}

// Every kernel compiled in that this CPU can run, driven tile by tile as tcpu_gemm_i8 does:
// the ones dispatch does not pick here are checked too.
TEST_F(GemmTest, EveryRunnableKernelMatchesModel) {
  tcpu_cpu_info info;
  ASSERT_EQ(tcpu_cpu_info_get(&info), TCPU_OK);
  std::vector<std::pair<const char*, const gemm::GemmKernel*>> kernels = {{"ref", &gemm::kGemmRef}};
#if defined(__aarch64__)
  kernels.push_back({"neon", &gemm::kGemmNeon});
  if (info.hw_features & TCPU_FEATURE_DOTPROD) kernels.push_back({"dotprod", &gemm::kGemmDotprod});
  if (info.hw_features & TCPU_FEATURE_I8MM) kernels.push_back({"i8mm", &gemm::kGemmI8mm});
#endif
  uint32_t seed = 300;
  for (const auto& [name, kernel] : kernels) {
    SCOPED_TRACE(name);
    for (const Shape& s : AllShapes()) {
      SCOPED_TRACE(Describe(s));
      const std::vector<int8_t> w = RandomInt8(s.n * s.k, ++seed);
      const std::vector<int8_t> x = RandomInt8(s.m * s.k, ++seed);
      const std::vector<uint8_t> packed = Pack(w, s.n, s.k);
      PackedWeightsView view;
      ASSERT_EQ(ViewPackedWeights("test", packed.data(), s.n, s.k, &view), TCPU_OK);
      std::vector<int8_t> x_packed;
      if (kernel->pack_x != nullptr) {
        int64_t bytes = 0;
        ASSERT_TRUE(kernel->packed_x_bytes(s.m, view.layout.chunks, &bytes));
        x_packed.resize(bytes);
        kernel->pack_x(x.data(), s.m, s.k, view.layout.chunks, x_packed.data());
      }
      const Epilogue e = RandomEpilogue(s, ++seed);
      std::vector<int32_t> y(s.m * s.n + 1, kPoisonI32);
      std::vector<float> y_f32(s.m * s.n + 1, F32FromBits(kPoisonI32));
      std::vector<uint16_t> y_bf16(s.m * s.n + 1, kPoisonBf16);
      gemm::GemmArgs args;
      args.w = view.data;
      args.chunks = view.layout.chunks;
      args.m = s.m;
      args.n = s.n;
      args.k = s.k;
      args.x = x.data();
      args.x_packed = x_packed.data();
      args.y = y.data();
      args.y_f32 = y_f32.data();
      args.y_bf16 = y_bf16.data();
      args.x_scales = e.x_scales.data();
      args.w_scales = e.w_scales.data();
      args.bias = e.bias.data();
      for (const gemm::Output output :
           {gemm::Output::kInt32, gemm::Output::kF32, gemm::Output::kBf16}) {
        args.output = output;
        for (int64_t row0 = 0; row0 < s.m; row0 += kernel->m_tile) {
          for (int64_t block0 = 0; block0 < view.layout.blocks; block0 += gemm::kTileBlocks) {
            kernel->run_tile(args, row0, std::min(kernel->m_tile, s.m - row0), block0,
                             std::min(gemm::kTileBlocks, view.layout.blocks - block0));
          }
        }
      }
      const std::vector<int32_t> sums = ModelGemm(w, x, s);
      ExpectMatches(y, sums, s);
      for (int64_t r = 0; r < s.m; ++r) {
        for (int64_t i = 0; i < s.n; ++i) {
          const int32_t acc = sums[r * s.n + i];
          ASSERT_EQ(F32Bits(y_f32[r * s.n + i]),
                    F32Bits(ModelF32(acc, e.x_scales[r], e.w_scales[i])))
              << "fp32 y[" << r << "][" << i << "]";
          ASSERT_EQ(y_bf16[r * s.n + i], ModelBf16(acc, e.x_scales[r], e.w_scales[i], &e.bias[i]))
              << "bf16 y[" << r << "][" << i << "]";
        }
      }
      EXPECT_EQ(F32Bits(y_f32[s.m * s.n]), static_cast<uint32_t>(kPoisonI32));
      EXPECT_EQ(y_bf16[s.m * s.n], kPoisonBf16);
    }
  }
}

// --- Bad arguments: one test per case, each with its exact status. ---

class GemmArgsTest : public GemmTest {
 protected:
  static constexpr int64_t kM = 3, kN = 8, kK = 16;
  std::vector<int8_t> w_ = RandomInt8(kN * kK, 1);
  std::vector<uint8_t> packed_ = Pack(w_, kN, kK);
  std::vector<int8_t> x_ = RandomInt8(kM * kK, 2);
  std::vector<int32_t> y_ = std::vector<int32_t>(kM * kN + 1, kPoisonI32);

  int Gemm(int64_t m, int64_t n, int64_t k) {
    return tcpu_gemm_i8(packed_.data(), x_.data(), y_.data(), m, n, k);
  }
  void ExpectOutputUntouched() {
    for (int32_t v : y_) EXPECT_EQ(v, kPoisonI32);
  }
};

TEST_F(GemmArgsTest, NullPackedWeights) {
  EXPECT_EQ(tcpu_gemm_i8(nullptr, x_.data(), y_.data(), kM, kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_i8: packed_w is NULL");
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, NullX) {
  EXPECT_EQ(tcpu_gemm_i8(packed_.data(), nullptr, y_.data(), kM, kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_i8: x is NULL");
}

TEST_F(GemmArgsTest, NullY) {
  EXPECT_EQ(tcpu_gemm_i8(packed_.data(), x_.data(), nullptr, kM, kN, kK), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_i8: y is NULL");
}

TEST_F(GemmArgsTest, ZeroM) {
  EXPECT_EQ(Gemm(0, kN, kK), TCPU_ERR_INVALID_SIZE);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_i8: m = 0, expected > 0");
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, NegativeM) { EXPECT_EQ(Gemm(-3, kN, kK), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemmArgsTest, ZeroN) { EXPECT_EQ(Gemm(kM, 0, kK), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemmArgsTest, NegativeN) { EXPECT_EQ(Gemm(kM, -8, kK), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemmArgsTest, ZeroK) { EXPECT_EQ(Gemm(kM, kN, 0), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemmArgsTest, NegativeK) { EXPECT_EQ(Gemm(kM, kN, -16), TCPU_ERR_INVALID_SIZE); }

TEST_F(GemmArgsTest, OverflowingNTimesK) {
  EXPECT_EQ(Gemm(1, int64_t{1} << 40, int64_t{1} << 30), TCPU_ERR_SIZE_OVERFLOW);
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, OverflowingMTimesK) {
  EXPECT_EQ(Gemm(int64_t{1} << 40, kN, int64_t{1} << 40), TCPU_ERR_SIZE_OVERFLOW);
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, OverflowingMTimesN) {
  EXPECT_EQ(Gemm(int64_t{1} << 40, int64_t{1} << 40, kK), TCPU_ERR_SIZE_OVERFLOW);
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, PackedForAnotherShape) {
  EXPECT_EQ(Gemm(kM, kN, kK + 1), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_gemm_i8: packed_w holds n = 8, k = 16 but the call has n = 8, k = 17");
  EXPECT_EQ(Gemm(kM, kN - 3, kK), TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, NotPacked) {
  std::vector<uint8_t> raw(packed_.size(), 0x11);
  EXPECT_EQ(tcpu_gemm_i8(raw.data(), x_.data(), y_.data(), kM, kN, kK), TCPU_ERR_INVALID_ARGUMENT);
  ExpectOutputUntouched();
}

TEST_F(GemmArgsTest, W8A8NullScalesOrY) {
  const std::vector<float> w_scales(kN, 0.01f), x_scales(kM, 0.1f);
  std::vector<float> y(kM * kN);
  std::vector<uint16_t> y_bf16(kM * kN);
  EXPECT_EQ(
      tcpu_gemm_w8a8(packed_.data(), nullptr, x_.data(), x_scales.data(), y.data(), kM, kN, kK),
      TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_w8a8: w_scales is NULL");
  EXPECT_EQ(
      tcpu_gemm_w8a8(packed_.data(), w_scales.data(), x_.data(), nullptr, y.data(), kM, kN, kK),
      TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_w8a8: x_scales is NULL");
  EXPECT_EQ(tcpu_gemm_w8a8(packed_.data(), w_scales.data(), x_.data(), x_scales.data(), nullptr, kM,
                           kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_w8a8: y is NULL");
  EXPECT_EQ(tcpu_gemm_bf16_w8a8(packed_.data(), nullptr, nullptr, x_.data(), x_scales.data(),
                                y_bf16.data(), kM, kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_bf16_w8a8: w_scales is NULL");
  EXPECT_EQ(tcpu_gemm_bf16_w8a8(packed_.data(), w_scales.data(), nullptr, x_.data(),
                                x_scales.data(), nullptr, kM, kN, kK),
            TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_gemm_bf16_w8a8: y is NULL");
  // A NULL bias is no bias.
  EXPECT_EQ(tcpu_gemm_bf16_w8a8(packed_.data(), w_scales.data(), nullptr, x_.data(),
                                x_scales.data(), y_bf16.data(), kM, kN, kK),
            TCPU_OK);
}

TEST_F(GemmArgsTest, W8A8PackedForAnotherShape) {
  const std::vector<float> w_scales(kN, 0.01f), x_scales(kM, 0.1f);
  std::vector<float> y(kM * kN);
  EXPECT_EQ(tcpu_gemm_w8a8(packed_.data(), w_scales.data(), x_.data(), x_scales.data(), y.data(),
                           kM, kN, kK + 1),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_gemm_w8a8: packed_w holds n = 8, k = 16 but the call has n = 8, k = 17");
  EXPECT_EQ(tcpu_gemm_w8a8(packed_.data(), w_scales.data(), x_.data(), x_scales.data(), y.data(), 0,
                           kN, kK),
            TCPU_ERR_INVALID_SIZE);
}

}  // namespace
}  // namespace tcpu
