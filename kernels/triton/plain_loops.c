/* Plain C loops computing what the Triton kernels of kernels/triton compute (plain_loops.h):
 * the clang -O3 peers of //tools/perf:triton_table. Idiomatic loops only: no intrinsics, no
 * manual unrolling or blocking; vectorizing them is clang's job (flags: plain_loops.h). */
#include "kernels/triton/plain_loops.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

void plain_add_f32(const float* x, const float* y, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
}

void plain_exp_exp2_f32(const float* x, float* e, float* e2, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    e[i] = expf(x[i]);
    e2[i] = exp2f(x[i]);
  }
}

void plain_log_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = logf(x[i]);
}

void plain_sin_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = sinf(x[i]);
}

void plain_cos_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = cosf(x[i]);
}

void plain_rsqrt_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = 1.0f / sqrtf(x[i]);
}

void plain_erf_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = erff(x[i]);
}

void plain_tanh_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = tanhf(x[i]);
}

void plain_softmax_rows_f32(const float* in, float* out, int64_t rows, int64_t cols,
                            int64_t in_stride, int64_t out_stride) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * in_stride;
    float* y = out + r * out_stride;
    float max = x[0];
    for (int64_t j = 1; j < cols; ++j) max = fmaxf(max, x[j]);
    float sum = 0.0f;
    for (int64_t j = 0; j < cols; ++j) {
      y[j] = expf(x[j] - max);
      sum += y[j];
    }
    const float inverse = 1.0f / sum;
    for (int64_t j = 0; j < cols; ++j) y[j] *= inverse;
  }
}

void plain_layer_norm_fwd_f32(const float* x, float* y, const float* w, const float* b, float* mean,
                              float* rstd, int64_t rows, int64_t n, int64_t stride, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * stride;
    float* yr = y + r * stride;
    float sum = 0.0f;
    for (int64_t j = 0; j < n; ++j) sum += xr[j];
    const float mu = sum / (float)n;
    float squares = 0.0f;
    for (int64_t j = 0; j < n; ++j) squares += (xr[j] - mu) * (xr[j] - mu);
    const float inverse_std = 1.0f / sqrtf(squares / (float)n + eps);
    for (int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - mu) * inverse_std * w[j] + b[j];
    mean[r] = mu;
    rstd[r] = inverse_std;
  }
}

void plain_layer_norm_bwd_dx_f32(const float* dy, const float* x, const float* w, const float* mean,
                                 const float* rstd, float* dx, float* partial_dw, float* partial_db,
                                 int64_t rows, int64_t n, int64_t stride, int64_t group) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * stride;
    const float* dyr = dy + r * stride;
    float* dxr = dx + r * stride;
    float* dw = partial_dw + (r % group) * n;
    float* db = partial_db + (r % group) * n;
    const float mu = mean[r], inverse_std = rstd[r];
    float xhat_wdy = 0.0f, sum_wdy = 0.0f;
    for (int64_t j = 0; j < n; ++j) {
      const float xhat = (xr[j] - mu) * inverse_std;
      xhat_wdy += xhat * w[j] * dyr[j];
      sum_wdy += w[j] * dyr[j];
    }
    const float c1 = xhat_wdy / (float)n, c2 = sum_wdy / (float)n;
    for (int64_t j = 0; j < n; ++j) {
      const float xhat = (xr[j] - mu) * inverse_std;
      dxr[j] = (w[j] * dyr[j] - (xhat * c1 + c2)) * inverse_std;
      dw[j] += dyr[j] * xhat;
      db[j] += dyr[j];
    }
  }
}

void plain_layer_norm_bwd_dwdb_f32(const float* dw, const float* db, float* final_dw,
                                   float* final_db, int64_t m, int64_t n) {
  for (int64_t j = 0; j < n; ++j) final_dw[j] = final_db[j] = 0.0f;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      final_dw[j] += dw[i * n + j];
      final_db[j] += db[i * n + j];
    }
  }
}

void plain_histogram_blocks_i32(const int32_t* x, int32_t* all, int32_t* valid, int64_t n,
                                int64_t block, int32_t bins) {
  for (int64_t start = 0, p = 0; start < n; start += block, ++p) {
    int32_t* counts = valid + p * bins;
    for (int32_t v = 0; v < bins; ++v) counts[v] = 0;
    const int64_t end = start + block < n ? start + block : n;
    for (int64_t i = start; i < end; ++i) {
      if (x[i] >= 0 && x[i] < bins) ++counts[x[i]];
    }
    memcpy(all + p * bins, counts, (size_t)bins * sizeof(int32_t));
    all[p * bins] += (int32_t)(start + block - end);  // the padding lanes read 0
  }
}

void plain_cumsum_blocks_f32(const float* x, float* y, int64_t n, int64_t block) {
  for (int64_t start = 0; start < n; start += block) {
    const int64_t end = start + block < n ? start + block : n;
    float sum = 0.0f;
    for (int64_t i = start; i < end; ++i) {
      sum += x[i];
      y[i] = sum;
    }
  }
}

void plain_row_suffix_max_i32(const int32_t* x, int32_t* y, int64_t rows, int64_t cols,
                              int64_t stride) {
  for (int64_t r = 0; r < rows; ++r) {
    const int32_t* xr = x + r * stride;
    int32_t* max = y + r * stride;
    int32_t* index = max + cols;
    int32_t best = xr[cols - 1], best_index = (int32_t)(cols - 1);
    for (int64_t c = cols - 1; c >= 0; --c) {
      if (xr[c] > best) {
        best = xr[c];
        best_index = (int32_t)c;
      }
      max[c] = best;
      index[c] = best_index;
    }
  }
}

void plain_argmax_rows_f32(const float* x, int32_t* index, float* max, int64_t rows, int64_t cols,
                           int64_t stride) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * stride;
    float best = xr[0];
    int32_t best_index = 0;
    for (int64_t j = 1; j < cols; ++j) {
      if (xr[j] > best) {
        best = xr[j];
        best_index = (int32_t)j;
      }
    }
    index[r] = best_index;
    max[r] = best;
  }
}

void plain_copy_2d_f32(const float* src, float* dst, int64_t m, int64_t n, int64_t src_stride) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) dst[i * n + j] = src[i * src_stride + j];
  }
}

void plain_scale_2d_f32(const float* x, float* y, int64_t m, int64_t n, int64_t x_stride) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) y[i * n + j] = x[i * x_stride + j] * 2.0f + 1.0f;
  }
}

void plain_fp16_arith(const _Float16* x, const _Float16* y, const _Float16* z, _Float16* out,
                      int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const _Float16 magnitude = x[i] < 0 ? -x[i] : x[i];
    out[i] = x[i] + y[i];
    out[n + i] = x[i] - y[i];
    out[2 * n + i] = x[i] * y[i];
    out[3 * n + i] = (_Float16)fmaf(x[i], y[i], z[i]);
    out[4 * n + i] = x[i] > y[i] ? x[i] : y[i];
    out[5 * n + i] = x[i] < y[i] ? x[i] : y[i];
    out[6 * n + i] = (_Float16)0 - magnitude;
    out[7 * n + i] = x[i] < y[i] ? z[i] : y[i];
    out[8 * n + i] = (x[i] * y[i] + z[i]) * y[i] - x[i];
  }
}

static uint32_t BitsOf(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof(bits));
  return bits;
}

static float FloatOf(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

/* A small binary float format below f32: `mantissa` fraction bits, exponent `bias`, its sign
 * bit, codes up to `largest` finite; what overflow and infinity become (`infinity`: the infinity
 * code, or `largest` for a saturating format) and the NaN code. */
struct SmallFloat {
  int mantissa;
  int bias;
  uint32_t sign, largest, infinity, nan;
};

static const struct SmallFloat kF16 = {10, 15, 0x8000, 0x7bff, 0x7c00, 0x7e00};
static const struct SmallFloat kE4M3FN = {3, 7, 0x80, 0x7e, 0x7e, 0x7f};
static const struct SmallFloat kE5M2 = {2, 15, 0x80, 0x7b, 0x7b, 0x7f};

/* x's code in `format`, to nearest even or toward zero: the code's bits are the f32's sign,
 * rebiased exponent and top fraction bits (rounded on the integer bits), or below the
 * smallest normal a count of subnormal steps. */
static uint32_t Narrow(float x, struct SmallFloat format, int toward_zero) {
  const uint32_t bits = BitsOf(x), magnitude = bits & 0x7fffffffu;
  const uint32_t sign = bits >> 31 ? format.sign : 0;
  if (magnitude > 0x7f800000u) return format.nan | sign;
  if (magnitude == 0x7f800000u) return format.infinity | sign;
  const int shift = 23 - format.mantissa;
  const uint32_t smallest_normal = (uint32_t)(127 - format.bias + 1) << 23;
  uint32_t code;
  if (magnitude < smallest_normal) {
    const float steps = FloatOf(magnitude) * (float)(1 << (format.bias - 1 + format.mantissa));
    code = toward_zero ? (uint32_t)steps : (uint32_t)rintf(steps);
  } else {
    const uint32_t half = (1u << (shift - 1)) - 1 + ((magnitude >> shift) & 1);
    const uint32_t rounded = toward_zero ? magnitude : magnitude + half;
    code = (rounded >> shift) - ((uint32_t)(127 - format.bias) << format.mantissa);
  }
  if (code > format.largest) code = toward_zero ? format.largest : format.infinity;
  return code | sign;
}

static float E4m3fnToF32(uint8_t code) {
  const uint32_t sign = (uint32_t)(code & 0x80) << 24;
  const uint32_t exponent = (code >> 3) & 0xf, fraction = code & 7;
  if ((code & 0x7f) == 0x7f) return FloatOf(sign | 0x7fc00000u);
  if (exponent == 0) return FloatOf(sign | BitsOf((float)fraction * 0x1p-9f));
  return FloatOf(sign | (exponent + 120) << 23 | fraction << 20);
}

/* e5m2 is the top byte of an f16. */
static float E5m2ToF32(uint8_t code) {
  const uint16_t bits = (uint16_t)(code << 8);
  _Float16 h;
  memcpy(&h, &bits, sizeof(h));
  return (float)h;
}

void plain_half_narrow(const float* x, _Float16* f16_rtne, uint16_t* f16_rtz, __bf16* bf16_rtne,
                       uint16_t* bf16_rtz, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t bits = BitsOf(x[i]);
    f16_rtne[i] = (_Float16)x[i];
    f16_rtz[i] = (uint16_t)Narrow(x[i], kF16, 1);
    bf16_rtne[i] = (__bf16)x[i];
    bf16_rtz[i] = (bits & 0x7fffffffu) > 0x7f800000u ? (uint16_t)((bits >> 16) | 0x40)
                                                     : (uint16_t)(bits >> 16);
  }
}

void plain_e4m3fn_narrow(const float* x, uint8_t* rtne, uint8_t* rtz, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    rtne[i] = (uint8_t)Narrow(x[i], kE4M3FN, 0);
    rtz[i] = (uint8_t)Narrow(x[i], kE4M3FN, 1);
  }
}

void plain_e4m3fn_widen(const uint8_t* x, float* f32, _Float16* f16, __bf16* bf16, uint8_t* bits,
                        int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float value = E4m3fnToF32(x[i]);
    f32[i] = value;
    f16[i] = (_Float16)value;
    bf16[i] = (__bf16)value;
    bits[i] = x[i];
  }
}

void plain_fp8_scale(const uint8_t* x, float scale, uint8_t* y8, _Float16* y16, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float value = E4m3fnToF32(x[i]) * scale;
    y8[i] = (uint8_t)Narrow(value, kE5M2, 0);
    y16[i] = (_Float16)value;
  }
}

void plain_matmul_f32(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k,
                      int64_t lda, int64_t ldb, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    float* ci = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) ci[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float aip = a[i * lda + p];
      for (int64_t j = 0; j < n; ++j) ci[j] += aip * b[p * ldb + j];
    }
  }
}

void plain_matmul_f16_f32acc(const _Float16* a, const _Float16* b, _Float16* c, float* acc,
                             int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                             int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) acc[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float aip = (float)a[i * lda + p];
      for (int64_t j = 0; j < n; ++j) acc[j] += aip * (float)b[p * ldb + j];
    }
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = (_Float16)acc[j];
  }
}

void plain_matmul_f16_f16acc(const _Float16* a, const _Float16* b, _Float16* c, int64_t m,
                             int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    _Float16* ci = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) ci[j] = 0;
    for (int64_t p = 0; p < k; ++p) {
      const _Float16 aip = a[i * lda + p];
      for (int64_t j = 0; j < n; ++j) ci[j] += aip * b[p * ldb + j];
    }
  }
}

void plain_matmul_bf16(const __bf16* a, const __bf16* b, __bf16* c, float* acc, int64_t m,
                       int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) acc[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float aip = (float)a[i * lda + p];
      for (int64_t j = 0; j < n; ++j) acc[j] += aip * (float)b[p * ldb + j];
    }
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = (__bf16)acc[j];
  }
}

void plain_matmul_fp8(const uint8_t* a, const uint8_t* b, _Float16* c, float* acc, int64_t m,
                      int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) acc[j] = 0.0f;
    for (int64_t p = 0; p < k; ++p) {
      const float aip = E4m3fnToF32(a[i * lda + p]);
      for (int64_t j = 0; j < n; ++j) acc[j] += aip * E5m2ToF32(b[p * ldb + j]);
    }
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = (_Float16)acc[j];
  }
}

void plain_matmul_i8(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k,
                     int64_t lda, int64_t ldb, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    int32_t* ci = c + i * ldc;
    for (int64_t j = 0; j < n; ++j) ci[j] = 0;
    for (int64_t p = 0; p < k; ++p) {
      const int32_t aip = a[i * lda + p];
      for (int64_t j = 0; j < n; ++j) ci[j] += aip * b[p * ldb + j];
    }
  }
}

void plain_linear_i8(const int8_t* x, const int8_t* w, int32_t* y, int64_t m, int64_t n, int64_t k,
                     int64_t ldx, int64_t ldw, int64_t ldy) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      int32_t sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += x[i * ldx + p] * w[j * ldw + p];
      y[i * ldy + j] = sum;
    }
  }
}

void plain_attention_f32(const float* q, const float* k, const float* v, float* out, float* scores,
                         int64_t heads, int64_t n_ctx, int64_t head_dim, float sm_scale) {
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t head = h * n_ctx * head_dim;
    for (int64_t i = 0; i < n_ctx; ++i) {
      const float* qi = q + head + i * head_dim;
      for (int64_t j = 0; j < n_ctx; ++j) {
        const float* kj = k + head + j * head_dim;
        float dot = 0.0f;
        for (int64_t d = 0; d < head_dim; ++d) dot += qi[d] * kj[d];
        scores[j] = dot * sm_scale;
      }
      float max = scores[0];
      for (int64_t j = 1; j < n_ctx; ++j) max = fmaxf(max, scores[j]);
      float sum = 0.0f;
      for (int64_t j = 0; j < n_ctx; ++j) {
        scores[j] = expf(scores[j] - max);
        sum += scores[j];
      }
      float* oi = out + head + i * head_dim;
      for (int64_t d = 0; d < head_dim; ++d) oi[d] = 0.0f;
      for (int64_t j = 0; j < n_ctx; ++j) {
        const float* vj = v + head + j * head_dim;
        const float pj = scores[j];
        for (int64_t d = 0; d < head_dim; ++d) oi[d] += pj * vj[d];
      }
      for (int64_t d = 0; d < head_dim; ++d) oi[d] /= sum;
    }
  }
}

void plain_attention_f16(const _Float16* q, const _Float16* k, const _Float16* v, _Float16* out,
                         float* lse, float* scratch, int64_t heads, int64_t n_ctx, int64_t head_dim,
                         float sm_scale, int causal) {
  float* scores = scratch;
  float* o = scratch + n_ctx;
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t head = h * n_ctx * head_dim;
    for (int64_t i = 0; i < n_ctx; ++i) {
      const _Float16* qi = q + head + i * head_dim;
      const int64_t keys = causal ? i + 1 : n_ctx;
      for (int64_t j = 0; j < keys; ++j) {
        const _Float16* kj = k + head + j * head_dim;
        float dot = 0.0f;
        for (int64_t d = 0; d < head_dim; ++d) dot += (float)qi[d] * (float)kj[d];
        scores[j] = dot * sm_scale;
      }
      float max = scores[0];
      for (int64_t j = 1; j < keys; ++j) max = fmaxf(max, scores[j]);
      float sum = 0.0f;
      for (int64_t j = 0; j < keys; ++j) {
        scores[j] = expf(scores[j] - max);
        sum += scores[j];
      }
      for (int64_t d = 0; d < head_dim; ++d) o[d] = 0.0f;
      for (int64_t j = 0; j < keys; ++j) {
        const _Float16* vj = v + head + j * head_dim;
        const float pj = scores[j];
        for (int64_t d = 0; d < head_dim; ++d) o[d] += pj * (float)vj[d];
      }
      _Float16* oi = out + head + i * head_dim;
      for (int64_t d = 0; d < head_dim; ++d) oi[d] = (_Float16)(o[d] / sum);
      lse[h * n_ctx + i] = (max + logf(sum)) * (float)M_LOG2E;
    }
  }
}
