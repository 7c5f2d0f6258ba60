// tcpu.hints honoured at run time: `threads` leaves the caller's thread count as it was and
// computes what the runtime computes; `variant` runs the kernel exactly when the runtime
// dispatches to that variant and otherwise fails without writing.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/mlir/gemv_hinted.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/tcpu.h"

namespace {

using tcpu::testing::kPoisonI32;
using tcpu::testing::QemuVariant;
using tcpu::testing::RandomInt8;

constexpr int64_t kN = 37, kK = 200;

class MlirGemvHintedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<int8_t> w = RandomInt8(kN * kK, 11);
    x_ = RandomInt8(kK, 12);
    const int64_t bytes = tcpu_packed_weights_size(kN, kK);
    ASSERT_GT(bytes, 0);
    packed_.resize(bytes);
    ASSERT_EQ(tcpu_pack_weights_i8(w.data(), kN, kK, packed_.data(), bytes), TCPU_OK);
    expected_.assign(kN, kPoisonI32);
    ASSERT_EQ(tcpu_gemv_i8(packed_.data(), x_.data(), expected_.data(), kN, kK), TCPU_OK);
  }

  std::vector<int8_t> packed_, x_;
  std::vector<int32_t> expected_;
};

TEST_F(MlirGemvHintedTest, ThreadsHintRestoresTheCallersThreadCount) {
  ASSERT_EQ(tcpu_set_num_threads(3), TCPU_OK);
  std::vector<int32_t> y(kN, kPoisonI32);
  const int32_t status = tcpu_mlir_gemv_i8_two_threads(
      TCPU_MEMREF_1D_ARGS(packed_.data(), packed_.size()), TCPU_MEMREF_1D_ARGS(x_.data(), kK),
      TCPU_MEMREF_1D_ARGS(y.data(), kN));
  ASSERT_EQ(status, TCPU_OK) << tcpu_status_string(status) << ": " << tcpu_last_error_detail();
  EXPECT_EQ(y, expected_);
  EXPECT_EQ(tcpu_get_num_threads(), 3);
}

TEST_F(MlirGemvHintedTest, VariantHintRunsOnlyTheDotprodVariant) {
  const std::string dispatched = tcpu_kernel_variant("gemv_i8");
  const bool is_dotprod = dispatched == "gemv_i8:dotprod";
  // NEON + dotprod without SVE2: the runtime's GEMV picks dotprod, so the pinned op runs.
  const std::string variant = QemuVariant();
  if (variant == "nosve" || variant == "n1") EXPECT_TRUE(is_dotprod) << dispatched;
  if (variant == "vl256" || variant == "a53") EXPECT_FALSE(is_dotprod) << dispatched;

  std::vector<int32_t> y(kN, kPoisonI32);
  const int32_t status = tcpu_mlir_gemv_i8_dotprod_only(
      TCPU_MEMREF_1D_ARGS(packed_.data(), packed_.size()), TCPU_MEMREF_1D_ARGS(x_.data(), kK),
      TCPU_MEMREF_1D_ARGS(y.data(), kN));
  if (is_dotprod) {
    ASSERT_EQ(status, TCPU_OK) << tcpu_status_string(status);
    EXPECT_EQ(y, expected_);
  } else {
    EXPECT_EQ(status, TCPU_ERR_INVALID_ARGUMENT) << "dispatched: " << dispatched;
    EXPECT_EQ(y, std::vector<int32_t>(kN, kPoisonI32));
  }
}

}  // namespace
