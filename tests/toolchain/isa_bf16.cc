// Built with -march=armv8.6-a+bf16.
#include <arm_neon.h>

#include <cstring>

#include "tests/toolchain/isa_kernels.h"

namespace tcpu::testing {

void Bf16Dot(const float acc[4], const uint16_t a[8], const uint16_t b[8], float out[4]) {
  bfloat16x8_t va, vb;
  std::memcpy(&va, a, sizeof(va));
  std::memcpy(&vb, b, sizeof(vb));
  vst1q_f32(out, vbfdotq_f32(vld1q_f32(acc), va, vb));
}

}  // namespace tcpu::testing
