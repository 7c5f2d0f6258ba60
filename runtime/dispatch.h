// Run-time kernel dispatch: each op has a table of variants, ordered best first, and picks
// the first whose required features the CPU has (after TCPU_DISABLE), once.
//
//   using GemvFn = void (*)(const I8GemvArgs&);
//   constexpr KernelVariant<GemvFn> kGemvVariants[] = {
//   #if defined(__aarch64__)
//       {"gemv_i8:sve2", TCPU_FEATURE_SVE2, GemvSve2},
//       {"gemv_i8:dotprod", TCPU_FEATURE_DOTPROD, GemvDotprod},
//       {"gemv_i8:neon", 0, GemvNeon},
//   #endif
//       {"gemv_i8:ref", 0, GemvRef},
//   };
//   const auto& v = SelectVariant(kGemvVariants);   // cache it in a function-local static
#ifndef TCPU_RUNTIME_DISPATCH_H_
#define TCPU_RUNTIME_DISPATCH_H_

#include <cstddef>
#include <cstdint>

#include "tcpu/cpu.h"

namespace tcpu {

// Features in use: the hardware's (HWCAP/HWCAP2) minus TCPU_DISABLE. Read once.
uint32_t ActiveFeatures();

// TCPU_OK, or TCPU_ERR_INVALID_ENV if TCPU_DISABLE names an unknown feature (then no
// feature is considered active, so only baseline variants run).
int FeatureStatus();

// SVE vector length in bits, 0 without SVE (hardware, even if TCPU_DISABLE hides SVE).
int SveVectorLengthBits();

template <typename Fn>
struct KernelVariant {
  const char* name;   // "op:variant", as tcpu_kernel_variant() reports it
  uint32_t required;  // TCPU_FEATURE_* bits
  Fn fn;
  // The shortest SVE vector length (bits) at which this variant beats the next ones in the
  // table (e.g. an SVE GEMV that only wins from 256 bits on); 0: any.
  int min_sve_bits = 0;
};

// The first variant of `table` whose required features are all active and whose
// min_sve_bits the SVE vector length reaches. The last entry of every table must require
// nothing.
template <typename Fn, std::size_t N>
const KernelVariant<Fn>& SelectVariant(const KernelVariant<Fn> (&table)[N]) {
  const uint32_t active = ActiveFeatures();
  for (std::size_t i = 0; i + 1 < N; ++i) {
    if ((table[i].required & active) == table[i].required &&
        (table[i].min_sve_bits == 0 || SveVectorLengthBits() >= table[i].min_sve_bits)) {
      return table[i];
    }
  }
  return table[N - 1];
}

}  // namespace tcpu

#endif  // TCPU_RUNTIME_DISPATCH_H_
