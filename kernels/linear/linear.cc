// The int8 / int4 linear-layer runner (linear.h).
#include "kernels/linear/linear.h"

#include <cstring>

#include "kernels/q4/q4_gemvs.h"
#include "runtime/check.h"
#include "runtime/scratch_arena.h"
#include "tcpu/gemm.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/scratch.h"

namespace tcpu::linear {

int View(const char* context, const void* packed, const float* scales, int64_t n, int64_t k,
         LinearView* view) {
  if (packed == nullptr) return Fail(TCPU_ERR_NULL_POINTER, "%s: packed is NULL", context);
  view->packed = packed;
  if (q4::IsQ4Packed(packed)) {
    if (scales != nullptr) {
      return Fail(TCPU_ERR_INVALID_ARGUMENT,
                  "%s: an int4 matrix holds its own scales; scales must be NULL", context);
    }
    view->int4 = true;
    view->scales = nullptr;
    return q4::ViewQ4(context, packed, n, k, &view->w4);
  }
  if (scales == nullptr) {
    return Fail(TCPU_ERR_NULL_POINTER, "%s: scales is NULL (an int8 matrix needs them)", context);
  }
  view->int4 = false;
  view->scales = scales;
  return ViewPackedWeights(context, packed, n, k, &view->w8);
}

int Run(const gemv::QuantizedActivation& x, const Output* outputs, int count) {
  gemv::W8A8Gemv w8[gemv::kMaxSharedGemvs];
  q4::SharedGemv w4[gemv::kMaxSharedGemvs];
  int count8 = 0, count4 = 0;
  for (int i = 0; i < count; ++i) {
    const Output& o = outputs[i];
    if (o.weights.int4) {
      if (x.zero) {  // as the int8 GEMV: an all-zero activation gives y = 0
        const size_t n = static_cast<size_t>(o.weights.n());
        if (o.y != nullptr) {
          std::memset(o.y, 0, n * sizeof(uint16_t));
        } else {
          std::memset(o.y_f32, 0, n * sizeof(float));
        }
        continue;
      }
      w4[count4++] = {o.weights.w4, o.y_f32, o.y};
    } else {
      w8[count8++] = {o.weights.w8, o.weights.scales, o.y, o.y_f32};
    }
  }
  if (count8 > 0) {
    if (int s = gemv::RunW8A8Gemvs(gemv::Bf16W8Kernel(), x, w8, count8); s != TCPU_OK) return s;
  }
  if (count4 > 0) {
    // The int4 kernels read whole groups of 32: zero x past k (inside its AlignScratch(k)
    // bytes, gemv_w8a8.h). Only here, so int8-only calls pay nothing for it.
    const int64_t padded = (x.k + TCPU_Q4_GROUP - 1) / TCPU_Q4_GROUP * TCPU_Q4_GROUP;
    std::memset(x.q + x.k, 0, static_cast<size_t>(padded - x.k));
    return q4::RunSharedGemvs(x.q, x.scale, w4, count4);
  }
  return TCPU_OK;
}

int RunRows(const LinearView& w, const int8_t* xq, const float* x_scales, int64_t m, int64_t k,
            float* y) {
  const int64_t n = w.n();
  if (w.int4) {
    return tcpu_gemm_w4a8(w.packed, xq, x_scales, y, m, n, k);
  }
  // The int32 sums land in y and are scaled in place (each element read before it is written).
  static_assert(sizeof(int32_t) == sizeof(float), "int32 sums share y's storage");
  int32_t* acc = reinterpret_cast<int32_t*>(y);
  if (int s = tcpu_gemm_i8(w.packed, xq, acc, m, n, k); s != TCPU_OK) {
    return s;
  }
  for (int64_t r = 0; r < m; ++r) {
    const float sx = x_scales[r];
    for (int64_t i = 0; i < n; ++i) {
      int32_t sum;
      std::memcpy(&sum, y + r * n + i, sizeof(sum));
      const float scaled = static_cast<float>(sum) * sx;  // no FMA: the GEMV's two roundings
      const float value = scaled * w.scales[i];
      std::memcpy(y + r * n + i, &value, sizeof(value));
    }
  }
  return TCPU_OK;
}

int64_t RowsScratchBytes(int64_t m, int64_t k) {
  const int64_t int8 = tcpu_gemm_i8_scratch_size(m, k);
  if (int8 < 0) return int8;
  const int64_t groups = tcpu_q4_groups(k);
  if (groups < 0) return groups;
  int64_t int4 = 0;  // tcpu_gemm_w4a8: m + 1 rows of whole groups
  if (!CheckedMul(m + 1, groups * TCPU_Q4_GROUP, &int4)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "linear: scratch for m = %lld, k = %lld overflows int64",
                static_cast<long long>(m), static_cast<long long>(k));
  }
  int4 = AlignScratch(int4);
  return int8 > int4 ? int8 : int4;
}

}  // namespace tcpu::linear
