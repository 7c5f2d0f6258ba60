// The thread pool: every index is covered exactly once with static ranges, for 1, 2 and 4
// threads (and under qemu-user), nested regions run inline, shrinking keeps the workers, and
// bad settings are errors.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "runtime/thread_pool.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

TEST(ThreadPoolTest, CoversEveryIndexOnceForEachThreadCount) {
  for (int threads : {1, 2, 4, 3}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    EXPECT_EQ(tcpu_get_num_threads(), threads);
    for (int64_t count : {1, 2, 7, 64, 1000, 4099}) {
      std::vector<std::atomic<int>> hits(count);
      std::atomic<int> ranges{0};
      ASSERT_EQ(tcpu::ParallelFor(count, 1,
                                  [&](int64_t begin, int64_t end) {
                                    ranges.fetch_add(1);
                                    for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
                                  }),
                TCPU_OK);
      for (int64_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i;
      EXPECT_LE(ranges.load(), threads);
      EXPECT_LE(ranges.load(), count);
    }
  }
}

TEST(ThreadPoolTest, RangesAreStaticAndRespectTheGrain) {
  ASSERT_EQ(tcpu_set_num_threads(4), TCPU_OK);
  std::vector<std::pair<int64_t, int64_t>> seen(4, {-1, -1});
  std::atomic<int> next{0};
  ASSERT_EQ(tcpu::ParallelFor(100, 10,
                              [&](int64_t begin, int64_t end) {
                                seen[next.fetch_add(1)] = {begin, end};
                              }),
            TCPU_OK);
  ASSERT_EQ(next.load(), 4);
  std::vector<bool> starts(100, false);
  for (const auto& [begin, end] : seen) {
    EXPECT_EQ(end - begin, 25) << "four equal static ranges";
    starts[begin] = true;
  }
  EXPECT_TRUE(starts[0] && starts[25] && starts[50] && starts[75]);

  // A grain larger than the work keeps it on one range (inline).
  int calls = 0;
  ASSERT_EQ(tcpu::ParallelFor(100, 1000, [&](int64_t begin, int64_t end) {
              ++calls;
              EXPECT_EQ(begin, 0);
              EXPECT_EQ(end, 100);
            }),
            TCPU_OK);
  EXPECT_EQ(calls, 1);
}

TEST(ThreadPoolTest, NestedRegionsRunInline) {
  ASSERT_EQ(tcpu_set_num_threads(2), TCPU_OK);
  std::atomic<int64_t> total{0};
  ASSERT_EQ(tcpu::ParallelFor(8, 1,
                              [&](int64_t begin, int64_t end) {
                                for (int64_t i = begin; i < end; ++i) {
                                  tcpu::ParallelFor(10, 1, [&](int64_t b, int64_t e) {
                                    total.fetch_add(e - b);
                                  });
                                }
                              }),
            TCPU_OK);
  EXPECT_EQ(total.load(), 80);
}

TEST(ThreadPoolTest, ConcurrentCallersBothComplete) {
  ASSERT_EQ(tcpu_set_num_threads(2), TCPU_OK);
  std::atomic<int64_t> a{0}, b{0};
  std::thread other([&] {
    for (int r = 0; r < 50; ++r) {
      tcpu::ParallelFor(64, 1, [&](int64_t s, int64_t e) { a.fetch_add(e - s); });
    }
  });
  for (int r = 0; r < 50; ++r) {
    tcpu::ParallelFor(64, 1, [&](int64_t s, int64_t e) { b.fetch_add(e - s); });
  }
  other.join();
  EXPECT_EQ(a.load(), 50 * 64);
  EXPECT_EQ(b.load(), 50 * 64);
}

TEST(ThreadPoolTest, ThreadCpusArePinnedToAllowedCpus) {
  ASSERT_EQ(tcpu_set_num_threads(2), TCPU_OK);
  int cpus[8];
  ASSERT_EQ(tcpu_get_thread_cpus(cpus, 8), 2);
  for (int i = 0; i < 2; ++i) EXPECT_GE(cpus[i], 0);
  EXPECT_EQ(tcpu_get_thread_cpus(nullptr, 0), 2);
  EXPECT_EQ(tcpu_get_thread_cpus(nullptr, 1), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_get_thread_cpus(cpus, -1), TCPU_ERR_INVALID_SIZE);
}

// Shrinking keeps the started workers (a launcher's `threads` hint shrinks and restores the
// count around every launch): the region then runs on exactly the first N of them, and
// growing back within them uses them all again, from the same threads.
TEST(ThreadPoolTest, ShrinkingRunsOnTheFirstWorkersAndGrowingBackReusesThem) {
  auto threads_of_region = [](int64_t count) {
    std::vector<std::thread::id> ids(count);
    EXPECT_EQ(tcpu::ParallelFor(count, 1,
                                [&](int64_t begin, int64_t end) {
                                  for (int64_t i = begin; i < end; ++i) {
                                    ids[i] = std::this_thread::get_id();
                                  }
                                }),
              TCPU_OK);
    std::vector<std::thread::id> distinct;
    for (const std::thread::id& id : ids) {
      bool seen = false;
      for (const std::thread::id& d : distinct) seen = seen || d == id;
      if (!seen) distinct.push_back(id);
    }
    return distinct;
  };
  ASSERT_EQ(tcpu_set_num_threads(4), TCPU_OK);
  const std::vector<std::thread::id> four = threads_of_region(64);
  ASSERT_EQ(four.size(), 4u);
  int cpus[4];
  ASSERT_EQ(tcpu_get_thread_cpus(cpus, 4), 4);

  ASSERT_EQ(tcpu_set_num_threads(2), TCPU_OK);
  EXPECT_EQ(tcpu_get_num_threads(), 2);
  int two_cpus[4];
  ASSERT_EQ(tcpu_get_thread_cpus(two_cpus, 4), 2);
  EXPECT_EQ(two_cpus[0], cpus[0]);
  EXPECT_EQ(two_cpus[1], cpus[1]);
  const std::vector<std::thread::id> two = threads_of_region(64);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0], four[0]);
  EXPECT_EQ(two[1], four[1]);

  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
  const std::vector<std::thread::id> one = threads_of_region(64);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], std::this_thread::get_id()) << "one thread runs inline";

  ASSERT_EQ(tcpu_set_num_threads(4), TCPU_OK);
  EXPECT_EQ(threads_of_region(64), four);
}

TEST(ThreadPoolTest, RejectsBadThreadCounts) {
  EXPECT_EQ(tcpu_set_num_threads(0), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_set_num_threads: num_threads = 0, expected 1..1024");
  EXPECT_EQ(tcpu_set_num_threads(-3), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_set_num_threads(1025), TCPU_ERR_INVALID_ARGUMENT);
}

}  // namespace
