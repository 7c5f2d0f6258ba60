// Triton tutorial 01 (vector_add.ttir, BLOCK_SIZE = 1024) against the plain sum: sizes with
// tails, one and many programs, 1/2/4 threads; nothing past n is written; bad grids are
// refused before any program runs.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/vector_add.h"
#include "kernels/triton/vector_add_hinted.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int32_t kBlock = 1024;
constexpr float kPoison = -12345.0f;
constexpr int64_t kGuard = 64;  // floats after n that must stay untouched

TEST(TritonVectorAddTest, MatchesScalarSumAcrossGridsAndThreads) {
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t n : {1, 17, 1000, 1024, 1025, 3001}) {
      std::vector<float> x(n + kGuard), y(n + kGuard), out(n + kGuard, kPoison);
      for (int32_t i = 0; i < n + kGuard; ++i) {
        x[i] = 0.25f * static_cast<float>(i) - 3.0f;
        y[i] = 1.0f / static_cast<float>(i + 1);
      }
      const int32_t grid = (n + kBlock - 1) / kBlock;
      ASSERT_EQ(tcpu_launch_add_kernel(x.data(), y.data(), out.data(), n, grid, 1, 1), TCPU_OK);
      for (int32_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], x[i] + y[i]) << "n = " << n << ", i = " << i << ", threads " << threads;
      }
      for (int32_t i = n; i < n + kGuard; ++i) {
        ASSERT_EQ(out[i], kPoison) << "n = " << n << ": wrote past the end at " << i;
      }
    }
  }
}

TEST(TritonVectorAddTest, OneProgramCalledDirectly) {
  // Program 1 of a grid of 2 over 1500 elements writes elements 1024..1499 only.
  std::vector<float> big_x(1500, 1.0f), big_y(1500, 2.0f), big_out(1500, kPoison);
  add_kernel(big_x.data(), big_y.data(), big_out.data(), 1500, 1, 0, 0, 2, 1, 1);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(big_out[i], kPoison) << i;
  for (int i = 1024; i < 1500; ++i) ASSERT_EQ(big_out[i], 3.0f) << i;
}

TEST(TritonVectorAddTest, RefusesEmptyOrNegativeGrids) {
  float value = 1.0f, out = kPoison;
  EXPECT_EQ(tcpu_launch_add_kernel(&value, &value, &out, 1, 0, 1, 1), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_launch_add_kernel(&value, &value, &out, 1, 1, -3, 1), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_launch_add_kernel(&value, &value, &out, 1, 1, 1, 0), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(out, kPoison);
}

// vector_add_hinted.ttir: tcpu.hints = {threads = 2} on the kernel (the launcher runs with
// two threads and restores the caller's count) and vector_width = 4 / 1 on its loads (runs the
// analysis proves longer: never cut).
TEST(TritonVectorAddTest, HintsChangeHowNotWhat) {
  for (int threads : {1, 3}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t n : {1, 130, 1000}) {
      std::vector<float> x(n), y(n), out(n + kGuard, kPoison);
      for (int32_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i) * 0.5f;
        y[i] = static_cast<float>(n - i);
      }
      ASSERT_EQ(tcpu_launch_add_kernel_hinted(x.data(), y.data(), out.data(), n, (n + 127) / 128,
                                              1, 1),
                TCPU_OK);
      for (int32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i] + y[i]) << "n " << n << " i " << i;
      for (int32_t i = n; i < n + kGuard; ++i) ASSERT_EQ(out[i], kPoison) << "past the end";
      EXPECT_EQ(tcpu_get_num_threads(), threads) << "the launcher must restore the thread count";
    }
  }
}

// gather_runs_kernel: out[i] = src[offs[i]] for i < n, its offsets loaded from memory (no run
// the analysis can prove) under vector_width = 4, the claim that they come in runs of four.
// Every run of four here starts anywhere in src, unaligned; n cuts the last run.
TEST(TritonVectorAddTest, ClaimedRunsGather) {
  const std::vector<int32_t> starts = {37, 0, 101, 5, 64, 250, 13, 190, 77, 3, 128, 201, 9,
                                       160, 44, 222, 1, 88, 140, 31};
  std::vector<float> src(260);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i) * 0.25f - 7.0f;
  std::vector<int32_t> offs;
  for (int32_t start : starts) {
    for (int32_t lane = 0; lane < 4; ++lane) offs.push_back(start + lane);
  }
  for (int32_t n : {80, 77, 3}) {
    std::vector<float> out(offs.size() + kGuard, kPoison);
    ASSERT_EQ(tcpu_launch_gather_runs_kernel(src.data(), offs.data(), out.data(), n,
                                             (n + 63) / 64, 1, 1),
              TCPU_OK);
    for (int32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], src[offs[i]]) << "n " << n << " i " << i;
    for (size_t i = n; i < out.size(); ++i) ASSERT_EQ(out[i], kPoison) << "n " << n << " i " << i;
  }
}

}  // namespace
