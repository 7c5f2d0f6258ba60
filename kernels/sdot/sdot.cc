// tcpu_sdot_i8x16: argument checks and run-time dispatch to the best micro-kernel.
#include "tcpu/sdot.h"

#include "kernels/sdot/sdot_kernels.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"

namespace tcpu {
namespace sdot {
namespace {

constexpr KernelVariant<SdotFn> kSdotVariants[] = {
#if defined(__aarch64__)
    {"sdot:dotprod", TCPU_FEATURE_DOTPROD, SdotDotprod},
    {"sdot:neon", 0, SdotNeon},
#endif
    {"sdot:ref", 0, SdotRef},
};

const KernelVariant<SdotFn>& Selected() {
  static const KernelVariant<SdotFn>& variant = SelectVariant(kSdotVariants);
  return variant;
}

}  // namespace

const KernelVariant<SdotFn>* SdotVariantTable(int* count) {
  *count = static_cast<int>(sizeof(kSdotVariants) / sizeof(kSdotVariants[0]));
  return kSdotVariants;
}

}  // namespace sdot

const char* SdotVariant() { return sdot::Selected().name; }

}  // namespace tcpu

extern "C" int tcpu_sdot_i8x16(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out) {
  constexpr const char* kFn = "tcpu_sdot_i8x16";
  TCPU_CHECK_NOT_NULL(kFn, acc);
  TCPU_CHECK_NOT_NULL(kFn, a);
  TCPU_CHECK_NOT_NULL(kFn, b);
  TCPU_CHECK_NOT_NULL(kFn, out);
  tcpu::sdot::Selected().fn(acc, a, b, out);
  return tcpu::Succeed();
}
