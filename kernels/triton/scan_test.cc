// Scans in TTIR (scan.ttir): tl.cumsum over blocks of 256 (f32, masked tail), and a reverse
// two-operand scan along axis 1 of an 8x64 tile (suffix max with its index, ties to the
// later element) — against sequential references.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/scan.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr float kPoison = -12345.0f;

TEST(TritonScanTest, CumsumPerBlockMatchesSequentialSum) {
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t n : {1, 100, 256, 700}) {
      std::vector<float> x(n), y(n + 16, kPoison);
      for (int32_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 7) % 11) - 4.5f;
      ASSERT_EQ(tcpu_launch_cumsum_kernel(x.data(), y.data(), n, (n + 255) / 256, 1, 1), TCPU_OK);
      double sum = 0.0, magnitude = 0.0;
      for (int32_t i = 0; i < n; ++i) {
        if (i % 256 == 0) sum = magnitude = 0.0;
        sum += x[i];
        magnitude += std::fabs(x[i]);
        ASSERT_NEAR(y[i], sum, 1e-6 * magnitude) << "n " << n << " i " << i;
      }
      for (int32_t i = n; i < n + 16; ++i) ASSERT_EQ(y[i], kPoison) << "past the end at " << i;
    }
  }
}

TEST(TritonScanTest, ReverseTwoOperandScanAlongRows) {
  const int32_t stride = 200;  // row stride of x; y holds values at +0 and indices at +64
  std::vector<int32_t> x(8 * stride), y(8 * stride, -1);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>((i * 29) % 17) - 8;
  ASSERT_EQ(tcpu_launch_row_suffix_max_kernel(x.data(), y.data(), stride, 1, 1, 1), TCPU_OK);
  for (int32_t r = 0; r < 8; ++r) {
    int32_t best = 0, best_index = -1;
    for (int32_t c = 63; c >= 0; --c) {
      const int32_t v = x[r * stride + c];
      if (best_index < 0 || v > best) {
        best = v;
        best_index = c;
      }
      ASSERT_EQ(y[r * stride + c], best) << r << "," << c;
      ASSERT_EQ(y[r * stride + 64 + c], best_index) << r << "," << c;
    }
    for (int32_t c = 128; c < stride; ++c) ASSERT_EQ(y[r * stride + c], -1) << r << "," << c;
  }
}

}  // namespace
