// Triton tutorial 02 (softmax.ttir: one row per program step, BLOCK_SIZE = 1024) against a
// float64 reference: ragged rows, padded strides, grids smaller than the row count (programs
// loop over rows), 1/2/4 threads giving the same bits; the padding between rows is never
// written.
#include "kernels/triton/softmax.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr float kPoison = -12345.0f;

// Checks `output` against exact softmax in float64 of each row of `input` (`cols` of every
// `stride`), and that the padding between rows still holds kPoison.
void ExpectSoftmax(const std::vector<float>& input, const std::vector<float>& output, int32_t rows,
                   int32_t cols, int32_t stride) {
  for (int32_t r = 0; r < rows; ++r) {
    const float* in = &input[static_cast<size_t>(r) * stride];
    const float* out = &output[static_cast<size_t>(r) * stride];
    double max = in[0], sum = 0.0;
    for (int32_t c = 0; c < cols; ++c) max = std::fmax(max, in[c]);
    for (int32_t c = 0; c < cols; ++c) sum += std::exp(in[c] - max);
    for (int32_t c = 0; c < cols; ++c) {
      const double expected = std::exp(in[c] - max) / sum;
      ASSERT_NEAR(out[c], expected, 2e-6 * expected + 1e-9)
          << "rows " << rows << " cols " << cols << " at " << r << "," << c;
    }
    for (int32_t c = cols; c < stride; ++c) {
      ASSERT_EQ(out[c], kPoison) << "wrote into the padding of row " << r;
    }
  }
}

TEST(TritonSoftmaxTest, MatchesFloat64Reference) {
  // 11 rows: more than a grid of 4 (its programs loop over rows, 3, 3, 3 and 2 of them), and
  // a grid of 11 splits unevenly over 2 and 4 threads (tcpu_triton_launch: one range each).
  for (int32_t rows : {1, 3, 11}) {
    for (int32_t cols : {1, 5, 781, 1024}) {
      const int32_t stride = cols + 7;
      std::vector<float> input(static_cast<size_t>(rows) * stride);
      for (size_t i = 0; i < input.size(); ++i) {
        input[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * 6.0);
      }
      // The first run (1 thread, grid 1) against float64; every other thread count and grid
      // must give its bits, padding included (each row is one program step whichever program
      // and thread runs it), which costs QEMU a compare instead of a reference.
      std::vector<float> first;
      for (int threads : {1, 2, 4}) {
        ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
        for (int32_t grid : {1, 4, rows}) {
          std::vector<float> output(input.size(), kPoison);
          ASSERT_EQ(tcpu_launch_softmax_kernel(output.data(), input.data(), stride, stride, rows,
                                               cols, grid, 1, 1),
                    TCPU_OK);
          if (first.empty()) {
            ASSERT_NO_FATAL_FAILURE(ExpectSoftmax(input, output, rows, cols, stride));
            first = output;
          } else {
            ASSERT_EQ(std::memcmp(output.data(), first.data(), output.size() * sizeof(float)), 0)
                << "rows " << rows << " cols " << cols << ": " << threads << " threads, grid "
                << grid << " differ from 1 thread, grid 1";
          }
        }
      }
    }
  }
}

}  // namespace
