// tcpu_rope_bf16 and tcpu_rope_freqs_bf16: a few hundred multiplications per layer and token,
// so one portable implementation serves every CPU; its cos/sin table is computed once per
// call and shared by all heads.
#include "tcpu/rope.h"

#include <cmath>

#include "runtime/check.h"
#include "tcpu/bf16.h"

namespace {

// Half a head of 2048 dims (the largest head_dim the cos/sin table on the stack covers).
constexpr int64_t kMaxHalf = 1024;

uint16_t ToBf16(double value) { return tcpu_f32_to_bf16(static_cast<float>(value)); }

int CheckArgs(const char* fn, const uint16_t* x, int64_t num_heads, int64_t head_dim,
              int64_t position) {
  TCPU_CHECK_NOT_NULL(fn, x);
  TCPU_CHECK_POSITIVE(fn, num_heads);
  TCPU_CHECK_POSITIVE(fn, head_dim);
  if (head_dim % 2 != 0 || head_dim / 2 > kMaxHalf) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: head_dim = %lld must be even and at most %lld",
                      fn, static_cast<long long>(head_dim),
                      static_cast<long long>(2 * kMaxHalf));
  }
  if (position < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: position = %lld is negative", fn,
                      static_cast<long long>(position));
  }
  int64_t elements = 0;
  TCPU_CHECK_MUL(fn, num_heads, head_dim, &elements);
  return TCPU_OK;
}

// Rotates every head by the fp32 cos/sin table (float64 arithmetic, exact products).
void Rotate(uint16_t* x, int64_t num_heads, int64_t head_dim, const float* cos_table,
            const float* sin_table) {
  const int64_t half = head_dim / 2;
  for (int64_t h = 0; h < num_heads; ++h) {
    uint16_t* head = x + h * head_dim;
    for (int64_t i = 0; i < half; ++i) {
      const double a = tcpu_bf16_to_f32(head[i]);
      const double b = tcpu_bf16_to_f32(head[i + half]);
      const double c = cos_table[i], s = sin_table[i];
      head[i] = ToBf16(a * c - b * s);
      head[i + half] = ToBf16(b * c + a * s);
    }
  }
}

}  // namespace

extern "C" int tcpu_rope_bf16(uint16_t* x, int64_t num_heads, int64_t head_dim,
                              int64_t position, float theta) {
  constexpr const char* kFn = "tcpu_rope_bf16";
  if (int s = CheckArgs(kFn, x, num_heads, head_dim, position); s != TCPU_OK) return s;
  if (!(theta > 0.0f) || !std::isfinite(theta)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: theta = %g must be positive and finite",
                      kFn, static_cast<double>(theta));
  }
  const int64_t half = head_dim / 2;
  float cos_table[kMaxHalf], sin_table[kMaxHalf];
  for (int64_t i = 0; i < half; ++i) {
    const double inv_freq =
        std::pow(static_cast<double>(theta), -2.0 * static_cast<double>(i) / head_dim);
    const double angle = static_cast<double>(position) * inv_freq;
    cos_table[i] = static_cast<float>(std::cos(angle));
    sin_table[i] = static_cast<float>(std::sin(angle));
  }
  Rotate(x, num_heads, head_dim, cos_table, sin_table);
  return tcpu::Succeed();
}

extern "C" int tcpu_rope_freqs_bf16(uint16_t* x, int64_t num_heads, int64_t head_dim,
                                    int64_t position, const double* inv_freq,
                                    double attention_scale) {
  constexpr const char* kFn = "tcpu_rope_freqs_bf16";
  if (int s = CheckArgs(kFn, x, num_heads, head_dim, position); s != TCPU_OK) return s;
  TCPU_CHECK_NOT_NULL(kFn, inv_freq);
  if (!(attention_scale > 0.0) || !std::isfinite(attention_scale)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: attention_scale = %g must be positive and finite", kFn,
                      attention_scale);
  }
  const int64_t half = head_dim / 2;
  for (int64_t i = 0; i < half; ++i) {
    if (!(inv_freq[i] >= 0.0) || !std::isfinite(inv_freq[i])) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: inv_freq[%lld] = %g must be finite and >= 0", kFn,
                        static_cast<long long>(i), inv_freq[i]);
    }
  }
  float cos_table[kMaxHalf], sin_table[kMaxHalf];
  for (int64_t i = 0; i < half; ++i) {
    const double angle = static_cast<double>(position) * inv_freq[i];
    cos_table[i] = static_cast<float>(std::cos(angle) * attention_scale);
    sin_table[i] = static_cast<float>(std::sin(angle) * attention_scale);
  }
  Rotate(x, num_heads, head_dim, cos_table, sin_table);
  return tcpu::Succeed();
}
