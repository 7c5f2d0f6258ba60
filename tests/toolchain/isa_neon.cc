// Built with -march=armv8-a: NEON only.
#include <arm_neon.h>

#include "tests/toolchain/isa_kernels.h"

namespace tcpu::testing {

void NeonMultiplyAdd(const int32_t a[4], const int32_t b[4], const int32_t c[4], int32_t out[4]) {
  vst1q_s32(out, vmlaq_s32(vld1q_s32(c), vld1q_s32(a), vld1q_s32(b)));
}

}  // namespace tcpu::testing
