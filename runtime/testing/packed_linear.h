// Random linear layers for the fused-kernel and decoder tests, built with the SDK's own
// weight path: bf16 weights -> tcpu_quantize_weights_bf16 -> tcpu_pack_weights_i8 (int8), or
// tcpu_quantize_q4_bf16 -> tcpu_pack_q4 (int4).
#ifndef TCPU_RUNTIME_TESTING_PACKED_LINEAR_H_
#define TCPU_RUNTIME_TESTING_PACKED_LINEAR_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tcpu/transformer.h"

namespace tcpu::testing {

// A packed [n, k] int8 matrix with per-row scales, or an int4 matrix (scales empty: they are
// packed with it).
struct PackedLinear {
  int64_t n = 0;
  int64_t k = 0;
  std::vector<uint8_t> packed;
  std::vector<float> scales;
};

// The C ABI's view of a layer (tcpu/transformer.h), valid while `layer` lives.
inline tcpu_linear AsLinearW8(const PackedLinear& layer) {
  return {layer.packed.data(), layer.scales.empty() ? nullptr : layer.scales.data()};
}

// Weights ~ N(0, stddev) (RandomBf16), quantized and packed; fails the current test (and
// returns an empty layer) if the runtime rejects them.
PackedLinear RandomPackedLinear(int64_t n, int64_t k, uint32_t seed, float stddev = 0.05f);

// The same weights quantized to int4 (W4A8) and packed.
PackedLinear RandomPackedLinearQ4(int64_t n, int64_t k, uint32_t seed, float stddev = 0.05f);

// A 64-byte aligned byte buffer (the workspaces of the fused kernels).
class AlignedBytes {
 public:
  explicit AlignedBytes(int64_t bytes) : storage_(static_cast<std::size_t>(bytes) + 64) {}
  void* data() {
    const uintptr_t p = reinterpret_cast<uintptr_t>(storage_.data());
    return storage_.data() + (64 - p % 64) % 64;
  }

 private:
  std::vector<uint8_t> storage_;
};

}  // namespace tcpu::testing

#endif  // TCPU_RUNTIME_TESTING_PACKED_LINEAR_H_
