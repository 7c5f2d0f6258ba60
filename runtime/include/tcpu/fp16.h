/* fp16 is uint16_t holding an IEEE binary16 (the scale type of llama.cpp's Q4_0 and Q8_0
 * blocks). fp16 -> fp32 is exact (every fp16, subnormals included, is an fp32); fp32 -> fp16
 * rounds to nearest, ties to even, to infinity above 65504 + 16 and into the subnormals
 * below 2^-14; NaN stays NaN (quiet). Bit operations only, so the result does not depend on
 * the compiler's _Float16 support or the CPU's floating-point mode. */
#ifndef TCPU_FP16_H_
#define TCPU_FP16_H_

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline float tcpu_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1fu) {
    bits = 0x7f800000u | (mantissa << 13) | (mantissa != 0 ? 0x00400000u : 0u);
  } else if (exponent != 0) {
    bits = ((exponent + 112u) << 23) | (mantissa << 13);
  } else {
    const float magnitude = (float)mantissa * 0x1p-24f; /* zero or subnormal: exact */
    memcpy(&bits, &magnitude, sizeof(bits));
  }
  bits |= sign;
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

static inline uint16_t tcpu_f32_to_f16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof(bits));
  const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520: infinity */
  if (magnitude >= 0x38800000u) {                                  /* normal: >= 2^-14 */
    const uint32_t rebased = magnitude - 0x38000000u;              /* exponent bias 127 -> 15 */
    return (uint16_t)(sign | ((rebased + 0xfffu + ((rebased >> 13) & 1u)) >> 13));
  }
  const uint32_t exponent = magnitude >> 23;
  if (exponent < 101u) return sign; /* below 2^-26: rounds to zero */
  /* Subnormal: the value in units of 2^-24 is mantissa' >> (126 - exponent). */
  const uint32_t full = (magnitude & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126u - exponent;
  uint32_t q = full >> shift;
  const uint32_t rest = full & ((1u << shift) - 1u), half = 1u << (shift - 1u);
  if (rest > half || (rest == half && (q & 1u) != 0)) ++q;
  return (uint16_t)(sign | q);
}

#ifdef __cplusplus
}
#endif

#endif /* TCPU_FP16_H_ */
