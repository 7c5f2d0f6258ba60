// tcpu_sdot_i8x16 on Armv8.0 NEON (no dotprod): SMULL gives exact int16 products (even
// -128 * -128 = 16384 fits), SADDLP widens pairs to int32 and ADDP adds the pairs of pairs.
#include <arm_neon.h>

#include "kernels/sdot/sdot_kernels.h"

namespace tcpu::sdot {

void SdotNeon(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out) {
  const int8x16_t va = vld1q_s8(a);
  const int8x16_t vb = vld1q_s8(b);
  const int16x8_t lo = vmull_s8(vget_low_s8(va), vget_low_s8(vb));  // lanes 0..7
  const int16x8_t hi = vmull_high_s8(va, vb);                       // lanes 8..15
  const int32x4_t sums = vpaddq_s32(vpaddlq_s16(lo), vpaddlq_s16(hi));
  vst1q_s32(out, vaddq_s32(vld1q_s32(acc), sums));  // ADD wraps modulo 2^32.
}

}  // namespace tcpu::sdot
