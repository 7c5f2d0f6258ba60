// decode_block.mlir (tcpu.rms_norm then tcpu.gemv_bf16_w8, lowered to runtime calls) must
// give bit-identical results to calling the runtime directly, and pass its errors through.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/mlir/decode_block.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/tcpu.h"

namespace {

using tcpu::testing::kPoisonBf16;
using tcpu::testing::RandomBf16;

struct Weights {
  std::vector<int8_t> packed;
  std::vector<float> scales;
};

Weights QuantizeAndPack(int64_t n, int64_t k, uint32_t seed) {
  std::vector<uint16_t> w = RandomBf16(n * k, seed, 0.05f);
  std::vector<int8_t> w_i8(n * k);
  Weights out;
  out.scales.resize(n);
  EXPECT_EQ(tcpu_quantize_weights_bf16(w.data(), n, k, w_i8.data(), out.scales.data()), TCPU_OK);
  const int64_t bytes = tcpu_packed_weights_size(n, k);
  EXPECT_GT(bytes, 0);
  out.packed.resize(bytes);
  EXPECT_EQ(tcpu_pack_weights_i8(w_i8.data(), n, k, out.packed.data(), bytes), TCPU_OK);
  return out;
}

TEST(MlirDecodeBlockTest, MatchesTheRuntimeCalledDirectly) {
  for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 1}, {7, 33}, {64, 128}, {300, 1536}}) {
    std::vector<uint16_t> x = RandomBf16(k, 1), norm_w = RandomBf16(k, 2);
    Weights weights = QuantizeAndPack(n, k, 3);

    std::vector<uint16_t> h_ref(k, kPoisonBf16), y_ref(n, kPoisonBf16);
    ASSERT_EQ(tcpu_rms_norm_bf16(x.data(), norm_w.data(), h_ref.data(), k, 1e-6f), TCPU_OK);
    ASSERT_EQ(tcpu_gemv_bf16_w8(weights.packed.data(), weights.scales.data(), h_ref.data(),
                                y_ref.data(), n, k),
              TCPU_OK);

    std::vector<uint16_t> h(k, kPoisonBf16), y(n, kPoisonBf16);
    const int32_t status = tcpu_mlir_decode_block(
        TCPU_MEMREF_1D_ARGS(x.data(), k), TCPU_MEMREF_1D_ARGS(norm_w.data(), k),
        TCPU_MEMREF_1D_ARGS(h.data(), k),
        TCPU_MEMREF_1D_ARGS(weights.packed.data(), weights.packed.size()),
        TCPU_MEMREF_1D_ARGS(weights.scales.data(), n), TCPU_MEMREF_1D_ARGS(y.data(), n));
    ASSERT_EQ(status, TCPU_OK) << tcpu_status_string(status) << ": " << tcpu_last_error_detail();
    EXPECT_EQ(h, h_ref) << "n = " << n << ", k = " << k;
    EXPECT_EQ(y, y_ref) << "n = " << n << ", k = " << k;
  }
}

TEST(MlirDecodeBlockTest, PassesTheRuntimeStatusThrough) {
  const int64_t n = 8, k = 16;
  std::vector<uint16_t> x = RandomBf16(k, 4), norm_w = RandomBf16(k, 5), h(k), y(n);
  Weights weights = QuantizeAndPack(n, k, 6);
  // rms_norm fails first (d = 0): the GEMV must not run, y keeps its poison.
  std::fill(y.begin(), y.end(), kPoisonBf16);
  int32_t status = tcpu_mlir_decode_block(
      TCPU_MEMREF_1D_ARGS(x.data(), 0), TCPU_MEMREF_1D_ARGS(norm_w.data(), k),
      TCPU_MEMREF_1D_ARGS(h.data(), k),
      TCPU_MEMREF_1D_ARGS(weights.packed.data(), weights.packed.size()),
      TCPU_MEMREF_1D_ARGS(weights.scales.data(), n), TCPU_MEMREF_1D_ARGS(y.data(), n));
  EXPECT_EQ(status, TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(y, std::vector<uint16_t>(n, kPoisonBf16));
  // The GEMV fails (n = 0 outputs).
  status = tcpu_mlir_decode_block(
      TCPU_MEMREF_1D_ARGS(x.data(), k), TCPU_MEMREF_1D_ARGS(norm_w.data(), k),
      TCPU_MEMREF_1D_ARGS(h.data(), k),
      TCPU_MEMREF_1D_ARGS(weights.packed.data(), weights.packed.size()),
      TCPU_MEMREF_1D_ARGS(weights.scales.data(), 0), TCPU_MEMREF_1D_ARGS(y.data(), 0));
  EXPECT_EQ(status, TCPU_ERR_INVALID_SIZE);
}

}  // namespace
