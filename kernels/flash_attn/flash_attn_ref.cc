// Portable scalar chunk kernel: fp32 dot products and accumulation, two passes over the chunk
// (scores, then exp and accumulate) so the chunk max is exact before any exp; exp is
// ExpPoly, the scalar model of the vector kernels' exp. Rows are independent: the scalar code
// has no registers to share, so it runs them one after the other.
#include <cmath>

#include "kernels/flash_attn/exp_poly.h"
#include "kernels/flash_attn/flash_attn_kernels.h"
#include "tcpu/bf16.h"

namespace tcpu::flash_attn {
namespace {

void ExpShiftedRef(float* x, int64_t n, float shift) {
  for (int64_t s = 0; s < n; ++s) x[s] = ExpPoly(x[s] - shift);
}

void RowRef(const float* q, const uint16_t* k, const uint16_t* v, int64_t d, int64_t n,
            int64_t k_stride, int64_t v_stride, float* part) {
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
  float* acc = part;
  for (int64_t i = 0; i < d; ++i) acc[i] = 0.0f;
  float l = 0.0f;
  for (int64_t s = 0; s < n; ++s) {
    const float p = score[s];
    l += p;
    const uint16_t* vs = v + s * v_stride;
    for (int64_t i = 0; i < d; ++i) acc[i] += p * tcpu_bf16_to_f32(vs[i]);
  }
  part[d] = m;
  part[d + 1] = l;
}

void ChunkRef(const float* q, int64_t q_stride, int64_t rows, const uint16_t* k, const uint16_t* v,
              int64_t d, int64_t n, int64_t k_stride, int64_t v_stride, float* part,
              int64_t part_stride) {
  for (int64_t r = 0; r < rows; ++r) {
    RowRef(q + r * q_stride, k, v, d, n, k_stride, v_stride, part + r * part_stride);
  }
}

}  // namespace

const FlashAttnKernel kFlashAttnRef = {ChunkRef, ExpShiftedRef};

}  // namespace tcpu::flash_attn
