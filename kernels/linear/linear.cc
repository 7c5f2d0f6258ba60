// The int8 / int4 / block-Q8 linear-layer runner (linear.h).
#include "kernels/linear/linear.h"

#include <cstring>

#if defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "kernels/grouped/grouped_runner.h"
#include "kernels/q4/q4_gemvs.h"
#include "kernels/q8/q8_gemvs.h"
#include "runtime/check.h"
#include "runtime/parallel_units.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"
#include "tcpu/gemm.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/gemv_q8.h"
#include "tcpu/scratch.h"

namespace tcpu::linear {
namespace {

// Columns of a row one unit of RunRows' int8 epilogue scales.
constexpr int64_t kScalePiece = 2048;

// y[i] = (float)sum[i] * sx * w_scales[i], the sums read from y's own storage: two roundings,
// no FMA, as the GEMV's epilogue. The vector form is the same arithmetic four lanes at a time.
void ScaleSums(const float* w_scales, float sx, int64_t n, float* y) {
  int64_t i = 0;
#if defined(__aarch64__)
  for (; i + 4 <= n; i += 4) {
    const int32x4_t sum = vreinterpretq_s32_f32(vld1q_f32(y + i));
    const float32x4_t scaled = vmulq_n_f32(vcvtq_f32_s32(sum), sx);
    vst1q_f32(y + i, vmulq_f32(scaled, vld1q_f32(w_scales + i)));
  }
#endif
  for (; i < n; ++i) {
    int32_t sum;
    std::memcpy(&sum, y + i, sizeof(sum));
    const float scaled = static_cast<float>(sum) * sx;
    const float value = scaled * w_scales[i];
    std::memcpy(y + i, &value, sizeof(value));
  }
}

}  // namespace

int View(const char* context, const void* packed, const float* scales, int64_t n, int64_t k,
         LinearView* view) {
  if (packed == nullptr) return Fail(TCPU_ERR_NULL_POINTER, "%s: packed is NULL", context);
  view->packed = packed;
  const bool int4 = q4::IsQ4Packed(packed), block_q8 = q8::IsQ8Packed(packed);
  if (int4 || block_q8) {
    if (scales != nullptr) {
      return Fail(TCPU_ERR_INVALID_ARGUMENT,
                  "%s: an %s matrix holds its own scales; scales must be NULL", context,
                  int4 ? "int4" : "block-Q8");
    }
    view->scales = nullptr;
    view->format = int4 ? Format::kInt4 : Format::kBlockQ8;
    return int4 ? q4::ViewQ4(context, packed, n, k, &view->w4)
                : q8::ViewQ8(context, packed, n, k, &view->q8);
  }
  if (scales == nullptr) {
    return Fail(TCPU_ERR_NULL_POINTER, "%s: scales is NULL (an int8 matrix needs them)", context);
  }
  view->format = Format::kInt8;
  view->scales = scales;
  return ViewPackedWeights(context, packed, n, k, &view->w8);
}

int Run(const gemv::QuantizedActivation& x, const Output* outputs, int count) {
  if (x.zero) {  // as the GEMVs: an all-zero activation gives y = 0
    for (int i = 0; i < count; ++i) {
      const Output& o = outputs[i];
      const size_t n = static_cast<size_t>(o.weights.n());
      if (o.y != nullptr) {
        std::memset(o.y, 0, n * sizeof(uint16_t));
      } else {
        std::memset(o.y_f32, 0, n * sizeof(float));
      }
    }
    return TCPU_OK;
  }
  const gemv::GemvKernel& kernel = gemv::Bf16W8Kernel();
  gemv::I8GemvArgs w8[kMaxUnitJobs];
  q4::SharedGemv w4[kMaxUnitJobs];
  q8::SharedGemv q8[kMaxUnitJobs];
  int64_t units[kMaxUnitJobs], macs_per_unit[kMaxUnitJobs];
  bool any_grouped = false;
  for (int i = 0; i < count; ++i) {
    const Output& o = outputs[i];
    if (o.weights.format == Format::kInt4) {
      any_grouped = true;
      w4[i] = {o.weights.w4, o.y_f32, o.y};
      units[i] = q4::TileUnits(o.weights.w4.layout);
      macs_per_unit[i] = q4::MacsPerTileUnit(o.weights.w4.layout);
    } else if (o.weights.format == Format::kBlockQ8) {
      any_grouped = true;
      q8[i] = {o.weights.q8, o.y_f32, o.y};
      units[i] = grouped::TileUnits(o.weights.q8.layout);
      macs_per_unit[i] = grouped::MacsPerTileUnit(o.weights.q8.layout);
    } else {
      w8[i] = gemv::W8A8Args(x, {o.weights.w8, o.weights.scales, o.y, o.y_f32});
      units[i] = gemv::BlockPairs(o.weights.w8.layout.blocks);
      macs_per_unit[i] = gemv::MacsPerBlockPair(w8[i]);
    }
  }
  if (any_grouped) {
    // The int4 and block-Q8 kernels read whole groups of 32: zero x past k (inside its
    // AlignScratch(k) bytes, gemv_w8a8.h). Only here, so int8-only calls pay nothing for it.
    const int64_t padded = (x.k + TCPU_Q4_GROUP - 1) / TCPU_Q4_GROUP * TCPU_Q4_GROUP;
    std::memset(x.q + x.k, 0, static_cast<size_t>(padded - x.k));
  }
  return ParallelForUnits(units, macs_per_unit, count, [&](int i, int64_t begin, int64_t end) {
    const Format format = outputs[i].weights.format;
    if (format == Format::kInt4) {
      q4::RunTileUnits(x.q, x.scale, w4[i], begin, end);
    } else if (format == Format::kBlockQ8) {
      q8::RunTileUnits(x.q, x.scale, q8[i], begin, end);
    } else {
      gemv::RunBlockPairs(kernel, w8[i], outputs[i].weights.w8.layout.blocks, begin, end);
    }
  });
}

int RunRows(const LinearView& w, const int8_t* xq, const float* x_scales, int64_t m, int64_t k,
            float* y) {
  const int64_t n = w.n();
  if (w.format == Format::kInt4) {
    return tcpu_gemm_w4a8(w.packed, xq, x_scales, y, m, n, k);
  }
  if (w.format == Format::kBlockQ8) {
    return tcpu_gemm_q8(w.packed, xq, x_scales, y, m, n, k);
  }
  // The int32 sums land in y and are scaled in place (each element read before it is written).
  static_assert(sizeof(int32_t) == sizeof(float), "int32 sums share y's storage");
  int32_t* acc = reinterpret_cast<int32_t*>(y);
  if (int s = tcpu_gemm_i8(w.packed, xq, acc, m, n, k); s != TCPU_OK) {
    return s;
  }
  // Spread over the pool in pieces of a row: a prefill block's rows, or the one wide row of
  // the logits.
  const int64_t pieces = (n + kScalePiece - 1) / kScalePiece;
  return ParallelFor(m * pieces, 1, [&](int64_t begin, int64_t end) {
    for (int64_t u = begin; u < end; ++u) {
      const int64_t r = u / pieces, first = u % pieces * kScalePiece;
      const int64_t count = n - first < kScalePiece ? n - first : kScalePiece;
      ScaleSums(w.scales + first, x_scales[r], count, y + r * n + first);
    }
  });
}

int64_t RowsScratchBytes(int64_t m, int64_t k) {
  const int64_t int8 = tcpu_gemm_i8_scratch_size(m, k);
  if (int8 < 0) return int8;
  const int64_t groups = tcpu_q4_groups(k);
  if (groups < 0) return groups;
  int64_t int4 = 0;  // tcpu_gemm_w4a8 and tcpu_gemm_q8: m + 1 rows of whole groups
  if (!CheckedMul(m + 1, groups * TCPU_Q4_GROUP, &int4)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "linear: scratch for m = %lld, k = %lld overflows int64",
                static_cast<long long>(m), static_cast<long long>(k));
  }
  int4 = AlignScratch(int4);
  return int8 > int4 ? int8 : int4;
}

}  // namespace tcpu::linear
