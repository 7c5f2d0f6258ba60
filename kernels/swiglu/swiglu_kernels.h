// The micro-kernels behind tcpu_swiglu_bf16, one per file and ISA:
//   swiglu_ref.cc   portable scalar reference (std::exp in float64)
//   swiglu_neon.cc  -march=armv8-a        4-lane fp32 exp by range reduction + polynomial
//   swiglu_sve2.cc  -march=armv9-a+sve2   the same algorithm, any VL, FSCALE for 2^n
//
// The vector kernels compute out = bf16(silu(g) * u) as follows (constants below):
//   a = min(|g|, kMaxArg), x = -a                    exp is only ever taken of x <= 0
//   n = rint(x * log2(e)), r = x - n * ln2 (hi/lo)   |r| <= ln2 / 2
//   p = P(r) ~ e^r (degree 5 minimax, relative error 1.6e-7), e = p * 2^n ~ e^-|g|
//   g >= 0:  silu(g) * u = g * u / (1 + e)
//   g <  0:  silu(g) * u = (x * p * 2^n) * u / (1 + e)
// For g < 0 the factor 2^n is applied in two steps: 2^max(n, -126) to x * p (exact: the
// product stays normal) and the rest of it last, after the multiplication by u, so when the
// result is tiny (g < -87) it is rounded once at the end instead of an fp32-subnormal e^g
// being amplified by a large u. Clamping at kMaxArg loses nothing: |silu(-190) * u| <
// 2^-138 for every finite bf16 u, below half the smallest bf16 subnormal. 1 / (1 + e) is a
// reciprocal estimate plus two Newton steps (1 + e is in [1, 2]).
#ifndef TCPU_KERNELS_SWIGLU_SWIGLU_KERNELS_H_
#define TCPU_KERNELS_SWIGLU_SWIGLU_KERNELS_H_

#include <cstdint>

#include "runtime/dispatch.h"

namespace tcpu::swiglu {

using SwigluFn = void (*)(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n);

// Every kernel handles any n >= 1; out may alias gate or up (each element is read before
// it is written).
void SwigluRef(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n);
#if defined(__aarch64__)
void SwigluNeon(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n);
void SwigluSve2(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n);
#endif

// The dispatch table, best first; tests and benchmarks run every entry the CPU supports.
const KernelVariant<SwigluFn>* SwigluVariantTable(int* count);

// tcpu_swiglu_bf16 with a given kernel, arguments already checked: splits large n over the
// thread pool. Returns a tcpu_status (the pool's, if it cannot start).
int SwigluWith(SwigluFn kernel, const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n);

// Constants of the vector exp (see above).
constexpr float kMaxArg = 190.0f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kLn2Hi = 0x1.62e430p-1f;    // float(ln 2)
constexpr float kLn2Lo = -0x1.05c610p-29f;  // ln 2 - kLn2Hi
// P(r) = c0 + c1 r + ... + c5 r^5 ~ e^r on [-ln2/2, ln2/2]: Chebyshev-fitted in float64,
// rounded to fp32 (max relative error 1.6e-7 after rounding).
constexpr float kExpC0 = 0x1.000002p+0f;
constexpr float kExpC1 = 0x1.000000p+0f;
constexpr float kExpC2 = 0x1.fffd0ap-2f;
constexpr float kExpC3 = 0x1.55547cp-3f;
constexpr float kExpC4 = 0x1.576362p-5f;
constexpr float kExpC5 = 0x1.123d82p-7f;
// Exponent of the smallest normal fp32: 2^n below it is applied at the end (see above).
constexpr int kMinNormalExp = -126;

}  // namespace tcpu::swiglu

#endif  // TCPU_KERNELS_SWIGLU_SWIGLU_KERNELS_H_
