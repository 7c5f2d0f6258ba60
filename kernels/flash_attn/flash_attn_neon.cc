// NEON chunk kernel (-march=armv8-a): bf16 widened to fp32 by a 16-bit left shift (SHLL),
// tiles of up to 8 query rows that share each K and V load: per row two 4-lane FMA
// accumulators for the dot product and, for p * v, 8 lanes of the accumulator held in
// registers over the whole chunk; scalar tails for head_dim not a multiple of 8 / 4; exp by
// ExpPoly on 4 lanes.
#include <arm_neon.h>

#include <cmath>

#include "kernels/flash_attn/exp_poly.h"
#include "kernels/flash_attn/flash_attn_kernels.h"
#include "tcpu/bf16.h"

namespace tcpu::flash_attn {
namespace {

inline float32x4_t Widen(uint16x4_t x) { return vreinterpretq_f32_u32(vshll_n_u16(x, 16)); }

// ExpPoly (exp_poly.h) on 4 lanes, the same operations in the same order.
inline float32x4_t ExpPoly4(float32x4_t x) {
  const float32x4_t xc = vmaxnmq_f32(x, vdupq_n_f32(kExpMin));
  const float32x4_t n = vrndnq_f32(vmulq_f32(xc, vdupq_n_f32(kLog2e)));
  float32x4_t r = vfmaq_f32(xc, n, vdupq_n_f32(-kLn2Hi));
  r = vfmaq_f32(r, n, vdupq_n_f32(-kLn2Lo));
  float32x4_t t = vfmaq_f32(vdupq_n_f32(kExpC4), vdupq_n_f32(kExpC5), r);
  t = vfmaq_f32(vdupq_n_f32(kExpC3), t, r);
  t = vfmaq_f32(vdupq_n_f32(kExpC2), t, r);
  t = vfmaq_f32(vdupq_n_f32(kExpC1), t, r);
  t = vfmaq_f32(vdupq_n_f32(kExpC0), t, r);
  const float32x4_t r2 = vmulq_f32(r, r);
  const float32x4_t p = vaddq_f32(vfmaq_f32(r, t, r2), vdupq_n_f32(1.0f));
  const int32x4_t e = vshlq_n_s32(vaddq_s32(vcvtq_s32_f32(n), vdupq_n_s32(127)), 23);
  const float32x4_t y = vaddq_f32(vmulq_f32(p, vreinterpretq_f32_s32(e)), vsubq_f32(x, x));
  return vbslq_f32(vcltq_f32(x, vdupq_n_f32(kExpMin)), vdupq_n_f32(0.0f), y);
}

// x[s] = exp(x[s] - shift), 4 lanes at a time; the tail by the scalar model (same bits).
void ExpShiftedNeon(float* x, int64_t n, float shift) {
  int64_t s = 0;
  for (; s + 4 <= n; s += 4) {
    vst1q_f32(x + s, ExpPoly4(vsubq_f32(vld1q_f32(x + s), vdupq_n_f32(shift))));
  }
  for (; s < n; ++s) x[s] = ExpPoly(x[s] - shift);
}

// c + v * p[lane], the lane a constant once R's loop is unrolled.
inline float32x4_t FmaLane(float32x4_t c, float32x4_t v, float32x4_t p, int lane) {
  switch (lane) {
    case 0:
      return vfmaq_laneq_f32(c, v, p, 0);
    case 1:
      return vfmaq_laneq_f32(c, v, p, 1);
    case 2:
      return vfmaq_laneq_f32(c, v, p, 2);
    default:
      return vfmaq_laneq_f32(c, v, p, 3);
  }
}

// The passes ChunkInTiles runs (flash_attn_kernels.h).
struct TileNeon {
  // score[r][s] = q_r . k[s] for R rows: each 8 (then 4) elements of k loaded and widened once.
  template <int R>
  static void Scores(const float* q, int64_t q_stride, const uint16_t* k, int64_t d, int64_t n,
                     int64_t k_stride, float (*score)[kChunk], float* max) {
    for (int r = 0; r < R; ++r) max[r] = -INFINITY;
    for (int64_t s = 0; s < n; ++s) {
      const uint16_t* ks = k + s * k_stride;
      float32x4_t a0[R], a1[R];
      for (int r = 0; r < R; ++r) a0[r] = a1[r] = vdupq_n_f32(0.0f);
      int64_t i = 0;
      for (; i + 8 <= d; i += 8) {
        const uint16x8_t kk = vld1q_u16(ks + i);
        const float32x4_t lo = Widen(vget_low_u16(kk)), hi = Widen(vget_high_u16(kk));
        for (int r = 0; r < R; ++r) {
          a0[r] = vfmaq_f32(a0[r], vld1q_f32(q + r * q_stride + i), lo);
          a1[r] = vfmaq_f32(a1[r], vld1q_f32(q + r * q_stride + i + 4), hi);
        }
      }
      if (i + 4 <= d) {
        const float32x4_t lo = Widen(vld1_u16(ks + i));
        for (int r = 0; r < R; ++r) a0[r] = vfmaq_f32(a0[r], vld1q_f32(q + r * q_stride + i), lo);
        i += 4;
      }
      for (int r = 0; r < R; ++r) {
        const float* qr = q + r * q_stride;
        float dot = vaddvq_f32(vaddq_f32(a0[r], a1[r]));
        for (int64_t j = i; j < d; ++j) dot += qr[j] * tcpu_bf16_to_f32(ks[j]);
        score[r][s] = dot;
        max[r] = std::fmax(max[r], dot);
      }
    }
  }

  static void ExpShifted(float* x, int64_t n, float shift) { ExpShiftedNeon(x, n, shift); }

  // acc_r[i] = sum_s w[s][r] * v[s][i] in position order (w: SoftmaxWeights' interleaved copy),
  // for R rows: 8 (then 4) lanes of every row's accumulator stay in registers over the chunk,
  // each v load and each 4 weights serving all rows.
  template <int R>
  static void Accumulate(const float* w, const uint16_t* v, int64_t d, int64_t n, int64_t v_stride,
                         float* part, int64_t part_stride) {
    constexpr int kLanes = WeightLanes(R);
    int64_t i = 0;
    for (; i + 8 <= d; i += 8) {
      float32x4_t c0[R], c1[R];
      for (int r = 0; r < R; ++r) c0[r] = c1[r] = vdupq_n_f32(0.0f);
      for (int64_t s = 0; s < n; ++s) {
        const uint16x8_t vv = vld1q_u16(v + s * v_stride + i);
        const float32x4_t lo = Widen(vget_low_u16(vv)), hi = Widen(vget_high_u16(vv));
        for (int r = 0; r < R; ++r) {
          const float32x4_t p = vld1q_f32(w + s * kLanes + r / 4 * 4);
          c0[r] = FmaLane(c0[r], lo, p, r % 4);
          c1[r] = FmaLane(c1[r], hi, p, r % 4);
        }
      }
      for (int r = 0; r < R; ++r) {
        vst1q_f32(part + r * part_stride + i, c0[r]);
        vst1q_f32(part + r * part_stride + i + 4, c1[r]);
      }
    }
    if (i + 4 <= d) {
      float32x4_t c0[R];
      for (int r = 0; r < R; ++r) c0[r] = vdupq_n_f32(0.0f);
      for (int64_t s = 0; s < n; ++s) {
        const float32x4_t lo = Widen(vld1_u16(v + s * v_stride + i));
        for (int r = 0; r < R; ++r) {
          c0[r] = FmaLane(c0[r], lo, vld1q_f32(w + s * kLanes + r / 4 * 4), r % 4);
        }
      }
      for (int r = 0; r < R; ++r) vst1q_f32(part + r * part_stride + i, c0[r]);
      i += 4;
    }
    for (; i < d; ++i) {
      for (int r = 0; r < R; ++r) {
        float acc = 0.0f;
        for (int64_t s = 0; s < n; ++s)
          acc += w[s * kLanes + r] * tcpu_bf16_to_f32(v[s * v_stride + i]);
        part[r * part_stride + i] = acc;
      }
    }
  }
};

}  // namespace

const FlashAttnKernel kFlashAttnNeon = {ChunkInTiles<TileNeon>, ExpShiftedNeon};

}  // namespace tcpu::flash_attn
