#include "runtime/testing/packed_linear.h"

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/status.h"

namespace tcpu::testing {

PackedLinear RandomPackedLinear(int64_t n, int64_t k, uint32_t seed, float stddev) {
  PackedLinear layer;
  const std::vector<uint16_t> w = RandomBf16(n * k, seed, stddev);
  std::vector<int8_t> w_i8(n * k);
  std::vector<float> scales(n);
  if (tcpu_quantize_weights_bf16(w.data(), n, k, w_i8.data(), scales.data()) != TCPU_OK) {
    ADD_FAILURE() << tcpu_last_error_detail();
    return layer;
  }
  const int64_t size = tcpu_packed_weights_size(n, k);
  std::vector<uint8_t> packed(size > 0 ? size : 0);
  if (size <= 0 || tcpu_pack_weights_i8(w_i8.data(), n, k, packed.data(), size) != TCPU_OK) {
    ADD_FAILURE() << tcpu_last_error_detail();
    return layer;
  }
  layer.n = n;
  layer.k = k;
  layer.packed = std::move(packed);
  layer.scales = std::move(scales);
  return layer;
}

PackedLinear RandomPackedLinearQ4(int64_t n, int64_t k, uint32_t seed, float stddev) {
  PackedLinear layer;
  const std::vector<uint16_t> w = RandomBf16(n * k, seed, stddev);
  std::vector<int8_t> q(n * k);
  std::vector<uint16_t> scales(n * tcpu_q4_groups(k));  // fp16
  if (tcpu_quantize_q4_bf16(w.data(), n, k, q.data(), scales.data()) != TCPU_OK) {
    ADD_FAILURE() << tcpu_last_error_detail();
    return layer;
  }
  const int64_t size = tcpu_q4_packed_size(n, k);
  std::vector<uint8_t> packed(size > 0 ? size : 0);
  if (size <= 0 || tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size) != TCPU_OK) {
    ADD_FAILURE() << tcpu_last_error_detail();
    return layer;
  }
  layer.n = n;
  layer.k = k;
  layer.packed = std::move(packed);
  return layer;
}

}  // namespace tcpu::testing
