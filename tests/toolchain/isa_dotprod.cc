// Built with -march=armv8.2-a+dotprod.
#include <arm_neon.h>

#include "tests/toolchain/isa_kernels.h"

namespace tcpu::testing {

void DotprodSdot(const int32_t acc[4], const int8_t a[16], const int8_t b[16], int32_t out[4]) {
  vst1q_s32(out, vdotq_s32(vld1q_s32(acc), vld1q_s8(a), vld1q_s8(b)));
}

}  // namespace tcpu::testing
