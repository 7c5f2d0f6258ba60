// tcpu_gemv_w4a8, tcpu_gemm_w4a8 and tcpu_gemv_bf16_w4: argument checks, dispatch
// (q4_kernels.h), scratch and the split over tiles. Every row is computed by one thread with the
// fixed arithmetic of tcpu/gemv_q4.h, so results do not depend on the thread count or the variant.
#include <cstring>

#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/grouped/grouped_runner.h"
#include "kernels/q4/q4_gemvs.h"
#include "kernels/q4/q4_kernels.h"
#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "tcpu/bf16.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::q4 {
namespace {

#if defined(__aarch64__)
// SVE2 only from 256-bit vectors: at 128 bits the dotprod kernel reads a 64-byte unit with one
// load where SVE needs four, and converts with SCVTF #4 where SVE shifts first.
constexpr int kSve2MinBits = 256;

// From 512-bit vectors every x row through the SVE2 GEMV executes fewer instructions per MAC
// than SMMLA at 128 bits (tools/perf, M = 16: 0.067 against 0.080).
constexpr int kSve2RowsBeatI8mmBits = 512;
#endif

constexpr KernelVariant<GemvTilesFn> kGemvVariants[] = {
#if defined(__aarch64__)
    {"gemv_w4a8:sve2", TCPU_FEATURE_SVE2, GemvTilesSve2, kSve2MinBits},
    {"gemv_w4a8:dotprod", TCPU_FEATURE_DOTPROD, GemvTilesDotprod},
    {"gemv_w4a8:neon", 0, GemvTilesNeon},
#endif
    {"gemv_w4a8:ref", 0, GemvTilesRef},
};

// The GEMM: SMMLA where there is i8mm, else every x row through a GEMV kernel (rows; for the
// i8mm entry, m = 1 runs the dispatched GEMV).
struct GemmKernel {
  void (*i8mm)(const GemmArgs&, int64_t, int64_t);
  GemvTilesFn rows;
};

constexpr KernelVariant<GemmKernel> kGemmVariants[] = {
#if defined(__aarch64__)
    {"gemm_w4a8:sve2", TCPU_FEATURE_SVE2, {nullptr, GemvTilesSve2}, kSve2RowsBeatI8mmBits},
    {"gemm_w4a8:i8mm", TCPU_FEATURE_I8MM, {GemmTilesI8mm, nullptr}},
    {"gemm_w4a8:sve2", TCPU_FEATURE_SVE2, {nullptr, GemvTilesSve2}, kSve2MinBits},
    {"gemm_w4a8:dotprod", TCPU_FEATURE_DOTPROD, {nullptr, GemvTilesDotprod}},
    {"gemm_w4a8:neon", 0, {nullptr, GemvTilesNeon}},
#endif
    {"gemm_w4a8:ref", 0, {nullptr, GemvTilesRef}},
};

const KernelVariant<GemvTilesFn>& GemvVariant() {
  static const KernelVariant<GemvTilesFn>& variant = SelectVariant(kGemvVariants);
  return variant;
}

const KernelVariant<GemmKernel>& GemmVariant() {
  static const KernelVariant<GemmKernel>& variant = SelectVariant(kGemmVariants);
  return variant;
}

using grouped::ArrangeXPairs;
using grouped::ForEachTile;
using grouped::PadX;
using grouped::Scratch;

}  // namespace

void RunTileUnits(const int8_t* x, float x_scale, const SharedGemv& gemv, int64_t unit_begin,
                  int64_t unit_end) {
  grouped::RunGemvUnits<W4GemvArgs>(GemvVariant().fn, gemv.w, x, x_scale, gemv.y_f32, gemv.y,
                                    unit_begin, unit_end);
}

}  // namespace tcpu::q4

namespace tcpu {
const char* GemvW4A8Variant() { return q4::GemvVariant().name; }
const char* GemmW4A8Variant() { return q4::GemmVariant().name; }
}  // namespace tcpu

extern "C" int tcpu_gemv_w4a8(const void* packed_w, const int8_t* x, float x_scale, float* y,
                              int64_t n, int64_t k) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_gemv_w4a8";
  TCPU_CHECK_NOT_NULL(kFn, packed_w);
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, y);
  W4GemvArgs args;
  if (const int status = ViewQ4(kFn, packed_w, n, k, &args.w); status != TCPU_OK) return status;
  const int64_t groups = args.w.layout.groups;
  int status = TCPU_OK;
  args.x = x;
  if (k % kGroup != 0) {  // the kernels read whole groups: a zero-padded copy
    int8_t* padded = Scratch(kFn, groups * kGroup, &status);  // < packed size: fits int64
    if (padded == nullptr) return status;
    PadX(x, k, groups, padded);
    args.x = padded;
  }
  args.x_scale = x_scale;
  args.y = y;
  const GemvTilesFn run = GemvVariant().fn;
  status = ForEachTile(args.w.layout, groups * kGroup,
                       [&](int64_t begin, int64_t end) { run(args, begin, end); });
  if (status != TCPU_OK) return status;
  return tcpu::Succeed();
}

extern "C" int tcpu_gemm_w4a8(const void* packed_w, const int8_t* x, const float* x_scales,
                              float* y, int64_t m, int64_t n, int64_t k) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_gemm_w4a8";
  TCPU_CHECK_NOT_NULL(kFn, packed_w);
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, x_scales);
  TCPU_CHECK_NOT_NULL(kFn, y);
  TCPU_CHECK_POSITIVE(kFn, m);
  Q4View w;
  if (const int status = ViewQ4(kFn, packed_w, n, k, &w); status != TCPU_OK) return status;
  const int64_t groups = w.layout.groups;
  int64_t x_bytes = 0, y_count = 0;
  TCPU_CHECK_MUL(kFn, m + 1, groups * kGroup, &x_bytes);  // m rounded up to pairs
  TCPU_CHECK_MUL(kFn, m, n, &y_count);
  int status = TCPU_OK;
  int8_t* scratch = Scratch(kFn, x_bytes, &status);
  if (scratch == nullptr) return status;
  const GemmKernel& kernel = GemmVariant().fn;
  int64_t macs_per_row = 0;
  TCPU_CHECK_MUL(kFn, m, groups * kGroup, &macs_per_row);
  if (kernel.i8mm != nullptr && m > 1) {  // one row: SMMLA would waste half its products
    ArrangeXPairs(x, m, k, groups, scratch);
    GemmArgs args;
    args.w = w;
    args.x_pairs = scratch;
    args.x_scales = x_scales;
    args.m = m;
    args.y = y;
    status = ForEachTile(w.layout, macs_per_row,
                         [&](int64_t begin, int64_t end) { kernel.i8mm(args, begin, end); });
  } else {
    // The i8mm entry runs a single row through the GEMV this CPU dispatches to.
    const GemvTilesFn rows = kernel.rows != nullptr ? kernel.rows : GemvVariant().fn;
    for (int64_t r = 0; r < m; ++r) PadX(x + r * k, k, groups, scratch + r * groups * kGroup);
    status = ForEachTile(w.layout, macs_per_row, [&](int64_t begin, int64_t end) {
      for (int64_t r = 0; r < m; ++r) {
        W4GemvArgs args;
        args.w = w;
        args.x = scratch + r * groups * kGroup;
        args.x_scale = x_scales[r];
        args.y = y + r * n;
        rows(args, begin, end);
      }
    });
  }
  if (status != TCPU_OK) return status;
  return tcpu::Succeed();
}

extern "C" int tcpu_gemv_bf16_w4(const void* packed_w, const uint16_t* x, uint16_t* y, int64_t n,
                                 int64_t k) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_gemv_bf16_w4";
  TCPU_CHECK_NOT_NULL(kFn, packed_w);
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, y);
  W4GemvArgs args;
  if (const int status = ViewQ4(kFn, packed_w, n, k, &args.w); status != TCPU_OK) return status;
  // The W8A8 GEMV's own quantizer, so both formats see the same int8 activations.
  const tcpu::gemv::GemvKernel& quantizer = tcpu::gemv::Bf16W8Kernel();
  const float absmax = quantizer.absmax_bf16(x, k);
  if (absmax == 0.0f) {  // As tcpu_gemv_bf16_w8: an all-zero activation gives y = 0.
    std::memset(y, 0, static_cast<size_t>(n) * sizeof(uint16_t));
    return tcpu::Succeed();
  }
  const int64_t groups = args.w.layout.groups;
  const int64_t x_bytes = tcpu::AlignScratch(groups * kGroup);  // both < the packed size
  int status = TCPU_OK;
  int8_t* scratch = Scratch(kFn, x_bytes + n * static_cast<int64_t>(sizeof(float)), &status);
  if (scratch == nullptr) return status;
  quantizer.quantize_bf16(x, k, 127.0f / absmax, scratch);
  std::memset(scratch + k, 0, static_cast<size_t>(groups * kGroup - k));
  float* y_f32 = reinterpret_cast<float*>(scratch + x_bytes);
  args.x = scratch;
  args.x_scale = absmax / 127.0f;
  args.y = y_f32;
  const GemvTilesFn run = GemvVariant().fn;
  status = ForEachTile(args.w.layout, groups * kGroup,
                       [&](int64_t begin, int64_t end) { run(args, begin, end); });
  if (status != TCPU_OK) return status;
  for (int64_t i = 0; i < n; ++i) y[i] = tcpu_f32_to_bf16(y_f32[i]);
  return tcpu::Succeed();
}
