// Portable scalar chunk kernel: fp32 dot products and accumulation, two passes over the chunk
// (scores, then exp and accumulate) so the chunk max is exact before any exp; exp is
// ExpPoly, the scalar model of the vector kernels' exp.
#include <cmath>

#include "kernels/flash_attn/exp_poly.h"
#include "kernels/flash_attn/flash_attn_kernels.h"
#include "tcpu/bf16.h"

namespace tcpu::flash_attn {
namespace {

void ExpShiftedRef(float* x, int64_t n, float shift) {
  for (int64_t s = 0; s < n; ++s) x[s] = ExpPoly(x[s] - shift);
}

void ChunkRef(const float* q, const uint16_t* k, const uint16_t* v, int64_t d, int64_t n,
              int64_t k_stride, int64_t v_stride, float* acc, float* max, float* sum) {
  float score[kChunk];
  float m = -INFINITY;
  for (int64_t s = 0; s < n; ++s) {
    const uint16_t* ks = k + s * k_stride;
    float dot = 0.0f;
    for (int64_t i = 0; i < d; ++i) dot += q[i] * tcpu_bf16_to_f32(ks[i]);
    score[s] = dot;
    m = std::fmax(m, dot);
  }
  ExpShiftedRef(score, n, m);
  for (int64_t i = 0; i < d; ++i) acc[i] = 0.0f;
  float l = 0.0f;
  for (int64_t s = 0; s < n; ++s) {
    const float p = score[s];
    l += p;
    const uint16_t* vs = v + s * v_stride;
    for (int64_t i = 0; i < d; ++i) acc[i] += p * tcpu_bf16_to_f32(vs[i]);
  }
  *max = m;
  *sum = l;
}

}  // namespace

const FlashAttnKernel kFlashAttnRef = {ChunkRef, ExpShiftedRef};

}  // namespace tcpu::flash_attn
