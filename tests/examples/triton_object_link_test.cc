// A user's Triton kernel as README's "Triton kernels" section describes it: the object that
// `tcpu-compile vector_add.ttir -o vector_add.o` writes, linked against //runtime:tcpu alone
// (the target README tells users to depend on). The link itself is half the test: the
// object's tcpu_launch_add_kernel calls the runtime's Triton launcher, so it links only if
// //runtime:tcpu holds the whole C ABI that the bundle's libtcpu.a holds.
#include <stdint.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/tcpu.h"

// The launcher tcpu-compile generates (the header it writes with --emit=header says the same).
extern "C" int tcpu_launch_add_kernel(void* x, void* y, void* output, int32_t n_elements,
                                      int32_t grid_x, int32_t grid_y, int32_t grid_z);
extern "C" const char* tcpu_variant_add_kernel(void);

TEST(TritonObjectLink, LaunchesThroughTheDocumentedTarget) {
  const int32_t n = 2500;  // Three programs of 1024, the last one masked.
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int32_t i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  ASSERT_EQ(tcpu_launch_add_kernel(x.data(), y.data(), out.data(), n, (n + 1023) / 1024, 1, 1),
            0)
      << tcpu_last_error_detail();
  for (int32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], x[i] + y[i]) << "at " << i;
  EXPECT_STREQ(tcpu_variant_add_kernel(), "add_kernel:baseline");
}

TEST(TritonObjectLink, BadGridIsAnErrorNamingTheKernel) {
  float value = 0.0f;
  EXPECT_EQ(tcpu_launch_add_kernel(&value, &value, &value, 1, 0, 1, 1), TCPU_ERR_INVALID_SIZE);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("add_kernel"), std::string::npos)
      << tcpu_last_error_detail();
}
