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

// score[r][s + p] = q_r . k[s + p] for R rows and P (1 or 2) positions: each vector of k is
// loaded and widened once for all rows, each vector of q once for both positions.
template <int R, int P>
inline void ScorePositionsSve2(const float* q, int64_t q_stride, const uint16_t* k, int64_t d,
                               int64_t s, int64_t k_stride, float (*score)[kChunk], float* max) {
  const int64_t vl = static_cast<int64_t>(svcntw());
  const uint16_t* ka = k + s * k_stride;
  const uint16_t* kb = P > 1 ? ka + k_stride : ka;
#define TCPU_ROW_POINTER(j) const float* q##j = q + (j < R ? j : 0) * q_stride;
  TCPU_FLASH_ATTN_ROWS(TCPU_ROW_POINTER)
#undef TCPU_ROW_POINTER
  const svfloat32_t zero = svdup_n_f32(0.0f);
  svfloat32_t a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero,
              a7 = zero;
  svfloat32_t b0 = zero, b1 = zero, b2 = zero, b3 = zero, b4 = zero, b5 = zero, b6 = zero,
              b7 = zero;
  for (int64_t i = 0; i < d; i += vl) {
    const svbool_t pg = svwhilelt_b32_s64(i, d);
    const svfloat32_t kka = Load(pg, ka + i);
    svfloat32_t kkb = kka;
    if constexpr (P > 1) kkb = Load(pg, kb + i);
      // _m keeps inactive lanes of a unchanged, so the tail adds nothing.
#define TCPU_DOT_ROW(j)                                         \
  if constexpr (j < R) {                                        \
    const svfloat32_t qv = svld1_f32(pg, q##j + i);             \
    a##j = svmla_f32_m(pg, a##j, qv, kka);                      \
    if constexpr (P > 1) b##j = svmla_f32_m(pg, b##j, qv, kkb); \
  }
    TCPU_FLASH_ATTN_ROWS(TCPU_DOT_ROW)
#undef TCPU_DOT_ROW
  }
#define TCPU_STORE_SCORE(j)                              \
  if constexpr (j < R) {                                 \
    score[j][s] = svaddv_f32(svptrue_b32(), a##j);       \
    max[j] = std::fmax(max[j], score[j][s]);             \
    if constexpr (P > 1) {                               \
      score[j][s + 1] = svaddv_f32(svptrue_b32(), b##j); \
      max[j] = std::fmax(max[j], score[j][s + 1]);       \
    }                                                    \
  }
  TCPU_FLASH_ATTN_ROWS(TCPU_STORE_SCORE)
#undef TCPU_STORE_SCORE
}

// The passes ChunkInTiles runs (flash_attn_kernels.h).
struct TileSve2 {
  // score[r][s] = q_r . k[s] for R rows, positions in pairs.
  template <int R>
  static void Scores(const float* q, int64_t q_stride, const uint16_t* k, int64_t d, int64_t n,
                     int64_t k_stride, float (*score)[kChunk], float* max) {
    for (int r = 0; r < R; ++r) max[r] = -INFINITY;
    int64_t s = 0;
    for (; s + 2 <= n; s += 2) ScorePositionsSve2<R, 2>(q, q_stride, k, d, s, k_stride, score, max);
    if (s < n) ScorePositionsSve2<R, 1>(q, q_stride, k, d, s, k_stride, score, max);
  }

  static void ExpShifted(float* x, int64_t n, float shift) { ExpShiftedSve2(x, n, shift); }

  // acc_r[i] = sum_s w[s][r] * v[s][i] in position order (w: SoftmaxWeights' interleaved copy),
  // for R rows: two vectors of every row's accumulator stay in registers over the chunk, each v
  // load serving all rows; the weights of 4 rows come in one LD1RQW (replicated to every 128-bit
  // segment) for FMLA by lane, so no per-row broadcast.
  template <int R>
  static void Accumulate(const float* w, const uint16_t* v, int64_t d, int64_t n, int64_t v_stride,
                         float* part, int64_t part_stride) {
    constexpr int kLanes = WeightLanes(R);
    const int64_t vl = static_cast<int64_t>(svcntw());
    const svbool_t all = svptrue_b32();
    for (int64_t i = 0; i < d; i += 2 * vl) {
      const svbool_t pg = svwhilelt_b32_s64(i, d), pg_hi = svwhilelt_b32_s64(i + vl, d);
      const svfloat32_t zero = svdup_n_f32(0.0f);
      svfloat32_t c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero,
                  c7 = zero;
      svfloat32_t e0 = zero, e1 = zero, e2 = zero, e3 = zero, e4 = zero, e5 = zero, e6 = zero,
                  e7 = zero;
      for (int64_t s = 0; s < n; ++s) {
        const uint16_t* vs = v + s * v_stride + i;
        const svfloat32_t lo = Load(pg, vs), hi = Load(pg_hi, vs + vl);
        const svfloat32_t w0 = svld1rq_f32(all, w + s * kLanes);
        svfloat32_t w1 = w0;
        if constexpr (R > 4) w1 = svld1rq_f32(all, w + s * kLanes + 4);
          // Unpredicated FMLA by lane: inactive lanes hold loaded zeros and are never stored.
#define TCPU_ACC_ROW(j)                                      \
  if constexpr (j < R) {                                     \
    c##j = svmla_lane_f32(c##j, lo, j < 4 ? w0 : w1, j % 4); \
    e##j = svmla_lane_f32(e##j, hi, j < 4 ? w0 : w1, j % 4); \
  }
        TCPU_FLASH_ATTN_ROWS(TCPU_ACC_ROW)
#undef TCPU_ACC_ROW
      }
#define TCPU_STORE_ACC(j)                                    \
  if constexpr (j < R) {                                     \
    svst1_f32(pg, part + j * part_stride + i, c##j);         \
    svst1_f32(pg_hi, part + j * part_stride + i + vl, e##j); \
  }
      TCPU_FLASH_ATTN_ROWS(TCPU_STORE_ACC)
#undef TCPU_STORE_ACC
    }
  }
};

}  // namespace

const FlashAttnKernel kFlashAttnSve2 = {ChunkInTiles<TileSve2>, ExpShiftedSve2};

}  // namespace tcpu::flash_attn
