// histogram.ttir: tt.histogram of 64-lane blocks into 16 bins, without a mask (lanes past n
// were loaded as 0 and count in bin 0) and with the load's mask (they do not); values outside
// [0, 16) count nowhere. Against a plain count, for sizes with tails and 1-4 threads.
#include "kernels/triton/histogram.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int kBlock = 64;
constexpr int kBins = 16;

TEST(TritonHistogramTest, CountsEachBlockWithAndWithoutTheMask) {
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int n : {1, 63, 64, 200, 1000}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, n = " + std::to_string(n));
      const int programs = (n + kBlock - 1) / kBlock;
      std::vector<int32_t> x(n);
      uint32_t state = 12345u + n;
      for (int i = 0; i < n; ++i) {
        state = state * 1664525u + 1013904223u;
        x[i] = static_cast<int32_t>(state >> 16) % 23 - 3;  // -3 .. 19
      }
      std::vector<int32_t> all(programs * kBins, -1), valid(programs * kBins, -1);
      ASSERT_EQ(tcpu_launch_histogram_kernel(x.data(), all.data(), valid.data(), n, programs, 1, 1),
                TCPU_OK);
      for (int p = 0; p < programs; ++p) {
        std::vector<int32_t> want_all(kBins, 0), want_valid(kBins, 0);
        for (int l = 0; l < kBlock; ++l) {
          const int i = p * kBlock + l;
          const int32_t value = i < n ? x[i] : 0;
          if (value >= 0 && value < kBins) {
            ++want_all[value];
            if (i < n) ++want_valid[value];
          }
        }
        for (int b = 0; b < kBins; ++b) {
          ASSERT_EQ(all[p * kBins + b], want_all[b]) << "program " << p << ", bin " << b;
          ASSERT_EQ(valid[p * kBins + b], want_valid[b]) << "program " << p << ", bin " << b;
        }
      }
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

}  // namespace
