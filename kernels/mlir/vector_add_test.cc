// vector_add.mlir against the plain sum, at sizes around the 16-lane step; the masked tail
// must not touch anything past the end.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/mlir/vector_add.h"

namespace {

constexpr float kSentinel = -12345.0f;
constexpr int64_t kGuard = 32;  // floats after the end that must stay untouched

TEST(MlirVectorAddTest, MatchesScalarSumWithMaskedTail) {
  for (int64_t n : {1, 7, 15, 16, 17, 31, 32, 33, 100, 1000, 4099}) {
    std::vector<float> x(n + kGuard), y(n + kGuard), out(n + kGuard, kSentinel);
    for (int64_t i = 0; i < n + kGuard; ++i) {
      x[i] = 0.25f * static_cast<float>(i) - 3.0f;
      y[i] = 1.0f / static_cast<float>(i + 1);
    }
    tcpu_mlir_vector_add_f32(TCPU_MEMREF_1D_ARGS(x.data(), n), TCPU_MEMREF_1D_ARGS(y.data(), n),
                             TCPU_MEMREF_1D_ARGS(out.data(), n));
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], x[i] + y[i]) << "n = " << n << ", i = " << i;
    }
    for (int64_t i = n; i < n + kGuard; ++i) {
      ASSERT_EQ(out[i], kSentinel) << "n = " << n << ": wrote past the end at " << i;
    }
  }
}

TEST(MlirVectorAddTest, EmptyIsANoOp) {
  float out = kSentinel, x = 1.0f;
  tcpu_mlir_vector_add_f32(TCPU_MEMREF_1D_ARGS(&x, 0), TCPU_MEMREF_1D_ARGS(&x, 0),
                           TCPU_MEMREF_1D_ARGS(&out, 0));
  EXPECT_EQ(out, kSentinel);
}

}  // namespace
