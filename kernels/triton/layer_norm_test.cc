// Triton tutorial 05 (layer_norm.ttir: forward, one row per program, BLOCK_SIZE = 256, rows
// longer than a block loop) against a float64 reference, with Mean and Rstd outputs.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/layer_norm.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr float kPoison = -12345.0f;

TEST(TritonLayerNormTest, MatchesFloat64Reference) {
  const float eps = 1e-5f;
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t rows : {1, 5}) {
      for (int32_t n : {1, 100, 256, 257, 1000}) {
        const int32_t stride = n + 3;
        std::vector<float> x(static_cast<size_t>(rows) * stride), w(n), b(n);
        for (size_t i = 0; i < x.size(); ++i) {
          x[i] = static_cast<float>(std::cos(0.11 * static_cast<double>(i)) * 3.0 + 0.5);
        }
        for (int32_t i = 0; i < n; ++i) {
          w[i] = 1.0f + 0.01f * static_cast<float>(i % 17);
          b[i] = 0.1f * static_cast<float>(i % 5) - 0.2f;
        }
        std::vector<float> y(x.size(), kPoison), mean(rows, kPoison), rstd(rows, kPoison);
        ASSERT_EQ(tcpu_launch__layer_norm_fwd_fused(x.data(), y.data(), w.data(), b.data(),
                                                    mean.data(), rstd.data(), stride, n, eps,
                                                    rows, 1, 1),
                  TCPU_OK);
        for (int32_t r = 0; r < rows; ++r) {
          const float* xr = &x[static_cast<size_t>(r) * stride];
          const float* yr = &y[static_cast<size_t>(r) * stride];
          double m = 0.0, v = 0.0;
          for (int32_t i = 0; i < n; ++i) m += xr[i];
          m /= n;
          for (int32_t i = 0; i < n; ++i) v += (xr[i] - m) * (xr[i] - m);
          v /= n;
          const double rs = 1.0 / std::sqrt(v + eps);
          ASSERT_NEAR(mean[r], m, 1e-5) << "row " << r << " n " << n;
          ASSERT_NEAR(rstd[r], rs, 1e-5 * rs) << "row " << r << " n " << n;
          for (int32_t i = 0; i < n; ++i) {
            const double expected = (xr[i] - m) * rs * w[i] + b[i];
            ASSERT_NEAR(yr[i], expected, 1e-4) << "row " << r << " n " << n << " i " << i;
          }
          for (int32_t i = n; i < stride; ++i) ASSERT_EQ(yr[i], kPoison) << "padding " << i;
        }
      }
    }
  }
}

}  // namespace
