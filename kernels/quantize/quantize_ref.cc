// Scalar reference of the per-row weight quantization passes.
#include "kernels/quantize/quantize_kernels.h"

namespace tcpu::quantize {
namespace {

uint16_t AbsmaxBitsRef(const uint16_t* w, int64_t k) {
  uint16_t max_bits = 0;
  for (int64_t j = 0; j < k; ++j) {
    const uint16_t bits = w[j] & 0x7fff;
    if (bits > max_bits) max_bits = bits;
  }
  return max_bits;
}

void QuantizeRowRef(const uint16_t* w, int64_t k, float scale, int8_t* q) {
  for (int64_t j = 0; j < k; ++j) q[j] = QuantizeOne(w[j], scale);
}

}  // namespace

const QuantizeKernel kQuantizeRef = {AbsmaxBitsRef, QuantizeRowRef};

}  // namespace tcpu::quantize
