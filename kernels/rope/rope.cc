// tcpu_rope_bf16 and tcpu_rope_freqs_bf16: a few hundred multiplications per layer and token,
// so one portable implementation serves every CPU. The cos/sin table of a position
// (rope_table.h) is computed once per call and shared by all heads.
#include "tcpu/rope.h"

#include <cmath>

#include "kernels/rope/rope_table.h"
#include "runtime/check.h"
#include "tcpu/bf16.h"

namespace tcpu::rope {
namespace {

uint16_t ToBf16(double value) { return tcpu_f32_to_bf16(static_cast<float>(value)); }

}  // namespace

int CheckHeadDim(const char* fn, int64_t head_dim) {
  if (head_dim % 2 != 0 || head_dim / 2 > kMaxHalf) {
    return Fail(TCPU_ERR_INVALID_SIZE, "%s: head_dim = %lld must be even and at most %lld", fn,
                static_cast<long long>(head_dim), static_cast<long long>(2 * kMaxHalf));
  }
  return TCPU_OK;
}

int CheckFrequencies(const char* fn, const double* inv_freq, int64_t head_dim) {
  for (int64_t i = 0; i < head_dim / 2; ++i) {
    if (!(inv_freq[i] >= 0.0) || !std::isfinite(inv_freq[i])) {
      return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: inv_freq[%lld] = %g must be finite and >= 0",
                  fn, static_cast<long long>(i), inv_freq[i]);
    }
  }
  return TCPU_OK;
}

void BuildFromTheta(int64_t head_dim, int64_t position, float theta, Table* table) {
  table->head_dim = head_dim;
  for (int64_t i = 0; i < head_dim / 2; ++i) {
    const double inv_freq =
        std::pow(static_cast<double>(theta), -2.0 * static_cast<double>(i) / head_dim);
    const double angle = static_cast<double>(position) * inv_freq;
    table->cos[i] = static_cast<float>(std::cos(angle));
    table->sin[i] = static_cast<float>(std::sin(angle));
  }
}

void BuildFromFrequencies(int64_t head_dim, int64_t position, const double* inv_freq,
                          double attention_scale, Table* table) {
  table->head_dim = head_dim;
  for (int64_t i = 0; i < head_dim / 2; ++i) {
    const double angle = static_cast<double>(position) * inv_freq[i];
    table->cos[i] = static_cast<float>(std::cos(angle) * attention_scale);
    table->sin[i] = static_cast<float>(std::sin(angle) * attention_scale);
  }
}

// Float64 arithmetic on the fp32 table: exact products, one rounding to bf16.
void Apply(const Table& table, uint16_t* x, int64_t num_heads) {
  const int64_t head_dim = table.head_dim, half = head_dim / 2;
  for (int64_t h = 0; h < num_heads; ++h) {
    uint16_t* head = x + h * head_dim;
    for (int64_t i = 0; i < half; ++i) {
      const double a = tcpu_bf16_to_f32(head[i]);
      const double b = tcpu_bf16_to_f32(head[i + half]);
      const double c = table.cos[i], s = table.sin[i];
      head[i] = ToBf16(a * c - b * s);
      head[i + half] = ToBf16(b * c + a * s);
    }
  }
}

}  // namespace tcpu::rope

namespace {

int CheckArgs(const char* fn, const uint16_t* x, int64_t num_heads, int64_t head_dim,
              int64_t position) {
  TCPU_CHECK_NOT_NULL(fn, x);
  TCPU_CHECK_POSITIVE(fn, num_heads);
  TCPU_CHECK_POSITIVE(fn, head_dim);
  if (int s = tcpu::rope::CheckHeadDim(fn, head_dim); s != TCPU_OK) return s;
  if (position < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: position = %lld is negative", fn,
                      static_cast<long long>(position));
  }
  int64_t elements = 0;
  TCPU_CHECK_MUL(fn, num_heads, head_dim, &elements);
  return TCPU_OK;
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
  tcpu::rope::Table table;
  tcpu::rope::BuildFromTheta(head_dim, position, theta, &table);
  tcpu::rope::Apply(table, x, num_heads);
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
  if (int s = tcpu::rope::CheckFrequencies(kFn, inv_freq, head_dim); s != TCPU_OK) return s;
  tcpu::rope::Table table;
  tcpu::rope::BuildFromFrequencies(head_dim, position, inv_freq, attention_scale, &table);
  tcpu::rope::Apply(table, x, num_heads);
  return tcpu::Succeed();
}
