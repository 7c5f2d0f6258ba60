// tcpu_gemm_i8 against a scalar model written here: exact int32 for every shape, thread count
// and kernel this CPU can run. Also built as gemm_disable_i8mm_test (TCPU_DISABLE=i8mm).
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
#include "tcpu/cpu.h"
#include "tcpu/gemv.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::kPoisonI32;
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
      std::vector<int32_t> y(s.m * s.n + 1, kPoisonI32);
      gemm::GemmArgs args;
      args.w = view.data;
      args.chunks = view.layout.chunks;
      args.m = s.m;
      args.n = s.n;
      args.k = s.k;
      args.x = x.data();
      args.x_packed = x_packed.data();
      args.y = y.data();
      for (int64_t row0 = 0; row0 < s.m; row0 += kernel->m_tile) {
        for (int64_t block0 = 0; block0 < view.layout.blocks; block0 += gemm::kTileBlocks) {
          kernel->run_tile(args, row0, std::min(kernel->m_tile, s.m - row0), block0,
                           std::min(gemm::kTileBlocks, view.layout.blocks - block0));
        }
      }
      ExpectMatches(y, ModelGemm(w, x, s), s);
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

}  // namespace
}  // namespace tcpu
