// SVE2 chunk kernel (-march=armv9-a+sve2), vector-length agnostic: bf16 loaded zero-extended
// into 32-bit lanes (LD1H to .S) and shifted left by 16 to become fp32; WHILELT predicates
// cover the head_dim tail, so any head_dim and any VL (128..2048) take the same path; tiles
// of up to 8 query rows share each K and V load (one vector of every row's dot product, and
// of its p * v accumulator, in registers); exp by ExpPoly on whole vectors.
#include <arm_sve.h>

#include <cmath>

#include "kernels/flash_attn/exp_poly.h"
#include "kernels/flash_attn/flash_attn_kernels.h"

// Sizeless SVE types cannot form arrays, so a tile's per-row registers are eight named
// variables x0..x7; TCPU_FLASH_ATTN_ROWS(X) expands X(j) for j = 0..7, each X guarded by
// `if constexpr (j < R)`.
#define TCPU_FLASH_ATTN_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)

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

// score[r][s] = q_r . k[s] for R rows: each vector of k loaded and widened once.
template <int R>
void ScoresSve2(const float* q, int64_t q_stride, const uint16_t* k, int64_t d, int64_t n,
                int64_t k_stride, float (*score)[kChunk], float* max) {
  const int64_t vl = static_cast<int64_t>(svcntw());
  for (int r = 0; r < R; ++r) max[r] = -INFINITY;
  for (int64_t s = 0; s < n; ++s) {
    const uint16_t* ks = k + s * k_stride;
    const svfloat32_t zero = svdup_n_f32(0.0f);
    svfloat32_t a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero,
                a7 = zero;
    for (int64_t i = 0; i < d; i += vl) {
      const svbool_t pg = svwhilelt_b32_s64(i, d);
      const svfloat32_t kk = Load(pg, ks + i);
      // _m keeps inactive lanes of a unchanged, so the tail adds nothing.
#define TCPU_DOT_ROW(j) \
  if constexpr (j < R) a##j = svmla_f32_m(pg, a##j, svld1_f32(pg, q + j * q_stride + i), kk);
      TCPU_FLASH_ATTN_ROWS(TCPU_DOT_ROW)
#undef TCPU_DOT_ROW
    }
#define TCPU_STORE_SCORE(j)                          \
  if constexpr (j < R) {                             \
    score[j][s] = svaddv_f32(svptrue_b32(), a##j);   \
    max[j] = std::fmax(max[j], score[j][s]);         \
  }
    TCPU_FLASH_ATTN_ROWS(TCPU_STORE_SCORE)
#undef TCPU_STORE_SCORE
  }
}

// acc_r[i] = sum_s p[r][s] * v[s][i] in position order, for R rows: a vector of every row's
// accumulator stays in registers over the chunk, each v load serving all rows.
template <int R>
void AccumulateSve2(const float (*p)[kChunk], const uint16_t* v, int64_t d, int64_t n,
                    int64_t v_stride, float* part, int64_t part_stride) {
  const int64_t vl = static_cast<int64_t>(svcntw());
  for (int64_t i = 0; i < d; i += vl) {
    const svbool_t pg = svwhilelt_b32_s64(i, d);
    const svfloat32_t zero = svdup_n_f32(0.0f);
    svfloat32_t c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero,
                c7 = zero;
    for (int64_t s = 0; s < n; ++s) {
      const svfloat32_t vv = Load(pg, v + s * v_stride + i);
#define TCPU_ACC_ROW(j) \
  if constexpr (j < R) c##j = svmla_n_f32_x(pg, c##j, vv, p[j][s]);
      TCPU_FLASH_ATTN_ROWS(TCPU_ACC_ROW)
#undef TCPU_ACC_ROW
    }
#define TCPU_STORE_ACC(j) \
  if constexpr (j < R) svst1_f32(pg, part + j * part_stride + i, c##j);
    TCPU_FLASH_ATTN_ROWS(TCPU_STORE_ACC)
#undef TCPU_STORE_ACC
  }
}

template <int R>
void TileSve2(const float* q, int64_t q_stride, const uint16_t* k, const uint16_t* v, int64_t d,
              int64_t n, int64_t k_stride, int64_t v_stride, float* part, int64_t part_stride) {
  float score[R][kChunk];
  float max[R];
  ScoresSve2<R>(q, q_stride, k, d, n, k_stride, score, max);
  SoftmaxWeights<R>(ExpShiftedSve2, score, max, n, d, part, part_stride);
  AccumulateSve2<R>(score, v, d, n, v_stride, part, part_stride);
}

void ChunkSve2(const float* q, int64_t q_stride, int64_t rows, const uint16_t* k,
               const uint16_t* v, int64_t d, int64_t n, int64_t k_stride, int64_t v_stride,
               float* part, int64_t part_stride) {
  ForRowTiles(rows, [&](auto tile, int64_t r) {
    TileSve2<decltype(tile)::value>(q + r * q_stride, q_stride, k, v, d, n, k_stride, v_stride,
                                    part + r * part_stride, part_stride);
  });
}

}  // namespace

const FlashAttnKernel kFlashAttnSve2 = {ChunkSve2, ExpShiftedSve2};

}  // namespace tcpu::flash_attn
