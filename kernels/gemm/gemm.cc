// tcpu_gemm_i8, tcpu_gemm_w8a8, tcpu_gemm_bf16_w8a8 and tcpu_gemm_i8_scratch_size: argument
// checks, dispatch (gemm_kernels.h), x packing into scratch, and threading over (m tile x n tile)
// tasks. Tasks are ordered n-major so a thread's contiguous range reuses each weight tile across
// the x tiles; every y element is computed by exactly one task with exact integer sums (and its
// epilogue is its own), so results do not depend on the thread count.
#include "tcpu/gemm.h"

#include <limits>

#include "kernels/gemm/gemm_kernels.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"
#include "tcpu/scratch.h"

namespace tcpu {
namespace {

using gemm::GemmArgs;
using gemm::GemmKernel;
using GemmVariant = KernelVariant<const GemmKernel*>;

constexpr GemmVariant kGemmI8Variants[] = {
#if defined(__aarch64__)
    {"gemm_i8:i8mm", TCPU_FEATURE_I8MM, &gemm::kGemmI8mm},
    {"gemm_i8:dotprod", TCPU_FEATURE_DOTPROD, &gemm::kGemmDotprod},
    {"gemm_i8:neon", 0, &gemm::kGemmNeon},
#endif
    {"gemm_i8:ref", 0, &gemm::kGemmRef},
};

const GemmVariant& I8Variant() {
  static const GemmVariant& variant = SelectVariant(kGemmI8Variants);
  return variant;
}

// Below this many MACs a GEMM stays on the calling thread; above it every task range gets at
// least kMinMacsPerTask.
constexpr int64_t kParallelMacs = int64_t{1} << 18;
constexpr int64_t kMinMacsPerTask = int64_t{1} << 17;

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  return CheckedMul(a, b, &product) ? product : std::numeric_limits<int64_t>::max();
}

int ScratchBytesFor(const char* fn, const GemmKernel& kernel, int64_t m, int64_t chunks,
                    int64_t* bytes) {
  *bytes = 0;
  if (kernel.packed_x_bytes != nullptr && !kernel.packed_x_bytes(m, chunks, bytes)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW,
                "%s: packed x of m = %lld rows, %lld k chunks overflows "
                "int64",
                fn, static_cast<long long>(m), static_cast<long long>(chunks));
  }
  return TCPU_OK;
}

}  // namespace

const char* GemmI8Variant() { return I8Variant().name; }

}  // namespace tcpu

namespace tcpu {
namespace {

// The size checks every entry point shares, then x packing and the tiles over the pool. The
// pointers are checked by the caller; `args` holds the output and its epilogue (gemm_kernels.h:
// Output).
int RunGemm(const char* fn, const void* packed_w, const int8_t* x, int64_t m, int64_t n, int64_t k,
            gemm::GemmArgs args) {
  TCPU_CHECK_POSITIVE(fn, m);
  TCPU_CHECK_POSITIVE(fn, n);
  TCPU_CHECK_POSITIVE(fn, k);
  int64_t x_elements = 0, y_elements = 0;
  TCPU_CHECK_MUL(fn, m, k, &x_elements);
  TCPU_CHECK_MUL(fn, m, n, &y_elements);
  PackedWeightsView view;
  if (const int status = ViewPackedWeights(fn, packed_w, n, k, &view); status != TCPU_OK) {
    return status;
  }
  const gemm::GemmKernel& kernel = *I8Variant().fn;
  args.w = view.data;
  args.chunks = view.layout.chunks;
  args.m = m;
  args.n = n;
  args.k = k;
  args.x = x;
  if (kernel.pack_x != nullptr) {
    int64_t bytes = 0;
    if (const int status = ScratchBytesFor(fn, kernel, m, args.chunks, &bytes); status != TCPU_OK) {
      return status;
    }
    void* scratch = ScratchBytes(bytes);
    if (scratch == nullptr) {
      return Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: cannot allocate %lld bytes of scratch", fn,
                  static_cast<long long>(bytes));
    }
    kernel.pack_x(x, m, k, args.chunks, static_cast<int8_t*>(scratch));
    args.x_packed = static_cast<const int8_t*>(scratch);
  }

  const int64_t m_tiles = (m + kernel.m_tile - 1) / kernel.m_tile;
  const int64_t blocks = view.layout.blocks;
  const int64_t n_tiles = (blocks + gemm::kTileBlocks - 1) / gemm::kTileBlocks;
  auto run_tiles = [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t row0 = (t % m_tiles) * kernel.m_tile;
      const int64_t block0 = (t / m_tiles) * gemm::kTileBlocks;
      const int64_t rows = m - row0 < kernel.m_tile ? m - row0 : kernel.m_tile;
      const int64_t tile_blocks =
          blocks - block0 < gemm::kTileBlocks ? blocks - block0 : gemm::kTileBlocks;
      kernel.run_tile(args, row0, rows, block0, tile_blocks);
    }
  };
  const int64_t tiles = m_tiles * n_tiles;  // <= m * n, which fits
  const int64_t macs = SaturatingMul(m, view.layout.total_bytes);
  if (macs < kParallelMacs) {
    run_tiles(0, tiles);
  } else {
    const int64_t tile_macs =
        SaturatingMul(kernel.m_tile * gemm::kTileBlocks * kPackTileBytes, args.chunks);
    const int64_t grain = tile_macs >= kMinMacsPerTask ? 1 : kMinMacsPerTask / tile_macs;
    if (const int status = ParallelFor(tiles, grain, run_tiles); status != TCPU_OK) {
      return status;
    }
  }
  return Succeed();
}

// tcpu_gemm_w8a8 and tcpu_gemm_bf16_w8a8: their pointers checked, the scales into `args` (which
// holds the output), then RunGemm.
int RunW8A8(const char* fn, const void* packed_w, const float* w_scales, const int8_t* x,
            const float* x_scales, const void* y, int64_t m, int64_t n, int64_t k,
            gemm::GemmArgs args) {
  TCPU_CHECK_NOT_NULL(fn, packed_w);
  TCPU_CHECK_NOT_NULL(fn, w_scales);
  TCPU_CHECK_NOT_NULL(fn, x);
  TCPU_CHECK_NOT_NULL(fn, x_scales);
  TCPU_CHECK_NOT_NULL(fn, y);
  args.x_scales = x_scales;
  args.w_scales = w_scales;
  return RunGemm(fn, packed_w, x, m, n, k, args);
}

}  // namespace
}  // namespace tcpu

extern "C" int tcpu_gemm_i8(const void* packed_w, const int8_t* x, int32_t* y, int64_t m, int64_t n,
                            int64_t k) {
  constexpr const char* kFn = "tcpu_gemm_i8";
  TCPU_CHECK_NOT_NULL(kFn, packed_w);
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, y);
  tcpu::gemm::GemmArgs args;
  args.output = tcpu::gemm::Output::kInt32;
  args.y = y;
  return tcpu::RunGemm(kFn, packed_w, x, m, n, k, args);
}

extern "C" int tcpu_gemm_w8a8(const void* packed_w, const float* w_scales, const int8_t* x,
                              const float* x_scales, float* y, int64_t m, int64_t n, int64_t k) {
  tcpu::gemm::GemmArgs args;
  args.output = tcpu::gemm::Output::kF32;
  args.y_f32 = y;
  return tcpu::RunW8A8("tcpu_gemm_w8a8", packed_w, w_scales, x, x_scales, y, m, n, k, args);
}

extern "C" int tcpu_gemm_bf16_w8a8(const void* packed_w, const float* w_scales, const float* bias,
                                   const int8_t* x, const float* x_scales, uint16_t* y, int64_t m,
                                   int64_t n, int64_t k) {
  tcpu::gemm::GemmArgs args;
  args.output = tcpu::gemm::Output::kBf16;
  args.y_bf16 = y;
  args.bias = bias;  // may be NULL: no bias
  return tcpu::RunW8A8("tcpu_gemm_bf16_w8a8", packed_w, w_scales, x, x_scales, y, m, n, k, args);
}

extern "C" int64_t tcpu_gemm_i8_scratch_size(int64_t m, int64_t k) {
  constexpr const char* kFn = "tcpu_gemm_i8_scratch_size";
  TCPU_CHECK_POSITIVE(kFn, m);
  TCPU_CHECK_POSITIVE(kFn, k);
  if (k > std::numeric_limits<int64_t>::max() - 7) {
    return tcpu::Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: k = %lld overflows when padded to %d", kFn,
                      static_cast<long long>(k), TCPU_PACK_KR);
  }
  const int64_t chunks = (k + 7) / 8;
  int64_t bytes = 0;
  if (const int status = tcpu::ScratchBytesFor(kFn, *tcpu::I8Variant().fn, m, chunks, &bytes);
      status != TCPU_OK) {
    return status;
  }
  tcpu::Succeed();
  return bytes;
}
