// The int8 / int4 / block-Q8 linear-layer runner (linear.h).
#include "kernels/linear/linear.h"

#include <cstring>

#include "kernels/grouped/grouped_runner.h"
#include "kernels/q4/q4_gemvs.h"
#include "kernels/q8/q8_gemvs.h"
#include "runtime/check.h"
#include "runtime/parallel_units.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"
#include "tcpu/bf16.h"
#include "tcpu/gemm.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/gemv_q8.h"
#include "tcpu/scratch.h"

namespace tcpu::linear {
namespace {

// Rows of fp32 RunRowsBf16 rounds per unit of the pool (int4 and block-Q8).
constexpr int64_t kRoundPiece = 2048;

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
  return tcpu_gemm_w8a8(w.packed, w.scales, xq, x_scales, y, m, n, k);
}

int RunRowsBf16(const LinearView& w, const int8_t* xq, const float* x_scales, int64_t m, int64_t k,
                const float* bias, uint16_t* y, float* y_f32) {
  const int64_t n = w.n();
  if (w.format == Format::kInt8) {
    return tcpu_gemm_bf16_w8a8(w.packed, w.scales, bias, xq, x_scales, y, m, n, k);
  }
  if (int s = RunRows(w, xq, x_scales, m, k, y_f32); s != TCPU_OK) return s;
  // One rounding of each fp32 value (plus its bias), in pieces of a row over the pool.
  const int64_t pieces = (n + kRoundPiece - 1) / kRoundPiece;
  return ParallelFor(m * pieces, 1, [&](int64_t begin, int64_t end) {
    for (int64_t u = begin; u < end; ++u) {
      const int64_t r = u / pieces, first = u % pieces * kRoundPiece;
      const int64_t last = n - first < kRoundPiece ? n : first + kRoundPiece;
      const float* in = y_f32 + r * n;
      uint16_t* out = y + r * n;
      if (bias == nullptr) {
        for (int64_t i = first; i < last; ++i) out[i] = tcpu_f32_to_bf16(in[i]);
      } else {
        for (int64_t i = first; i < last; ++i) out[i] = tcpu_f32_to_bf16(in[i] + bias[i]);
      }
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
