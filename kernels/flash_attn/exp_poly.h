// exp(x) for the softmax weights of the chunk kernels, by range reduction and a degree-5
// polynomial, written once per ISA with the same operations in the same order (every
// multiply-add fused), so the scalar, NEON and SVE versions give identical bits:
//   xc = max(x, kExpMin)                         (fmax: a NaN x becomes kExpMin here)
//   n  = rint(xc * log2(e))                      (ties to even; n in [-126, 0] for x <= 0)
//   r  = fma(n, -kLn2Lo, fma(n, -kLn2Hi, xc))    (|r| <= ln2/2 + tiny; ln2 in two parts)
//   p  = 1 + fma(poly(r), r*r, r)                (poly: Horner with fma, kExpC5..kExpC0)
//   y  = p * 2^n                                 (2^n built in the exponent field)
//   y  = y + (x - x)                             (NaN for NaN and -inf x ...)
//   y  = x < kExpMin ? 0 : y                     (... and 0 for x below kExpMin, -inf too)
// Domain: x <= 0 (the kernels pass score - chunk max). Accuracy, tested by
// FlashAttnTest.ExpPolyIsWithinItsBoundAndIdenticalOnEveryVariant (a dense sweep of
// [kExpMin, 0] plus the reduction's switch points, every variant): relative error <=
// kExpMaxRelError = 2^-22 (4 fp32 ulps; measured 1.41 x 2^-24); below kExpMin (exp < 2^-126)
// the result is 0. The output is rounded to bf16 (2^-9 relative), so this error is ~2^-13
// of its rounding step.
#ifndef TCPU_KERNELS_FLASH_ATTN_EXP_POLY_H_
#define TCPU_KERNELS_FLASH_ATTN_EXP_POLY_H_

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tcpu::flash_attn {

inline constexpr float kExpMin = -87.33654f;  // ~ln(2^-126): 2^n stays a normal number
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kLn2Hi = 0.693359375f;  // 9 significant bits: n * kLn2Hi is exact
inline constexpr float kLn2Lo = -2.12194440e-4f;
// Minimax coefficients of (exp(r) - 1 - r) / r^2 on [-ln2/2, ln2/2].
inline constexpr float kExpC0 = 5.0000001201e-1f;
inline constexpr float kExpC1 = 1.6666665459e-1f;
inline constexpr float kExpC2 = 4.1665795894e-2f;
inline constexpr float kExpC3 = 8.3334519073e-3f;
inline constexpr float kExpC4 = 1.3981999507e-3f;
inline constexpr float kExpC5 = 1.9875691500e-4f;
inline constexpr double kExpMaxRelError = 1.0 / (1 << 22);

// The scalar model of the vector versions (flash_attn_neon.cc, flash_attn_sve2.cc).
inline float ExpPoly(float x) {
  const float xc = std::fmax(x, kExpMin);
  const float n = std::rint(xc * kLog2e);
  float r = std::fma(n, -kLn2Hi, xc);
  r = std::fma(n, -kLn2Lo, r);
  float t = std::fma(kExpC5, r, kExpC4);
  t = std::fma(t, r, kExpC3);
  t = std::fma(t, r, kExpC2);
  t = std::fma(t, r, kExpC1);
  t = std::fma(t, r, kExpC0);
  const float r2 = r * r;
  const float p = std::fma(t, r2, r) + 1.0f;
  const uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  const float y = p * scale + (x - x);
  return x < kExpMin ? 0.0f : y;
}

}  // namespace tcpu::flash_attn

#endif  // TCPU_KERNELS_FLASH_ATTN_EXP_POLY_H_
