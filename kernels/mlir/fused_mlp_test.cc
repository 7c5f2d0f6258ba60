// The MLIR kernel calling tcpu.fused_mlp equals tcpu_fused_mlp_bf16 called from C, bit for
// bit, and passes a runtime error (a shape the packed weights do not hold) through.
#include "kernels/mlir/fused_mlp.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "runtime/testing/packed_linear.h"
#include "tcpu/fused_mlp.h"
#include "tcpu/status.h"

namespace {

using ::tcpu::testing::PackedLinear;
using ::tcpu::testing::RandomBf16;
using ::tcpu::testing::RandomPackedLinear;

int32_t CallMlir(const PackedLinear& gate, const PackedLinear& up, const PackedLinear& down,
                 int64_t hidden, int64_t intermediate, std::vector<uint16_t>& x,
                 std::vector<uint16_t>& y) {
  auto bytes = [](const PackedLinear& l) {
    return reinterpret_cast<int8_t*>(const_cast<uint8_t*>(l.packed.data()));
  };
  auto scales = [](const PackedLinear& l) { return const_cast<float*>(l.scales.data()); };
  return tcpu_mlir_fused_mlp(
      TCPU_MEMREF_1D_ARGS(bytes(gate), gate.packed.size()),
      TCPU_MEMREF_1D_ARGS(scales(gate), intermediate),
      TCPU_MEMREF_1D_ARGS(bytes(up), up.packed.size()),
      TCPU_MEMREF_1D_ARGS(scales(up), intermediate),
      TCPU_MEMREF_1D_ARGS(bytes(down), down.packed.size()),
      TCPU_MEMREF_1D_ARGS(scales(down), hidden), TCPU_MEMREF_1D_ARGS(x.data(), hidden),
      TCPU_MEMREF_1D_ARGS(y.data(), hidden));
}

TEST(MlirFusedMlpTest, EqualsTheRuntimeCalledFromC) {
  const int64_t shapes[][2] = {{1, 1}, {7, 13}, {64, 192}, {256, 768}};
  uint32_t seed = 3;
  for (const auto& s : shapes) {
    const int64_t hidden = s[0], intermediate = s[1];
    const PackedLinear gate = RandomPackedLinear(intermediate, hidden, seed++);
    const PackedLinear up = RandomPackedLinear(intermediate, hidden, seed++);
    const PackedLinear down = RandomPackedLinear(hidden, intermediate, seed++);
    std::vector<uint16_t> x = RandomBf16(hidden, seed++);
    std::vector<uint16_t> expected(hidden), y(hidden, tcpu::testing::kPoisonBf16);
    ASSERT_EQ(tcpu_fused_mlp_bf16(gate.packed.data(), gate.scales.data(), up.packed.data(),
                                  up.scales.data(), down.packed.data(), down.scales.data(),
                                  x.data(), expected.data(), hidden, intermediate),
              TCPU_OK);
    ASSERT_EQ(CallMlir(gate, up, down, hidden, intermediate, x, y), TCPU_OK)
        << tcpu_last_error_detail();
    EXPECT_EQ(y, expected) << "hidden " << hidden << ", intermediate " << intermediate;
  }
}

TEST(MlirFusedMlpTest, PassesRuntimeErrorsThrough) {
  const PackedLinear gate = RandomPackedLinear(16, 8, 1);
  const PackedLinear up = RandomPackedLinear(16, 8, 2);
  const PackedLinear down = RandomPackedLinear(8, 16, 3);
  std::vector<uint16_t> x = RandomBf16(8, 4), y(8);
  // intermediate 15 (from the scales memref) does not match the packed headers (16).
  EXPECT_EQ(CallMlir(gate, up, down, 8, 15, x, y), TCPU_ERR_INVALID_ARGUMENT);
}

}  // namespace
