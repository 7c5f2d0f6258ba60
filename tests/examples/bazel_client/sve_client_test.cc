// The client's test: SVE intrinsics at the vector length its QEMU variant promises, the SDK's
// runtime seeing the same length, and the client's MLIR kernel against plain C++.
#include <arm_sve.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"
#include "scale.h"
#include "tcpu/cpu.h"
#include "tcpu/status.h"

namespace {

int ExpectedVectorBits() {
  const char* bits = std::getenv("TCPU_EXPECT_SVE_VL_BITS");
  return bits != nullptr ? std::atoi(bits) : -1;
}

TEST(ClientSveTest, VectorLengthIsTheVariants) {
  EXPECT_EQ(static_cast<int>(svcntb() * 8), ExpectedVectorBits());
  tcpu_cpu_info info;
  ASSERT_EQ(tcpu_cpu_info_get(&info), TCPU_OK) << tcpu_last_error_detail();
  EXPECT_EQ(info.sve_vl_bits, ExpectedVectorBits());
}

TEST(ClientSveTest, PredicatedSumMatchesScalar) {
  for (int64_t n : {1, 3, 17, 64, 1001}) {
    std::vector<int32_t> values(n);
    int64_t expected = 0;
    for (int64_t i = 0; i < n; ++i) {
      values[i] = static_cast<int32_t>((i * 7919) % 201) - 100;
      expected += values[i];
    }
    svint64_t sum = svdup_s64(0);
    for (int64_t i = 0; i < n; i += static_cast<int64_t>(svcntd())) {
      svbool_t active = svwhilelt_b64(i, n);
      sum = svadd_s64_m(active, sum, svld1sw_s64(active, values.data() + i));
    }
    EXPECT_EQ(svaddv_s64(svptrue_b64(), sum), expected) << "n = " << n;
  }
}

TEST(ClientKernelTest, ScaleMatchesScalarWithMaskedTail) {
  for (int64_t n : {1, 7, 8, 9, 100}) {
    std::vector<float> x(n + 8), out(n + 8, -1.0f);
    for (int64_t i = 0; i < n + 8; ++i) x[i] = 0.5f * static_cast<float>(i) - 2.0f;
    client_scale_f32(3.0f, TCPU_MEMREF_1D_ARGS(x.data(), n), TCPU_MEMREF_1D_ARGS(out.data(), n));
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 3.0f * x[i]) << "n = " << n << ", i = " << i;
    for (int64_t i = n; i < n + 8; ++i) ASSERT_EQ(out[i], -1.0f) << "wrote past the end at " << i;
  }
}

}  // namespace
