// Triton tutorial 03 (matmul_{f32,bf16,i8}.ttir: 16x32 tiles, BLOCK_K = 32, grouped program
// ids with GROUP_SIZE_M = 4, ragged masks) against references: f32 and bf16 (f32
// accumulation, bf16 output) within rounding of a float64 sum, int8 (int32 accumulation)
// exactly. Shapes with tails in M, N and K, padded strides, 1/2/4 threads; nothing outside
// C's M x N block is written. K = 293 (9 whole K steps and a tail) runs the i8mm int8
// matmul's unmasked steps eight at a time once, then one unmasked and one masked step.
// linear_i8.ttir is the LLM layer's form of the int8 product, y = x w^T with w as [N, K]
// (tl.dot(x, tl.trans(w))), in 8x8 tiles.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/linear_i8.h"
#include "kernels/triton/matmul_bf16.h"
#include "kernels/triton/matmul_f32.h"
#include "kernels/triton/matmul_i8.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

struct Shape {
  int32_t m, n, k;
};
constexpr Shape kShapes[] = {{1, 1, 1},     {16, 32, 32}, {37, 45, 70},
                             {64, 96, 128}, {5, 70, 33},  {37, 45, 293}};
constexpr int32_t kPad = 3;  // extra elements per row of every matrix

int32_t Grid(const Shape& s) { return ((s.m + 15) / 16) * ((s.n + 31) / 32); }

// Runs `launch` for every shape and thread count; `check(shape, threads)` verifies.
template <typename Launch>
void ForShapesAndThreads(Launch&& launch) {
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Shape& shape : kShapes) launch(shape, threads);
  }
}

double Value(int64_t i, double scale) { return std::sin(0.7 * static_cast<double>(i)) * scale; }

TEST(TritonMatmulTest, F32MatchesFloat64Reference) {
  ForShapesAndThreads([](const Shape& s, int threads) {
    const int32_t lda = s.k + kPad, ldb = s.n + kPad, ldc = s.n + kPad;
    std::vector<float> a(static_cast<size_t>(s.m) * lda), b(static_cast<size_t>(s.k) * ldb);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(Value(i, 1.0));
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(Value(i + 99, 1.0));
    std::vector<float> c(static_cast<size_t>(s.m) * ldc, -1.0f);
    ASSERT_EQ(tcpu_launch_matmul_kernel_f32(a.data(), b.data(), c.data(), s.m, s.n, s.k, lda,
                                            ldb, ldc, Grid(s), 1, 1),
              TCPU_OK);
    for (int32_t i = 0; i < s.m; ++i) {
      for (int32_t j = 0; j < ldc; ++j) {
        const float got = c[static_cast<size_t>(i) * ldc + j];
        if (j >= s.n) {
          ASSERT_EQ(got, -1.0f) << "wrote C padding at " << i << "," << j;
          continue;
        }
        double sum = 0.0, magnitude = 0.0;
        for (int32_t p = 0; p < s.k; ++p) {
          const double term = double{a[static_cast<size_t>(i) * lda + p]} *
                              b[static_cast<size_t>(p) * ldb + j];
          sum += term;
          magnitude += std::fabs(term);
        }
        ASSERT_NEAR(got, sum, 1e-6 * magnitude + 1e-7)
            << s.m << "x" << s.n << "x" << s.k << " at " << i << "," << j << " threads "
            << threads;
      }
    }
  });
}

TEST(TritonMatmulTest, Bf16AccumulatesInF32) {
  ForShapesAndThreads([](const Shape& s, int threads) {
    const int32_t lda = s.k + kPad, ldb = s.n + kPad, ldc = s.n + kPad;
    std::vector<uint16_t> a(static_cast<size_t>(s.m) * lda), b(static_cast<size_t>(s.k) * ldb);
    for (size_t i = 0; i < a.size(); ++i) a[i] = tcpu_f32_to_bf16(static_cast<float>(Value(i, 2.0)));
    for (size_t i = 0; i < b.size(); ++i) {
      b[i] = tcpu_f32_to_bf16(static_cast<float>(Value(i + 5, 2.0)));
    }
    std::vector<uint16_t> c(static_cast<size_t>(s.m) * ldc, 0xFFFF);
    ASSERT_EQ(tcpu_launch_matmul_kernel_bf16(a.data(), b.data(), c.data(), s.m, s.n, s.k, lda,
                                             ldb, ldc, Grid(s), 1, 1),
              TCPU_OK);
    for (int32_t i = 0; i < s.m; ++i) {
      for (int32_t j = 0; j < ldc; ++j) {
        const uint16_t got = c[static_cast<size_t>(i) * ldc + j];
        if (j >= s.n) {
          ASSERT_EQ(got, 0xFFFF) << "wrote C padding at " << i << "," << j;
          continue;
        }
        double sum = 0.0, magnitude = 0.0;
        for (int32_t p = 0; p < s.k; ++p) {
          const double term = double{tcpu_bf16_to_f32(a[static_cast<size_t>(i) * lda + p])} *
                              tcpu_bf16_to_f32(b[static_cast<size_t>(p) * ldb + j]);
          sum += term;
          magnitude += std::fabs(term);
        }
        // One bf16 rounding of the result plus f32 accumulation error.
        ASSERT_NEAR(tcpu_bf16_to_f32(got), sum, std::fabs(sum) / 128.0 + 1e-6 * magnitude)
            << s.m << "x" << s.n << "x" << s.k << " at " << i << "," << j << " threads "
            << threads;
      }
    }
  });
}

// int8 values covering the whole range, a different sequence per `seed`.
std::vector<int8_t> Int8Values(size_t count, size_t step, size_t seed) {
  std::vector<int8_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<int8_t>((i * step + seed) % 255 - 127);
  return values;
}

// c[i][j] == sum_p a[i][p] * b_at(p, j) exactly for j < n, and the padding (poisoned with -7
// before the call) untouched.
template <typename BAt>
void ExpectExactInt8Product(const Shape& s, int threads, const std::vector<int8_t>& a, int32_t lda,
                            BAt&& b_at, const std::vector<int32_t>& c, int32_t ldc) {
  for (int32_t i = 0; i < s.m; ++i) {
    for (int32_t j = 0; j < ldc; ++j) {
      int32_t expected = -7;
      if (j < s.n) {
        expected = 0;
        for (int32_t p = 0; p < s.k; ++p) {
          expected += int32_t{a[static_cast<size_t>(i) * lda + p]} * b_at(p, j);
        }
      }
      ASSERT_EQ(c[static_cast<size_t>(i) * ldc + j], expected)
          << s.m << "x" << s.n << "x" << s.k << " at " << i << "," << j << " threads " << threads;
    }
  }
}

TEST(TritonMatmulTest, Int8AccumulatesExactlyInInt32) {
  ForShapesAndThreads([](const Shape& s, int threads) {
    const int32_t lda = s.k + kPad, ldb = s.n + kPad, ldc = s.n + kPad;
    std::vector<int8_t> a = Int8Values(static_cast<size_t>(s.m) * lda, 37, 11);
    std::vector<int8_t> b = Int8Values(static_cast<size_t>(s.k) * ldb, 53, 7);
    std::vector<int32_t> c(static_cast<size_t>(s.m) * ldc, -7);
    ASSERT_EQ(tcpu_launch_matmul_kernel_i8(a.data(), b.data(), c.data(), s.m, s.n, s.k, lda, ldb,
                                           ldc, Grid(s), 1, 1),
              TCPU_OK);
    auto b_at = [&](int32_t p, int32_t j) { return b[static_cast<size_t>(p) * ldb + j]; };
    ExpectExactInt8Product(s, threads, a, lda, b_at, c, ldc);
  });
}

TEST(TritonMatmulTest, LinearInt8IsXTimesWTransposed) {
  ForShapesAndThreads([](const Shape& s, int threads) {
    const int32_t ldx = s.k + kPad, ldw = s.k + kPad, ldy = s.n + kPad;
    std::vector<int8_t> x = Int8Values(static_cast<size_t>(s.m) * ldx, 37, 11);
    std::vector<int8_t> w = Int8Values(static_cast<size_t>(s.n) * ldw, 53, 7);
    std::vector<int32_t> y(static_cast<size_t>(s.m) * ldy, -7);
    const int32_t grid = ((s.m + 7) / 8) * ((s.n + 7) / 8);
    ASSERT_EQ(tcpu_launch_linear_kernel_i8(x.data(), w.data(), y.data(), s.m, s.n, s.k, ldx, ldw,
                                           ldy, grid, 1, 1),
              TCPU_OK);
    auto w_transposed_at = [&](int32_t p, int32_t j) {
      return w[static_cast<size_t>(j) * ldw + p];
    };
    ExpectExactInt8Product(s, threads, x, ldx, w_transposed_at, y, ldy);
  });
}

// The int8 kernels are also compiled as SMMLA (i8mm) and SDOT (dotprod) tiles: the launchers
// must pick the best the QEMU variant's CPU has (TCPU_EXPECT_FEATURES, set by the matrix).
TEST(TritonMatmulTest, Int8RunsTheBestVariantForThisCpu) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const std::string list = std::string(",") + features + ",";
  const std::string variant = list.find(",i8mm,") != std::string::npos      ? "i8mm"
                              : list.find(",dotprod,") != std::string::npos ? "dotprod"
                                                                            : "baseline";
  EXPECT_EQ(tcpu_variant_matmul_kernel_i8(), "matmul_kernel_i8:" + variant);
  EXPECT_EQ(tcpu_variant_linear_kernel_i8(), "linear_kernel_i8:" + variant);
  EXPECT_STREQ(tcpu_variant_matmul_kernel_f32(), "matmul_kernel_f32:baseline");
}

// The bf16 kernel is also compiled as BFMMLA tiles: run wherever the CPU has bf16.
TEST(TritonMatmulTest, Bf16RunsBfmmlaWhereTheCpuHasBf16) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const bool bf16 = (std::string(",") + features + ",").find(",bf16,") != std::string::npos;
  EXPECT_EQ(tcpu_variant_matmul_kernel_bf16(),
            std::string("matmul_kernel_bf16:") + (bf16 ? "bf16" : "baseline"));
}

}  // namespace
