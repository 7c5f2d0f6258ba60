// The tcpu.sdot dot loops (NEON dotprod and VLA SVE) against the runtime's own sdot
// micro-op (tcpu_sdot_i8x16) chained over 16-element blocks plus a scalar tail. Each runs
// where the CPU has its feature; where the QEMU variant promises it, it must run.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/mlir/dot_i8.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/tcpu.h"

namespace {

using tcpu::testing::RandomInt8;

int32_t RuntimeReference(const std::vector<int8_t>& a, const std::vector<int8_t>& b) {
  const int64_t n = static_cast<int64_t>(a.size());
  int32_t acc[4] = {0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    EXPECT_EQ(tcpu_sdot_i8x16(acc, a.data() + i, b.data() + i, acc), TCPU_OK);
  }
  uint32_t sum = 0;  // wrapping, like the int32 lanes
  for (int32_t lane : acc) sum += static_cast<uint32_t>(lane);
  for (; i < n; ++i) sum += static_cast<uint32_t>(int32_t{a[i]} * int32_t{b[i]});
  return static_cast<int32_t>(sum);
}

bool Promised(const char* feature) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) return false;
  std::string list = std::string(",") + features + ",";
  return list.find(std::string(",") + feature + ",") != std::string::npos;
}

using DotFn = int32_t (*)(TCPU_MEMREF_1D(int8_t), TCPU_MEMREF_1D(int8_t));

void CheckAgainstRuntime(DotFn dot) {
  for (int64_t n : {1, 15, 16, 17, 63, 64, 65, 255, 1000, 4099}) {
    std::vector<int8_t> a = RandomInt8(n, 7), b = RandomInt8(n, 8);
    EXPECT_EQ(dot(TCPU_MEMREF_1D_ARGS(a.data(), n), TCPU_MEMREF_1D_ARGS(b.data(), n)),
              RuntimeReference(a, b))
        << "n = " << n;
  }
  // All -128: the largest products, wrapping past int32 for long vectors.
  const int64_t n = 140000;
  std::vector<int8_t> a(n, -128), b(n, -128);
  EXPECT_EQ(dot(TCPU_MEMREF_1D_ARGS(a.data(), n), TCPU_MEMREF_1D_ARGS(b.data(), n)),
            RuntimeReference(a, b));
}

uint32_t HardwareFeatures() {
  tcpu_cpu_info info;
  EXPECT_EQ(tcpu_cpu_info_get(&info), TCPU_OK);
  return info.hw_features;
}

TEST(MlirDotI8Test, NeonSdotMatchesRuntime) {
  const bool has = (HardwareFeatures() & TCPU_FEATURE_DOTPROD) != 0;
  if (Promised("dotprod")) ASSERT_TRUE(has) << "the QEMU variant promises dotprod";
  if (!has) GTEST_SKIP() << "no FEAT_DotProd on this CPU";
  CheckAgainstRuntime(tcpu_mlir_dot_i8_neon);
}

TEST(MlirDotI8Test, SveSdotMatchesRuntime) {
  const bool has = (HardwareFeatures() & TCPU_FEATURE_SVE) != 0;
  if (Promised("sve")) ASSERT_TRUE(has) << "the QEMU variant promises sve";
  if (!has) GTEST_SKIP() << "no SVE on this CPU";
  CheckAgainstRuntime(tcpu_mlir_dot_i8_sve);
}

}  // namespace
