// NEON chunk kernel (-march=armv8-a): bf16 widened to fp32 by a 16-bit left shift (SHLL),
// two 4-lane FMA accumulators for the dot product, 4-lane FMAs for p * v; scalar tails for
// head_dim not a multiple of 8 / 4; exp by ExpPoly on 4 lanes.
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

float Dot(const float* q, const uint16_t* k, int64_t d) {
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = vdupq_n_f32(0.0f);
  int64_t i = 0;
  for (; i + 8 <= d; i += 8) {
    const uint16x8_t kk = vld1q_u16(k + i);
    a0 = vfmaq_f32(a0, vld1q_f32(q + i), Widen(vget_low_u16(kk)));
    a1 = vfmaq_f32(a1, vld1q_f32(q + i + 4), Widen(vget_high_u16(kk)));
  }
  if (i + 4 <= d) {
    a0 = vfmaq_f32(a0, vld1q_f32(q + i), Widen(vld1_u16(k + i)));
    i += 4;
  }
  float dot = vaddvq_f32(vaddq_f32(a0, a1));
  for (; i < d; ++i) dot += q[i] * tcpu_bf16_to_f32(k[i]);
  return dot;
}

// x[s] = exp(x[s] - shift), 4 lanes at a time; the tail by the scalar model (same bits).
void ExpShiftedNeon(float* x, int64_t n, float shift) {
  int64_t s = 0;
  for (; s + 4 <= n; s += 4) {
    vst1q_f32(x + s, ExpPoly4(vsubq_f32(vld1q_f32(x + s), vdupq_n_f32(shift))));
  }
  for (; s < n; ++s) x[s] = ExpPoly(x[s] - shift);
}

void ChunkNeon(const float* q, const uint16_t* k, const uint16_t* v, int64_t d, int64_t n,
               int64_t k_stride, int64_t v_stride, float* acc, float* max, float* sum) {
  float score[kChunk];
  float m = -INFINITY;
  for (int64_t s = 0; s < n; ++s) {
    score[s] = Dot(q, k + s * k_stride, d);
    m = std::fmax(m, score[s]);
  }
  ExpShiftedNeon(score, n, m);
  for (int64_t i = 0; i < d; ++i) acc[i] = 0.0f;
  float l = 0.0f;
  for (int64_t s = 0; s < n; ++s) {
    const float p = score[s];
    l += p;
    const uint16_t* vs = v + s * v_stride;
    int64_t i = 0;
    for (; i + 4 <= d; i += 4) {
      vst1q_f32(acc + i, vfmaq_n_f32(vld1q_f32(acc + i), Widen(vld1_u16(vs + i)), p));
    }
    for (; i < d; ++i) acc[i] += p * tcpu_bf16_to_f32(vs[i]);
  }
  *max = m;
  *sum = l;
}

}  // namespace

const FlashAttnKernel kFlashAttnNeon = {ChunkNeon, ExpShiftedNeon};

}  // namespace tcpu::flash_attn
