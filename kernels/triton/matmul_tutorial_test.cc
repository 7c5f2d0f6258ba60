// Triton tutorial 03 at its GPU autotune configuration (matmul_tutorial_{bf16,f16}.ttir:
// BLOCK_M 128, BLOCK_N 256, BLOCK_K 64, GROUP_SIZE_M 8; offsets wrapped `% M` / `% N` as the
// tutorial does, so A and B are read unmasked along M and N), which tt-strip-mine-tiles runs
// as loops over 16x32 tiles and 32-deep K chunks. Checked against a float64 sum: f32
// accumulation, one rounding to the output type; with `out_dtype=tl.float16`
// (matmul_tutorial_f16acc.ttir) the accumulator is f16, each partial sum may be rounded to f16
// (FMLA .8h where the CPU has fp16), and the tolerance is the sum of those roundings' bounds.
// Shapes with tails in M, N and K (one program's tile, and a second program in M and in N: on
// 4 threads only), padded strides; nothing outside C's M x N block is written.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/matmul_persistent_bf16.h"
#include "kernels/triton/matmul_tutorial_bf16.h"
#include "kernels/triton/matmul_tutorial_f16.h"
#include "kernels/triton/matmul_tutorial_f16acc.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

struct Shape {
  int32_t m, n, k;
};
constexpr Shape kShapes[] = {{1, 1, 1}, {37, 45, 70}, {130, 260, 65}};
constexpr int32_t kPad = 3;  // extra elements per row of every matrix

int32_t Grid(const Shape& s) { return ((s.m + 127) / 128) * ((s.n + 255) / 256); }

double Value(int64_t i, double scale) { return std::sin(0.7 * static_cast<double>(i)) * scale; }

// The element type's storage and its conversions, for one test body over both types.
struct Bf16 {
  using Storage = uint16_t;
  static Storage From(float x) { return tcpu_f32_to_bf16(x); }
  static float To(Storage x) { return tcpu_bf16_to_f32(x); }
  static constexpr double kUnitRoundoff = 1.0 / 256;  // 8 significant bits
  static constexpr bool kAccumulatesInStorage = false;
  static int Launch(Storage* a, Storage* b, Storage* c, const Shape& s, int32_t lda,
                    int32_t ldb, int32_t ldc) {
    return tcpu_launch_matmul_tutorial_kernel_bf16(a, b, c, s.m, s.n, s.k, lda, ldb, ldc, Grid(s),
                                                   1, 1);
  }
};
struct F16 {
  using Storage = _Float16;
  static Storage From(float x) { return static_cast<_Float16>(x); }
  static float To(Storage x) { return static_cast<float>(x); }
  static constexpr double kUnitRoundoff = 1.0 / 2048;  // 11 significant bits
  static constexpr bool kAccumulatesInStorage = false;
  static int Launch(Storage* a, Storage* b, Storage* c, const Shape& s, int32_t lda,
                    int32_t ldb, int32_t ldc) {
    return tcpu_launch_matmul_tutorial_kernel_f16(a, b, c, s.m, s.n, s.k, lda, ldb, ldc, Grid(s),
                                                  1, 1);
  }
};

// out_dtype=tl.float16: the accumulator itself is f16.
struct F16Acc : F16 {
  static constexpr bool kAccumulatesInStorage = true;
  static int Launch(Storage* a, Storage* b, Storage* c, const Shape& s, int32_t lda,
                    int32_t ldb, int32_t ldc) {
    return tcpu_launch_matmul_tutorial_kernel_f16acc(a, b, c, s.m, s.n, s.k, lda, ldb, ldc,
                                                     Grid(s), 1, 1);
  }
};

// Tutorial 09's persistent form (matmul_persistent_bf16.ttir, 128x128x64 tiles): three
// programs stride over every tile with `num_programs`, more tiles than programs or fewer.
struct PersistentBf16 : Bf16 {
  static int Launch(Storage* a, Storage* b, Storage* c, const Shape& s, int32_t lda, int32_t ldb,
                    int32_t ldc) {
    return tcpu_launch_matmul_persistent_kernel_bf16(a, b, c, s.m, s.n, s.k, lda, ldb, ldc, 3, 1,
                                                     1);
  }
};

template <typename T>
void ExpectProduct() {
  using Storage = typename T::Storage;
  const Storage poison = T::From(-1234.0f);
  for (int threads : {1, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Shape& s : kShapes) {
      // The two-program shape once, with the programs on threads of their own.
      if (threads == 1 && s.m > 128) continue;
      const int32_t lda = s.k + kPad, ldb = s.n + kPad, ldc = s.n + kPad;
      std::vector<Storage> a(static_cast<size_t>(s.m) * lda), b(static_cast<size_t>(s.k) * ldb);
      for (size_t i = 0; i < a.size(); ++i) a[i] = T::From(static_cast<float>(Value(i, 2.0)));
      for (size_t i = 0; i < b.size(); ++i) b[i] = T::From(static_cast<float>(Value(i + 5, 2.0)));
      std::vector<Storage> c(static_cast<size_t>(s.m) * ldc, poison);
      ASSERT_EQ(T::Launch(a.data(), b.data(), c.data(), s, lda, ldb, ldc), TCPU_OK);
      for (int32_t i = 0; i < s.m; ++i) {
        for (int32_t j = 0; j < ldc; ++j) {
          const float got = T::To(c[static_cast<size_t>(i) * ldc + j]);
          if (j >= s.n) {
            ASSERT_EQ(got, T::To(poison)) << "wrote C padding at " << i << "," << j;
            continue;
          }
          double sum = 0.0, magnitude = 0.0, partial_sums = 0.0;
          for (int32_t p = 0; p < s.k; ++p) {
            const double term = double{T::To(a[static_cast<size_t>(i) * lda + p])} *
                                T::To(b[static_cast<size_t>(p) * ldb + j]);
            sum += term;
            magnitude += std::fabs(term);
            partial_sums += std::fabs(sum);
          }
          // One rounding of the result to the output type, plus f32 accumulation error; an
          // f16 accumulator may round every partial sum (each by at most half an f16 ulp).
          const double tolerance = T::kAccumulatesInStorage
                                       ? partial_sums * T::kUnitRoundoff + 1e-6 * magnitude
                                       : std::fabs(sum) * T::kUnitRoundoff + 1e-6 * magnitude;
          ASSERT_NEAR(got, sum, tolerance)
              << s.m << "x" << s.n << "x" << s.k << " at " << i << "," << j << " threads "
              << threads;
        }
      }
    }
  }
}

TEST(TritonMatmulTutorialTest, Bf16At128x256x64) { ExpectProduct<Bf16>(); }
TEST(TritonMatmulTutorialTest, F16At128x256x64) { ExpectProduct<F16>(); }
TEST(TritonMatmulTutorialTest, F16AccumulatorAt128x256x64) { ExpectProduct<F16Acc>(); }
TEST(TritonMatmulTutorialTest, PersistentBf16At128x128x64) { ExpectProduct<PersistentBf16>(); }

// The bf16 kernels are also compiled as BFMMLA tiles: the launchers must run them wherever the
// QEMU variant's CPU has bf16 (TCPU_EXPECT_FEATURES, set by the matrix), the baseline
// elsewhere.
TEST(TritonMatmulTutorialTest, Bf16RunsBfmmlaWhereTheCpuHasBf16) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const bool bf16 = (std::string(",") + features + ",").find(",bf16,") != std::string::npos;
  const std::string variant = bf16 ? "bf16" : "baseline";
  EXPECT_EQ(tcpu_variant_matmul_tutorial_kernel_bf16(), "matmul_tutorial_kernel_bf16:" + variant);
  EXPECT_EQ(tcpu_variant_matmul_persistent_kernel_bf16(),
            "matmul_persistent_kernel_bf16:" + variant);
}

// The f16 kernels run FMLAL (f32 accumulator) where the CPU has fp16fml and FMLA .8h (f16
// accumulator) where it has fp16, the baseline elsewhere.
TEST(TritonMatmulTutorialTest, F16RunsFmlalOrFp16WhereTheCpuHasThem) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const std::string list = std::string(",") + features + ",";
  const bool fp16 = list.find(",fp16,") != std::string::npos;
  const bool fp16fml = list.find(",fp16fml,") != std::string::npos;
  EXPECT_EQ(tcpu_variant_matmul_tutorial_kernel_f16(),
            std::string("matmul_tutorial_kernel_f16:") + (fp16fml ? "fp16fml" : "baseline"));
  EXPECT_EQ(tcpu_variant_matmul_tutorial_kernel_f16acc(),
            std::string("matmul_tutorial_kernel_f16acc:") + (fp16 ? "fp16" : "baseline"));
}

}  // namespace
