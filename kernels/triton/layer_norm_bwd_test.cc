// Triton tutorial 05's `_layer_norm_bwd_dwdb` at 256x256 blocks (layer_norm_bwd_dwdb.ttir):
// each program sums a 256-column strip of the partial dW and dB rows over all M rows, in a
// loop over 256-row blocks that carries two 256x256 accumulators. tt-strip-mine-tiles runs it
// in column chunks and row chunks, the row chunks' partial sums combined in order. Checked
// against float64 column sums, with tails in M and N, 1 and 4 threads, and the outputs'
// padding untouched.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/layer_norm_bwd_dwdb.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

TEST(TritonLayerNormBackwardTest, DwDbAreColumnSums) {
  struct Shape {
    int32_t m, n;
  };
  constexpr float kPoison = -77.0f;
  constexpr int32_t kPad = 5;
  for (int threads : {1, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Shape s : {Shape{1, 1}, Shape{3, 300}, Shape{300, 70}, Shape{513, 257}}) {
      std::vector<float> dw(static_cast<size_t>(s.m) * s.n), db(dw.size());
      for (size_t i = 0; i < dw.size(); ++i) {
        dw[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
        db[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i)) * 3.0);
      }
      std::vector<float> final_dw(static_cast<size_t>(s.n) + kPad, kPoison);
      std::vector<float> final_db(final_dw);
      const int32_t grid = (s.n + 255) / 256;
      ASSERT_EQ(tcpu_launch__layer_norm_bwd_dwdb(dw.data(), db.data(), final_dw.data(),
                                                 final_db.data(), s.m, s.n, grid, 1, 1),
                TCPU_OK);
      for (int32_t j = 0; j < s.n + kPad; ++j) {
        if (j >= s.n) {
          ASSERT_EQ(final_dw[j], kPoison) << "wrote past N at " << j;
          ASSERT_EQ(final_db[j], kPoison) << "wrote past N at " << j;
          continue;
        }
        double sum_dw = 0.0, sum_db = 0.0, magnitude = 0.0;
        for (int32_t i = 0; i < s.m; ++i) {
          sum_dw += dw[static_cast<size_t>(i) * s.n + j];
          sum_db += db[static_cast<size_t>(i) * s.n + j];
          magnitude += std::fabs(db[static_cast<size_t>(i) * s.n + j]) + 1.0;
        }
        // f32 sums of up to 513 terms in some order.
        const double tolerance = 1e-6 * magnitude;
        ASSERT_NEAR(final_dw[j], sum_dw, tolerance)
            << s.m << "x" << s.n << " column " << j << " threads " << threads;
        ASSERT_NEAR(final_db[j], sum_db, tolerance)
            << s.m << "x" << s.n << " column " << j << " threads " << threads;
      }
    }
  }
}

}  // namespace
