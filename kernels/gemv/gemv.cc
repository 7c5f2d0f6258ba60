// tcpu_gemv_i8, tcpu_gemv_bf16_w8 and tcpu_gemv_bf16_w8_scratch_size: argument checks,
// dispatch (gemv_kernels.h) and scratch; the parallel split is gemv_w8a8.cc's. Each row is
// computed by exactly one thread with exact integer sums, so results do not depend on the
// thread count.
#include "tcpu/gemv.h"

#include <cstring>

#include "kernels/gemv/gemv_kernels.h"
#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "tcpu/scratch.h"

namespace tcpu {
namespace {

using gemv::GemvKernel;
using gemv::I8GemvArgs;
using GemvVariant = KernelVariant<const GemvKernel*>;

#if defined(__aarch64__)
// SVE2 from 256-bit vectors on: at 128 bits the dotprod kernel's 64-byte NEON loads execute
// fewer instructions (tools/perf: 0.094 against 0.127 per weight byte at N=512, K=2048).
constexpr int kSve2MinBits = 256;
#endif

constexpr GemvVariant kGemvI8Variants[] = {
#if defined(__aarch64__)
    {"gemv_i8:sve2", TCPU_FEATURE_SVE2, &gemv::kGemvSve2, kSve2MinBits},
    {"gemv_i8:dotprod", TCPU_FEATURE_DOTPROD, &gemv::kGemvDotprod},
    {"gemv_i8:neon", 0, &gemv::kGemvNeon},
#endif
    {"gemv_i8:ref", 0, &gemv::kGemvRef},
};

constexpr GemvVariant kGemvBf16W8Variants[] = {
#if defined(__aarch64__)
    {"gemv_bf16_w8:sve2", TCPU_FEATURE_SVE2, &gemv::kGemvSve2, kSve2MinBits},
    {"gemv_bf16_w8:dotprod", TCPU_FEATURE_DOTPROD, &gemv::kGemvDotprod},
    {"gemv_bf16_w8:neon", 0, &gemv::kGemvNeon},
#endif
    {"gemv_bf16_w8:ref", 0, &gemv::kGemvRef},
};

const GemvVariant& I8Variant() {
  static const GemvVariant& variant = SelectVariant(kGemvI8Variants);
  return variant;
}

const GemvVariant& Bf16W8Variant() {
  static const GemvVariant& variant = SelectVariant(kGemvBf16W8Variants);
  return variant;
}

int8_t* Scratch(const char* fn, int64_t bytes, int* status) {
  void* scratch = ScratchBytes(bytes);
  if (scratch == nullptr) {
    *status = Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: cannot allocate %lld bytes of scratch", fn,
                   static_cast<long long>(bytes));
  }
  return static_cast<int8_t*>(scratch);
}

}  // namespace

const char* GemvI8Variant() { return I8Variant().name; }
const char* GemvBf16W8Variant() { return Bf16W8Variant().name; }

const gemv::GemvKernel& gemv::Bf16W8Kernel() { return *Bf16W8Variant().fn; }

}  // namespace tcpu

extern "C" int tcpu_gemv_i8(const void* packed_w, const int8_t* x, int32_t* y, int64_t n,
                            int64_t k) {
  constexpr const char* kFn = "tcpu_gemv_i8";
  TCPU_CHECK_NOT_NULL(kFn, packed_w);
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, y);
  tcpu::PackedWeightsView view;
  if (const int status = tcpu::ViewPackedWeights(kFn, packed_w, n, k, &view); status != TCPU_OK) {
    return status;
  }
  const tcpu::gemv::GemvKernel& kernel = *tcpu::I8Variant().fn;
  tcpu::gemv::I8GemvArgs args;
  args.w = view.data;
  args.chunks = view.layout.chunks;
  args.n = n;
  args.k = k;
  args.x = x;
  args.y_i32 = y;
  if (kernel.prepare_x != nullptr) {
    // chunks * 32 <= n_padded * k_padded, which fits int64.
    int status = TCPU_OK;
    int8_t* prepared = tcpu::Scratch(kFn, args.chunks * kernel.prepared_x_bytes_per_chunk, &status);
    if (prepared == nullptr) return status;
    kernel.prepare_x(x, k, args.chunks, prepared);
    args.x_prepared = prepared;
  }
  if (const int status = tcpu::gemv::RunGemv(kernel, args, view.layout.blocks);
      status != TCPU_OK) {
    return status;
  }
  return tcpu::Succeed();
}

extern "C" int tcpu_gemv_bf16_w8(const void* packed_w, const float* w_scales, const uint16_t* x,
                                 uint16_t* y, int64_t n, int64_t k) {
  constexpr const char* kFn = "tcpu_gemv_bf16_w8";
  TCPU_CHECK_NOT_NULL(kFn, packed_w);
  TCPU_CHECK_NOT_NULL(kFn, w_scales);
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, y);
  tcpu::PackedWeightsView view;
  if (const int status = tcpu::ViewPackedWeights(kFn, packed_w, n, k, &view); status != TCPU_OK) {
    return status;
  }
  const tcpu::gemv::GemvKernel& kernel = tcpu::gemv::Bf16W8Kernel();
  int64_t scratch_bytes = 0;
  if (const int status = tcpu::gemv::ActivationScratchBytes(kFn, kernel, k, &scratch_bytes);
      status != TCPU_OK) {
    return status;
  }
  int status = TCPU_OK;
  int8_t* scratch = tcpu::Scratch(kFn, scratch_bytes, &status);
  if (scratch == nullptr) return status;
  const tcpu::gemv::QuantizedActivation xq = tcpu::gemv::QuantizeActivation(kernel, x, k, scratch);
  if (xq.zero) {  // As FlagTree: an all-zero activation gives y = 0.
    std::memset(y, 0, static_cast<size_t>(n) * sizeof(uint16_t));
    return tcpu::Succeed();
  }
  tcpu::gemv::W8A8Gemv gemv;
  gemv.weights = view;
  gemv.scales = w_scales;
  gemv.y = y;
  status = tcpu::gemv::RunGemv(kernel, tcpu::gemv::W8A8Args(xq, gemv), view.layout.blocks);
  if (status != TCPU_OK) return status;
  return tcpu::Succeed();
}

extern "C" int64_t tcpu_gemv_bf16_w8_scratch_size(int64_t k) {
  int64_t bytes = 0;
  const int status = tcpu::gemv::ActivationScratchBytes("tcpu_gemv_bf16_w8_scratch_size",
                                                        tcpu::gemv::Bf16W8Kernel(), k, &bytes);
  if (status != TCPU_OK) return status;
  tcpu::Succeed();
  return bytes;
}
