// SVE2 chunk kernel (-march=armv9-a+sve2), vector-length agnostic: bf16 loaded zero-extended
// into 32-bit lanes (LD1H to .S) and shifted left by 16 to become fp32; WHILELT predicates
// cover the head_dim tail, so any head_dim and any VL (128..2048) take the same path; exp by
// ExpPoly on whole vectors.
#include <arm_sve.h>

#include <cmath>

#include "kernels/flash_attn/exp_poly.h"
#include "kernels/flash_attn/flash_attn_kernels.h"

namespace tcpu::flash_attn {
namespace {

inline svfloat32_t Load(svbool_t pg, const uint16_t* p) {
  return svreinterpret_f32_u32(svlsl_n_u32_x(pg, svld1uh_u32(pg, p), 16));
}

// ExpPoly (exp_poly.h) on the active lanes, the same operations in the same order.
inline svfloat32_t ExpPolySve(svbool_t pg, svfloat32_t x) {
  const svfloat32_t xc = svmaxnm_n_f32_x(pg, x, kExpMin);
  const svfloat32_t n = svrintn_f32_x(pg, svmul_n_f32_x(pg, xc, kLog2e));
  svfloat32_t r = svmla_n_f32_x(pg, xc, n, -kLn2Hi);
  r = svmla_n_f32_x(pg, r, n, -kLn2Lo);
  svfloat32_t t = svmla_f32_x(pg, svdup_n_f32(kExpC4), svdup_n_f32(kExpC5), r);
  t = svmla_f32_x(pg, svdup_n_f32(kExpC3), t, r);
  t = svmla_f32_x(pg, svdup_n_f32(kExpC2), t, r);
  t = svmla_f32_x(pg, svdup_n_f32(kExpC1), t, r);
  t = svmla_f32_x(pg, svdup_n_f32(kExpC0), t, r);
  const svfloat32_t r2 = svmul_f32_x(pg, r, r);
  const svfloat32_t p = svadd_n_f32_x(pg, svmla_f32_x(pg, r, t, r2), 1.0f);
  const svint32_t e = svlsl_n_s32_x(pg, svadd_n_s32_x(pg, svcvt_s32_f32_x(pg, n), 127), 23);
  const svfloat32_t y =
      svadd_f32_x(pg, svmul_f32_x(pg, p, svreinterpret_f32_s32(e)), svsub_f32_x(pg, x, x));
  return svsel_f32(svcmplt_n_f32(pg, x, kExpMin), svdup_n_f32(0.0f), y);
}

// x[s] = exp(x[s] - shift), a vector at a time (WHILELT tail).
void ExpShiftedSve2(float* x, int64_t n, float shift) {
  const int64_t vl = static_cast<int64_t>(svcntw());
  for (int64_t s = 0; s < n; s += vl) {
    const svbool_t pg = svwhilelt_b32_s64(s, n);
    svst1_f32(pg, x + s, ExpPolySve(pg, svsub_n_f32_x(pg, svld1_f32(pg, x + s), shift)));
  }
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
  ExpShiftedSve2(score, n, m);
  float l = 0.0f;
  for (int64_t s = 0; s < n; ++s) {
    const float p = score[s];
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

const FlashAttnKernel kFlashAttnSve2 = {ChunkSve2, ExpShiftedSve2};

}  // namespace tcpu::flash_attn
