// The micro-kernels behind tcpu_sdot_i8x16, one per file and ISA:
//   sdot_ref.cc      portable scalar reference (uint32 arithmetic: wraps like SDOT, no UB)
//   sdot_neon.cc     -march=armv8-a             SMULL + SADDLP + ADDP (exact for -128 * -128)
//   sdot_dotprod.cc  -march=armv8.2-a+dotprod   one SDOT
// All compute out[i] = acc[i] + sum_{j<4} a[4i+j] * b[4i+j] for i < 4, wrapping modulo 2^32,
// and read all of acc before writing out (out may alias acc).
#ifndef TCPU_KERNELS_SDOT_SDOT_KERNELS_H_
#define TCPU_KERNELS_SDOT_SDOT_KERNELS_H_

#include <cstdint>

#include "runtime/dispatch.h"

namespace tcpu::sdot {

using SdotFn = void (*)(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out);

void SdotRef(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out);
#if defined(__aarch64__)
void SdotNeon(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out);
void SdotDotprod(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out);
#endif

// The dispatch table, best first; tests and benchmarks run every entry the CPU supports.
const KernelVariant<SdotFn>* SdotVariantTable(int* count);

}  // namespace tcpu::sdot

#endif  // TCPU_KERNELS_SDOT_SDOT_KERNELS_H_
