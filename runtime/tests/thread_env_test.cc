// TCPU_NUM_THREADS and TCPU_CPUS, read when the pool starts (the BUILD targets set them).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

TEST(ThreadEnvTest, PoolFollowsTheEnvironment) {
  const std::string expect = Env("THREAD_ENV_TEST_EXPECT");
  const int n = tcpu_get_num_threads();
  if (expect == "invalid") {
    EXPECT_EQ(n, TCPU_ERR_INVALID_ENV);
    EXPECT_NE(std::string(tcpu_last_error_detail()).find(Env("THREAD_ENV_TEST_DETAIL")),
              std::string::npos)
        << tcpu_last_error_detail();
    // An explicit count still works: the environment's count is not needed then, but a
    // malformed TCPU_CPUS keeps failing.
    const int status = tcpu_set_num_threads(2);
    if (!Env("TCPU_CPUS").empty()) {
      EXPECT_EQ(status, TCPU_ERR_INVALID_ENV);
    } else {
      EXPECT_EQ(status, TCPU_OK);
    }
    return;
  }
  EXPECT_EQ(n, std::atoi(expect.c_str()));
  int cpus[16];
  ASSERT_EQ(tcpu_get_thread_cpus(cpus, 16), n);
  if (Env("TCPU_CPUS") == "0") {
    for (int i = 0; i < n; ++i) EXPECT_EQ(cpus[i], 0) << "thread " << i;
  }
}

}  // namespace
