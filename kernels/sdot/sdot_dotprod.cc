// tcpu_sdot_i8x16 with the Armv8.2 dot-product extension: exactly one SDOT.
#include <arm_neon.h>

#include "kernels/sdot/sdot_kernels.h"

namespace tcpu::sdot {

void SdotDotprod(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out) {
  vst1q_s32(out, vdotq_s32(vld1q_s32(acc), vld1q_s8(a), vld1q_s8(b)));
}

}  // namespace tcpu::sdot
