// The micro-kernels behind tcpu_quantize_weights_bf16, one per file and ISA:
//   quantize_ref.cc   portable scalar reference
//   quantize_neon.cc  -march=armv8-a        FDIV + FCVTNS (round half to even) + SQXTN
//   quantize_sve2.cc  -march=armv9-a+sve2   FDIV + FRINTN, any VL, WHILELT tails
// Every kernel is bit-identical to the scalar definition: the same IEEE fp32 division
// w / scale (not a multiplication by 127 / absmax, which rounds differently), rounding half
// to even, clamping to [-127, 127]. absmax is found on the bf16 bit patterns (|w| orders
// like its bits with the sign cleared), so it is exact and NaN/Inf show up as bits >= 0x7f80.
#ifndef TCPU_KERNELS_QUANTIZE_QUANTIZE_KERNELS_H_
#define TCPU_KERNELS_QUANTIZE_QUANTIZE_KERNELS_H_

#include <cmath>
#include <cstdint>

#include "runtime/dispatch.h"
#include "tcpu/bf16.h"

namespace tcpu::quantize {

// |w| bits at or above this are Inf (0x7f80) or NaN.
constexpr uint16_t kNonFiniteBits = 0x7f80;

struct QuantizeKernel {
  // max_{j<k} (w[j] & 0x7fff): the bf16 bits of max |w[j]| (>= kNonFiniteBits if any w[j]
  // is Inf or NaN). k >= 1.
  uint16_t (*absmax_bits)(const uint16_t* w, int64_t k);
  // q[j] = QuantizeOne(w[j], scale) for j < k, for finite w and scale > 0.
  void (*quantize_row)(const uint16_t* w, int64_t k, float scale, int8_t* q);
};

// The definition every kernel matches bit for bit: clamp(round_half_even(w / scale)).
// nearbyint rounds half to even in the default rounding mode, which the runtime never changes.
inline int8_t QuantizeOne(uint16_t w, float scale) {
  const float q = std::nearbyint(tcpu_bf16_to_f32(w) / scale);
  return static_cast<int8_t>(q > 127.0f ? 127.0f : q < -127.0f ? -127.0f : q);
}

extern const QuantizeKernel kQuantizeRef;
#if defined(__aarch64__)
extern const QuantizeKernel kQuantizeNeon;
extern const QuantizeKernel kQuantizeSve2;
#endif

// The dispatch table, best first; tests and benchmarks run every entry the CPU supports.
const KernelVariant<const QuantizeKernel*>* QuantizeVariantTable(int* count);

// tcpu_quantize_weights_bf16 with a given kernel, pointers and sizes already checked:
// multithreaded over rows; returns TCPU_OK, TCPU_ERR_INVALID_ARGUMENT for an Inf/NaN weight
// or the thread pool's error.
int QuantizeWith(const QuantizeKernel& kernel, const uint16_t* w, int64_t n, int64_t k,
                 int8_t* w_i8, float* scales);

}  // namespace tcpu::quantize

#endif  // TCPU_KERNELS_QUANTIZE_QUANTIZE_KERNELS_H_
