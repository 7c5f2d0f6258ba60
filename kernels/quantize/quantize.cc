// tcpu_quantize_weights_bf16: argument checks, run-time dispatch, rows split over the thread
// pool, and the Inf/NaN policy: a non-finite weight has no meaningful int8 value, so the call
// fails with TCPU_ERR_INVALID_ARGUMENT naming the first such weight (smallest row, then
// column). Rows holding one are left unwritten; every other row is quantized.
#include <atomic>
#include <cstring>

#include "kernels/quantize/quantize_kernels.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "runtime/thread_pool.h"
#include "tcpu/gemv.h"

namespace tcpu {
namespace quantize {
namespace {

constexpr const char* kFn = "tcpu_quantize_weights_bf16";

constexpr KernelVariant<const QuantizeKernel*> kQuantizeVariants[] = {
#if defined(__aarch64__)
    {"quantize_weights_bf16:sve2", TCPU_FEATURE_SVE2, &kQuantizeSve2},
    {"quantize_weights_bf16:neon", 0, &kQuantizeNeon},
#endif
    {"quantize_weights_bf16:ref", 0, &kQuantizeRef},
};

const KernelVariant<const QuantizeKernel*>& Selected() {
  static const KernelVariant<const QuantizeKernel*>& variant = SelectVariant(kQuantizeVariants);
  return variant;
}

// Each task reads at least this many bytes of weights: below that, waking a worker costs more
// than it saves.
constexpr int64_t kMinBytesPerTask = int64_t{1} << 17;

// Lowers *target to value if value is smaller.
void AtomicMin(std::atomic<int64_t>* target, int64_t value) {
  int64_t current = target->load(std::memory_order_relaxed);
  while (value < current &&
         !target->compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

}  // namespace

const KernelVariant<const QuantizeKernel*>* QuantizeVariantTable(int* count) {
  *count = static_cast<int>(sizeof(kQuantizeVariants) / sizeof(kQuantizeVariants[0]));
  return kQuantizeVariants;
}

int QuantizeWith(const QuantizeKernel& kernel, const uint16_t* w, int64_t n, int64_t k,
                 int8_t* w_i8, float* scales) {
  std::atomic<int64_t> first_bad_row{n};
  const int64_t row_bytes = k * static_cast<int64_t>(sizeof(uint16_t));
  const int64_t grain = row_bytes >= kMinBytesPerTask ? 1 : kMinBytesPerTask / row_bytes;
  const int status = ParallelFor(n, grain, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const uint16_t* src = w + row * k;
      int8_t* dst = w_i8 + row * k;
      const uint16_t max_bits = kernel.absmax_bits(src, k);
      if (max_bits >= kNonFiniteBits) {
        AtomicMin(&first_bad_row, row);
      } else if (max_bits == 0) {
        scales[row] = 1.0f;  // All zeros (of either sign): FlagTree's convention.
        std::memset(dst, 0, static_cast<size_t>(k));
      } else {
        const float scale = tcpu_bf16_to_f32(max_bits) / 127.0f;
        scales[row] = scale;
        kernel.quantize_row(src, k, scale, dst);
      }
    }
  });
  if (status != TCPU_OK) return status;
  const int64_t bad_row = first_bad_row.load();
  if (bad_row < n) {
    const uint16_t* src = w + bad_row * k;
    int64_t col = 0;
    while ((src[col] & 0x7fff) < kNonFiniteBits) ++col;  // Exists: the row's max said so.
    return Fail(
        TCPU_ERR_INVALID_ARGUMENT, "%s: w[%lld][%lld] = %s (bf16 0x%04x), expected finite", kFn,
        static_cast<long long>(bad_row), static_cast<long long>(col),
        (src[col] & 0x7fff) == kNonFiniteBits ? (src[col] & 0x8000 ? "-inf" : "inf") : "nan",
        static_cast<unsigned>(src[col]));
  }
  return Succeed();
}

}  // namespace quantize

const char* QuantizeWeightsBf16Variant() { return quantize::Selected().name; }

}  // namespace tcpu

extern "C" int tcpu_quantize_weights_bf16(const uint16_t* w, int64_t n, int64_t k, int8_t* w_i8,
                                          float* scales) {
  using tcpu::quantize::kFn;
  TCPU_CHECK_NOT_NULL(kFn, w);
  TCPU_CHECK_NOT_NULL(kFn, w_i8);
  TCPU_CHECK_NOT_NULL(kFn, scales);
  TCPU_CHECK_POSITIVE(kFn, n);
  TCPU_CHECK_POSITIVE(kFn, k);
  int64_t elements = 0, bytes = 0;
  TCPU_CHECK_MUL(kFn, n, k, &elements);
  TCPU_CHECK_MUL(kFn, elements, static_cast<int64_t>(sizeof(uint16_t)), &bytes);
  return tcpu::quantize::QuantizeWith(*tcpu::quantize::Selected().fn, w, n, k, w_i8, scales);
}
