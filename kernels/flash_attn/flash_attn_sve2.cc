// SVE2 chunk kernel (-march=armv9-a+sve2), vector-length agnostic: bf16 loaded zero-extended
// into 32-bit lanes (LD1H to .S) and shifted left by 16 to become fp32; WHILELT predicates
// cover the head_dim tail, so any head_dim and any VL (128..2048) take the same path.
#include <arm_sve.h>

#include <cmath>

#include "kernels/flash_attn/flash_attn_kernels.h"

namespace tcpu::flash_attn {
namespace {

inline svfloat32_t Load(svbool_t pg, const uint16_t* p) {
  return svreinterpret_f32_u32(svlsl_n_u32_x(pg, svld1uh_u32(pg, p), 16));
}

void ChunkSve2(const float* q, const uint16_t* k, const uint16_t* v, int64_t d, int64_t n,
               int64_t k_stride, int64_t v_stride, float* acc, float* max, float* sum) {
  const int64_t vl = static_cast<int64_t>(svcntw());
  float score[kChunk];
  float m = -INFINITY;
  for (int64_t s = 0; s < n; ++s) {
    const uint16_t* ks = k + s * k_stride;
    svfloat32_t a = svdup_n_f32(0.0f);
    for (int64_t i = 0; i < d; i += vl) {
      const svbool_t pg = svwhilelt_b32_s64(i, d);
      // _m keeps inactive lanes of a unchanged, so the tail adds nothing.
      a = svmla_f32_m(pg, a, svld1_f32(pg, q + i), Load(pg, ks + i));
    }
    score[s] = svaddv_f32(svptrue_b32(), a);
    m = std::fmax(m, score[s]);
  }
  for (int64_t i = 0; i < d; i += vl) {
    svst1_f32(svwhilelt_b32_s64(i, d), acc + i, svdup_n_f32(0.0f));
  }
  float l = 0.0f;
  for (int64_t s = 0; s < n; ++s) {
    const float p = std::exp(score[s] - m);
    l += p;
    const uint16_t* vs = v + s * v_stride;
    const svfloat32_t pv = svdup_n_f32(p);
    for (int64_t i = 0; i < d; i += vl) {
      const svbool_t pg = svwhilelt_b32_s64(i, d);
      svst1_f32(pg, acc + i, svmla_f32_x(pg, svld1_f32(pg, acc + i), Load(pg, vs + i), pv));
    }
  }
  *max = m;
  *sum = l;
}

}  // namespace

const FlashAttnKernel kFlashAttnSve2 = {ChunkSve2};

}  // namespace tcpu::flash_attn
