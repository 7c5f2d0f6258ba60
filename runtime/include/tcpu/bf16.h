/* bf16 is uint16_t (the upper half of an IEEE fp32). fp32 -> bf16 rounds to nearest, ties
 * to even; NaN stays NaN (quiet); bf16 -> fp32 is exact. */
#ifndef TCPU_BF16_H_
#define TCPU_BF16_H_

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline float tcpu_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

static inline uint16_t tcpu_f32_to_bf16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((bits >> 16) | 0x0040u); /* NaN */
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return (uint16_t)(bits >> 16);
}

/* Array conversions; n may be 0. */
int tcpu_convert_f32_to_bf16(const float* in, uint16_t* out, int64_t n);
int tcpu_convert_bf16_to_f32(const uint16_t* in, float* out, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_BF16_H_ */
