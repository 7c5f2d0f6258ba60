// masked_rows.ttir: masks whose lanes on are one interval of a 1-D row (`lo <= offs < hi`
// written with signed comparisons in either operand order), which the memory lowering copies
// over that interval with no test per lane (dialect/README.md, stage 6), and a tile's row mask
// ANDed with its column mask, copied lane by lane. Every lane must read or write exactly as its
// own mask bit says, wherever the window lies: before, across or past each 64-lane block, empty
// or reversed.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/masked_rows.h"
#include "tcpu/status.h"

namespace {

constexpr int kBlock = 64;
constexpr int kPrograms = 3;
constexpr int kLanes = kBlock * kPrograms;
constexpr float kUntouched = -7.0f;

// Window bounds around and inside the three blocks, negative and past the end included.
const std::array<int, 12> kBounds = {-70, -1, 0, 1, 17, 63, 64, 65, 100, 191, 192, 300};

std::vector<float> Source(int lanes) {
  std::vector<float> in(lanes);
  for (int i = 0; i < lanes; ++i) in[i] = static_cast<float>(i) + 0.5f;
  return in;
}

using WindowLaunch = int (*)(void*, void*, int32_t, int32_t, int32_t, int32_t, int32_t);

// Runs `launch` over three blocks for every window of kBounds: lanes in [lo, hi) must hold the
// source, the others `off`.
void CheckWindows(WindowLaunch launch, float off) {
  std::vector<float> in = Source(kLanes);
  for (int lo : kBounds) {
    for (int hi : kBounds) {
      SCOPED_TRACE("window [" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
      std::vector<float> out(kLanes, kUntouched);
      ASSERT_EQ(launch(in.data(), out.data(), lo, hi, kPrograms, 1, 1), TCPU_OK);
      for (int i = 0; i < kLanes; ++i) {
        ASSERT_EQ(out[i], lo <= i && i < hi ? in[i] : off) << "lane " << i;
      }
    }
  }
}

TEST(TritonMaskedRowsTest, LoadReadsExactlyTheWindowAndOtherElsewhere) {
  CheckWindows(tcpu_launch_window_load_kernel, -1.0f);  // the load's `other`
}

TEST(TritonMaskedRowsTest, StoreWritesExactlyTheWindow) {
  CheckWindows(tcpu_launch_window_store_kernel, kUntouched);
}

// A 4 x 64 tile under (row < m) & (col <= n - 1): rows past m and columns past n are neither
// read nor written.
TEST(TritonMaskedRowsTest, TileCopiesRowsBelowMAndColumnsBelowN) {
  constexpr int kRows = 4;
  std::vector<float> in = Source(kRows * kBlock);
  for (int m : {-1, 0, 1, 3, 4, 9}) {
    for (int n : {-5, 0, 1, 31, 63, 64, 80}) {
      SCOPED_TRACE("m " + std::to_string(m) + ", n " + std::to_string(n));
      std::vector<float> out(kRows * kBlock, kUntouched);
      ASSERT_EQ(tcpu_launch_tile_copy_kernel(in.data(), out.data(), m, n, 1, 1, 1), TCPU_OK);
      for (int r = 0; r < kRows; ++r) {
        for (int c = 0; c < kBlock; ++c) {
          const int i = r * kBlock + c;
          ASSERT_EQ(out[i], r < m && c < n ? in[i] : kUntouched) << r << ", " << c;
        }
      }
    }
  }
}

}  // namespace
