// tcpu_quantize_q4_f32 / _bf16: the group quantization of tcpu/gemv_q4.h. Runs once at load,
// so it is portable scalar code (split over rows on the thread pool); every weight and every
// group's fp16 scale is checked before anything is written.
#include <cmath>
#include <cstdint>

#include "runtime/check.h"
#include "runtime/thread_pool.h"
#include "tcpu/bf16.h"
#include "tcpu/fp16.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::q4 {
namespace {

constexpr int64_t kGroup = TCPU_Q4_GROUP;
// Each task quantizes at least this many weights: below that, waking workers costs more.
constexpr int64_t kMinWeightsPerTask = int64_t{1} << 16;

inline float ToFloat(float v) { return v; }
inline float ToFloat(uint16_t v) { return tcpu_bf16_to_f32(v); }

// The weight of largest magnitude in w[j0, j1) (the first of equal magnitudes).
template <typename T>
float GroupMax(const T* w, int64_t j0, int64_t j1) {
  float m = 0.0f;
  for (int64_t j = j0; j < j1; ++j) {
    const float v = ToFloat(w[j]);
    if (std::fabs(v) > std::fabs(m)) m = v;  // strict: the first of equal magnitudes wins
  }
  return m;
}

// One row: groups of 32 (the last one shorter when k % 32 != 0). The q are rounded against
// the fp16 scale the kernels multiply by, not the fp32 quotient it was rounded from.
template <typename T>
void QuantizeRow(const T* w, int64_t k, int8_t* q, uint16_t* scales) {
  for (int64_t g = 0, j0 = 0; j0 < k; ++g, j0 += kGroup) {
    const int64_t j1 = j0 + kGroup < k ? j0 + kGroup : k;
    const uint16_t bits = tcpu_f32_to_f16(GroupMax(w, j0, j1) / -8.0f);
    const float scale = tcpu_f16_to_f32(bits);
    scales[g] = scale == 0.0f ? 0 : bits;  // an all-zero group (or -0, or underflow): +0
    for (int64_t j = j0; j < j1; ++j) {
      if (scale == 0.0f) {
        q[j] = 0;
        continue;
      }
      const float r = std::nearbyint(ToFloat(w[j]) / scale);  // ties to even (default mode)
      q[j] = static_cast<int8_t>(r < -8.0f ? -8.0f : (r > 7.0f ? 7.0f : r));
    }
  }
}

// A group's scale m / -8 rounds to fp16 infinity exactly when |m| >= 8 x 65520, i.e. when one
// of its weights has that magnitude (m is the largest).
constexpr float kUnquantizableMagnitude = 8.0f * 65520.0f;

// Whether w[i] is quantizable: finite and below kUnquantizableMagnitude (NaN compares false).
template <typename T>
inline bool Quantizable(T w) {
  return std::fabs(ToFloat(w)) < kUnquantizableMagnitude;
}

// TCPU_OK, or the error naming the first weight that is not finite or makes its group's scale
// overflow fp16. Chunks are scanned without an early exit, so the scan vectorizes; only a
// chunk with a bad weight is searched again for the first one.
template <typename T>
int CheckWeights(const char* fn, const T* w, int64_t count, int64_t k) {
  constexpr int64_t kChunk = 256;
  for (int64_t c = 0; c < count; c += kChunk) {
    const int64_t end = c + kChunk < count ? c + kChunk : count;
    bool all = true;
    for (int64_t i = c; i < end; ++i) all &= Quantizable(w[i]);
    if (all) continue;
    int64_t i = c;
    while (Quantizable(w[i])) ++i;
    const float v = ToFloat(w[i]);
    const long long row = i / k, col = i % k;
    if (!std::isfinite(v)) {
      return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: w[%lld][%lld] = %g is not finite", fn, row, col,
                  static_cast<double>(v));
    }
    const long long first = col / kGroup * kGroup;
    const long long last = first + kGroup < k ? first + kGroup - 1 : k - 1;
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: w[%lld][%lld..%lld] has a weight of magnitude %g: its scale (that / 8) "
                "exceeds fp16's largest, 65504",
                fn, row, first, last, static_cast<double>(std::fabs(v)));
  }
  return TCPU_OK;
}

template <typename T>
int Quantize(const char* fn, const T* w, int64_t n, int64_t k, int8_t* q, uint16_t* scales) {
  TCPU_CHECK_NOT_NULL(fn, w);
  TCPU_CHECK_NOT_NULL(fn, q);
  TCPU_CHECK_NOT_NULL(fn, scales);
  TCPU_CHECK_POSITIVE(fn, n);
  TCPU_CHECK_POSITIVE(fn, k);
  int64_t count = 0;
  TCPU_CHECK_MUL(fn, n, k, &count);
  const int64_t groups = tcpu_q4_groups(k);
  if (const int status = CheckWeights(fn, w, count, k); status != TCPU_OK) return status;
  const int64_t grain = k >= kMinWeightsPerTask ? 1 : kMinWeightsPerTask / k;
  const int status = ParallelFor(n, grain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) QuantizeRow(w + i * k, k, q + i * k, scales + i * groups);
  });
  if (status != TCPU_OK) return status;
  return Succeed();
}

}  // namespace
}  // namespace tcpu::q4

extern "C" int64_t tcpu_q4_groups(int64_t k) {
  if (k <= 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "tcpu_q4_groups: k = %lld, expected > 0",
                      static_cast<long long>(k));
  }
  tcpu::Succeed();
  return k / TCPU_Q4_GROUP + (k % TCPU_Q4_GROUP != 0 ? 1 : 0);
}

extern "C" int tcpu_quantize_q4_f32(const float* w, int64_t n, int64_t k, int8_t* q,
                                    uint16_t* scales) {
  return tcpu::q4::Quantize("tcpu_quantize_q4_f32", w, n, k, q, scales);
}

extern "C" int tcpu_quantize_q4_bf16(const uint16_t* w, int64_t n, int64_t k, int8_t* q,
                                     uint16_t* scales) {
  return tcpu::q4::Quantize("tcpu_quantize_q4_bf16", w, n, k, q, scales);
}
