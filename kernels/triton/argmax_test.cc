// tl.argmax in TTIR (argmax.ttir: a two-operand tt.reduce over values and indices, first
// index on ties, masked lanes -inf) against a sequential reference, one row per program.
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/argmax.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

TEST(TritonArgmaxTest, FirstIndexOfTheRowMaximum) {
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t cols : {1, 3, 300, 512}) {
      const int32_t rows = 9, stride = cols + 5;
      std::vector<float> x(static_cast<size_t>(rows) * stride);
      for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 13) % 29) - 10.0f;
      // Ties: row 2 holds its maximum twice; row 3 is constant.
      if (cols > 2) x[2 * stride + cols - 1] = x[2 * stride] = 1000.0f;
      for (int32_t c = 0; c < cols; ++c) x[3 * stride + c] = -2.5f;
      std::vector<int32_t> index(rows, -1);
      std::vector<float> max(rows, 0.0f);
      ASSERT_EQ(tcpu_launch_argmax_kernel(x.data(), index.data(), max.data(), stride, cols, rows,
                                          1, 1),
                TCPU_OK);
      for (int32_t r = 0; r < rows; ++r) {
        int32_t best = 0;
        for (int32_t c = 1; c < cols; ++c) {
          if (x[r * stride + c] > x[r * stride + best]) best = c;
        }
        ASSERT_EQ(index[r], best) << "row " << r << " cols " << cols;
        ASSERT_EQ(max[r], x[r * stride + best]) << "row " << r << " cols " << cols;
      }
    }
  }
}

}  // namespace
