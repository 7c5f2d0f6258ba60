// A split-K int8 matmul (matmul_splitk_i8.ttir: 64x64 tiles, BLOCK_K 32; program (tile, k) sums
// the K blocks k, k + SPLIT_K, ... and adds its partial product into C with
// `tt.atomic_rmw add`), the form GPU users write for skinny outputs. Programs of one tile
// run concurrently on the thread pool and add into the same elements, so every result is
// exact only if each add is atomic: C starts at a known value and must end at that value plus
// A x B exactly, for SPLIT_K 1/3/4 and 1/2/4 threads; the padding of C is untouched.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/matmul_splitk_i8.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

struct Shape {
  int32_t m, n, k;
};

std::vector<int8_t> Int8Values(size_t count, size_t step, size_t seed) {
  std::vector<int8_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<int8_t>((i * step + seed) % 255 - 127);
  return values;
}

TEST(TritonMatmulSplitKTest, AtomicPartialSumsAreExact) {
  constexpr int32_t kPad = 3;
  constexpr int32_t kStart = 1000;  // C's value before the call: the kernel adds to it
  constexpr int32_t kPoison = -7;
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Shape s : {Shape{1, 1, 1}, Shape{37, 45, 70}, Shape{70, 130, 300}}) {
      for (int32_t split_k : {1, 3, 4}) {
        const int32_t lda = s.k + kPad, ldb = s.n + kPad, ldc = s.n + kPad;
        std::vector<int8_t> a = Int8Values(static_cast<size_t>(s.m) * lda, 37, 11);
        std::vector<int8_t> b = Int8Values(static_cast<size_t>(s.k) * ldb, 53, 7);
        std::vector<int32_t> c(static_cast<size_t>(s.m) * ldc, kPoison);
        for (int32_t i = 0; i < s.m; ++i) {
          for (int32_t j = 0; j < s.n; ++j) c[static_cast<size_t>(i) * ldc + j] = kStart;
        }
        const int32_t tiles = ((s.m + 63) / 64) * ((s.n + 63) / 64);
        ASSERT_EQ(tcpu_launch_matmul_splitk_kernel_i8(a.data(), b.data(), c.data(), s.m, s.n, s.k,
                                                      lda, ldb, ldc, tiles, split_k, 1),
                  TCPU_OK);
        for (int32_t i = 0; i < s.m; ++i) {
          for (int32_t j = 0; j < ldc; ++j) {
            int32_t expected = kPoison;
            if (j < s.n) {
              expected = kStart;
              for (int32_t p = 0; p < s.k; ++p) {
                expected += int32_t{a[static_cast<size_t>(i) * lda + p]} *
                            b[static_cast<size_t>(p) * ldb + j];
              }
            }
            ASSERT_EQ(c[static_cast<size_t>(i) * ldc + j], expected)
                << s.m << "x" << s.n << "x" << s.k << " split " << split_k << " at " << i << ","
                << j << " threads " << threads;
          }
        }
      }
    }
  }
}

}  // namespace
