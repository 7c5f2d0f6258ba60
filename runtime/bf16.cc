#include "tcpu/bf16.h"

#include "runtime/check.h"

extern "C" int tcpu_convert_f32_to_bf16(const float* in, uint16_t* out, int64_t n) {
  if (n < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "tcpu_convert_f32_to_bf16: n = %lld, expected >= 0",
                      static_cast<long long>(n));
  }
  if (n > 0) {
    TCPU_CHECK_NOT_NULL("tcpu_convert_f32_to_bf16", in);
    TCPU_CHECK_NOT_NULL("tcpu_convert_f32_to_bf16", out);
  }
  for (int64_t i = 0; i < n; ++i) out[i] = tcpu_f32_to_bf16(in[i]);
  return tcpu::Succeed();
}

extern "C" int tcpu_convert_bf16_to_f32(const uint16_t* in, float* out, int64_t n) {
  if (n < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "tcpu_convert_bf16_to_f32: n = %lld, expected >= 0",
                      static_cast<long long>(n));
  }
  if (n > 0) {
    TCPU_CHECK_NOT_NULL("tcpu_convert_bf16_to_f32", in);
    TCPU_CHECK_NOT_NULL("tcpu_convert_bf16_to_f32", out);
  }
  for (int64_t i = 0; i < n; ++i) out[i] = tcpu_bf16_to_f32(in[i]);
  return tcpu::Succeed();
}
