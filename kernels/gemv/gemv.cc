// tcpu_gemv_i8, tcpu_gemv_bf16_w8 and tcpu_gemv_bf16_w8_scratch_size: argument checks,
// dispatch (gemv_kernels.h), scratch and threading. Rows are split over the pool in pairs of
// blocks (8 rows, the unit the vector kernels unroll); each row is computed by exactly one
// thread with exact integer sums, so results do not depend on the thread count.
#include "tcpu/gemv.h"

#include <cstring>

#include "kernels/gemv/gemv_kernels.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"
#include "tcpu/scratch.h"

namespace tcpu {
namespace {

using gemv::GemvArgs;
using gemv::GemvKernel;
using GemvVariant = KernelVariant<const GemvKernel*>;

constexpr GemvVariant kGemvI8Variants[] = {
#if defined(__aarch64__)
    {"gemv_i8:sve2", TCPU_FEATURE_SVE2, &gemv::kGemvSve2},
    {"gemv_i8:dotprod", TCPU_FEATURE_DOTPROD, &gemv::kGemvDotprod},
    {"gemv_i8:neon", 0, &gemv::kGemvNeon},
#endif
    {"gemv_i8:ref", 0, &gemv::kGemvRef},
};

constexpr GemvVariant kGemvBf16W8Variants[] = {
#if defined(__aarch64__)
    {"gemv_bf16_w8:sve2", TCPU_FEATURE_SVE2, &gemv::kGemvSve2},
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

// Below this many MACs a GEMV stays on the calling thread (waking workers costs more); above
// it every task gets at least kMinMacsPerTask.
constexpr int64_t kParallelMacs = int64_t{1} << 18;
constexpr int64_t kMinMacsPerTask = int64_t{1} << 17;

int64_t RoundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

int RunAllBlocks(const GemvKernel& kernel, const GemvArgs& args, int64_t blocks) {
  const int64_t macs_per_block = args.chunks * kPackTileBytes;
  if (blocks * macs_per_block < kParallelMacs) {
    kernel.run_blocks(args, 0, blocks);
    return TCPU_OK;
  }
  const int64_t pairs = (blocks + 1) / 2;
  const int64_t macs_per_pair = 2 * macs_per_block;
  const int64_t grain = macs_per_pair >= kMinMacsPerTask ? 1 : kMinMacsPerTask / macs_per_pair;
  return ParallelFor(pairs, grain, [&](int64_t begin, int64_t end) {
    kernel.run_blocks(args, 2 * begin, 2 * end < blocks ? 2 * end : blocks);
  });
}

// Scratch of tcpu_gemv_bf16_w8: the quantized x (64-byte aligned slot), then the kernel's
// prepared x. n * k fitting int64 bounds this for any call that gets here, but the public
// size query takes any k.
int GemvBf16W8ScratchBytes(const char* fn, const GemvKernel& kernel, int64_t k, int64_t* bytes) {
  TCPU_CHECK_POSITIVE(fn, k);
  const int64_t chunks = k / kPackBytes + (k % kPackBytes != 0 ? 1 : 0);
  int64_t prepared = 0;
  if (k > INT64_MAX - 63 || !CheckedMul(chunks, kernel.prepared_x_bytes_per_chunk, &prepared) ||
      __builtin_add_overflow(RoundUp(k, 64), prepared, bytes)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: scratch size for k = %lld overflows int64", fn,
                static_cast<long long>(k));
  }
  return TCPU_OK;
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
  tcpu::gemv::GemvArgs args;
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
  if (const int status = tcpu::RunAllBlocks(kernel, args, view.layout.blocks); status != TCPU_OK) {
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
  const tcpu::gemv::GemvKernel& kernel = *tcpu::Bf16W8Variant().fn;
  int64_t scratch_bytes = 0;
  if (const int status = tcpu::GemvBf16W8ScratchBytes(kFn, kernel, k, &scratch_bytes);
      status != TCPU_OK) {
    return status;
  }

  const float absmax = kernel.absmax_bf16(x, k);
  if (absmax == 0.0f) {  // As FlagTree: an all-zero activation gives y = 0.
    std::memset(y, 0, static_cast<size_t>(n) * sizeof(uint16_t));
    return tcpu::Succeed();
  }
  int status = TCPU_OK;
  int8_t* scratch = tcpu::Scratch(kFn, scratch_bytes, &status);
  if (scratch == nullptr) return status;
  int8_t* q = scratch;
  kernel.quantize_bf16(x, k, 127.0f / absmax, q);

  tcpu::gemv::GemvArgs args;
  args.w = view.data;
  args.chunks = view.layout.chunks;
  args.n = n;
  args.k = k;
  args.x = q;
  args.y_bf16 = y;
  args.w_scales = w_scales;
  args.x_scale = absmax / 127.0f;
  if (kernel.prepare_x != nullptr) {
    args.x_prepared = scratch + tcpu::RoundUp(k, 64);
    kernel.prepare_x(q, k, args.chunks, scratch + tcpu::RoundUp(k, 64));
  }
  status = tcpu::RunAllBlocks(kernel, args, view.layout.blocks);
  if (status != TCPU_OK) return status;
  return tcpu::Succeed();
}

extern "C" int64_t tcpu_gemv_bf16_w8_scratch_size(int64_t k) {
  int64_t bytes = 0;
  const int status = tcpu::GemvBf16W8ScratchBytes("tcpu_gemv_bf16_w8_scratch_size",
                                                  *tcpu::Bf16W8Variant().fn, k, &bytes);
  if (status != TCPU_OK) return status;
  tcpu::Succeed();
  return bytes;
}
