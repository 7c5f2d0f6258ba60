// tcpu_swiglu_bf16: argument checks, run-time dispatch, and the split of long vectors (a
// prefill batch of tokens) over the thread pool.
#include "tcpu/swiglu.h"

#include "kernels/swiglu/swiglu_kernels.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "runtime/thread_pool.h"

namespace tcpu {
namespace swiglu {
namespace {

constexpr KernelVariant<SwigluFn> kSwigluVariants[] = {
#if defined(__aarch64__)
    {"swiglu_bf16:sve2", TCPU_FEATURE_SVE2, SwigluSve2},
    {"swiglu_bf16:neon", 0, SwigluNeon},
#endif
    {"swiglu_bf16:ref", 0, SwigluRef},
};

const KernelVariant<SwigluFn>& Selected() {
  static const KernelVariant<SwigluFn>& variant = SelectVariant(kSwigluVariants);
  return variant;
}

// Elements per task: ~10 us of work, well above the cost of waking a worker. A decode
// step's 4608 elements run inline.
constexpr int64_t kMinElementsPerTask = int64_t{1} << 14;

}  // namespace

const KernelVariant<SwigluFn>* SwigluVariantTable(int* count) {
  *count = static_cast<int>(sizeof(kSwigluVariants) / sizeof(kSwigluVariants[0]));
  return kSwigluVariants;
}

int SwigluWith(SwigluFn kernel, const uint16_t* gate, const uint16_t* up, uint16_t* out,
               int64_t n) {
  if (n < 2 * kMinElementsPerTask) {
    kernel(gate, up, out, n);
    return TCPU_OK;
  }
  // Ranges start on multiples of 64 elements, so each task's vector body covers its range.
  const int64_t blocks = (n + 63) / 64;
  return ParallelFor(blocks, kMinElementsPerTask / 64, [&](int64_t begin, int64_t end) {
    const int64_t first = begin * 64;
    const int64_t last = end * 64 < n ? end * 64 : n;
    kernel(gate + first, up + first, out + first, last - first);
  });
}

}  // namespace swiglu

const char* SwigluBf16Variant() { return swiglu::Selected().name; }

}  // namespace tcpu

extern "C" int tcpu_swiglu_bf16(const uint16_t* gate, const uint16_t* up, uint16_t* out,
                                int64_t n) {
  constexpr const char* kFn = "tcpu_swiglu_bf16";
  TCPU_CHECK_NOT_NULL(kFn, gate);
  TCPU_CHECK_NOT_NULL(kFn, up);
  TCPU_CHECK_NOT_NULL(kFn, out);
  TCPU_CHECK_POSITIVE(kFn, n);
  int64_t bytes = 0;
  TCPU_CHECK_MUL(kFn, n, static_cast<int64_t>(sizeof(uint16_t)), &bytes);
  const int status = tcpu::swiglu::SwigluWith(tcpu::swiglu::Selected().fn, gate, up, out, n);
  if (status != TCPU_OK) return status;
  return tcpu::Succeed();
}
