/* Plain C loops computing what Inductor's corpus kernels compute (corpus_peers.h): the clang -O3
 * peers of //tools/perf:triton_corpus_table. Idiomatic loops only: no intrinsics, no manual
 * unrolling or blocking; vectorizing them is clang's job. */
#include "tools/perf/corpus_peers.h"

#include <math.h>
#include <stdint.h>

void corpus_rms_norm_f32(const float* x, const float* w, float* y, int64_t rows, int64_t n,
                         float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * n;
    float* yr = y + r * n;
    float squares = 0.0f;
    for (int64_t j = 0; j < n; ++j) squares += xr[j] * xr[j];
    const float inverse_rms = 1.0f / sqrtf(squares / (float)n + eps);
    for (int64_t j = 0; j < n; ++j) yr[j] = xr[j] * inverse_rms * w[j];
  }
}

void corpus_rope_f32(const float* x, const float* angles, float* y, int64_t tokens, int64_t heads,
                     int64_t dim, int64_t positions) {
  const int64_t half = dim / 2;
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t p = t % positions;
    for (int64_t h = 0; h < heads; ++h) {
      const float* xh = x + (t * heads + h) * dim;
      float* yh = y + (t * heads + h) * dim;
      for (int64_t j = 0; j < half; ++j) {
        const float a = angles[j * positions + p];
        const float c = cosf(a), s = sinf(a);
        yh[j] = xh[j] * c - xh[j + half] * s;
        yh[j + half] = xh[j + half] * c + xh[j] * s;
      }
    }
  }
}

void corpus_rms_norm_rope_f32(const float* x, const float* w, const float* angles, float* y,
                              int64_t tokens, int64_t heads, int64_t dim, int64_t positions,
                              float eps) {
  const int64_t half = dim / 2;
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t p = t % positions;
    for (int64_t h = 0; h < heads; ++h) {
      const float* xh = x + (t * heads + h) * dim;
      float* yh = y + (t * heads + h) * dim;
      float squares = 0.0f;
      for (int64_t j = 0; j < dim; ++j) squares += xh[j] * xh[j];
      const float inverse_rms = 1.0f / sqrtf(squares / (float)dim + eps);
      for (int64_t j = 0; j < half; ++j) {
        const float a = angles[j * positions + p];
        const float c = cosf(a), s = sinf(a);
        const float lo = xh[j] * inverse_rms * w[j];
        const float hi = xh[j + half] * inverse_rms * w[j + half];
        yh[j] = lo * c - hi * s;
        yh[j + half] = hi * c + lo * s;
      }
    }
  }
}

void corpus_rope_backward_norm_weight_grad_f32(const float* dy, const float* angles,
                                               const float* x, const float* rstd, float* dw,
                                               int64_t batch, int64_t heads, int64_t positions,
                                               int64_t dim) {
  const int64_t half = dim / 2;
  for (int64_t j = 0; j < dim; ++j) dw[j] = 0.0f;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t p = 0; p < positions; ++p) {
        const float* g = dy + ((b * heads + h) * positions + p) * dim;
        const int64_t token_head = (b * positions + p) * heads + h;
        const float* xh = x + token_head * dim;
        const float scale = rstd[token_head];
        for (int64_t j = 0; j < half; ++j) {
          const float a = angles[j * positions + p];
          const float c = cosf(a), s = sinf(a);
          dw[j] += (g[j] * c + g[j + half] * s) * xh[j] * scale;
          dw[j + half] += (g[j + half] * c - g[j] * s) * xh[j + half] * scale;
        }
      }
    }
  }
}

void corpus_silu_mul_f32(const float* in, float* out, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* gate = in + r * 2 * cols;
    const float* up = gate + cols;
    for (int64_t j = 0; j < cols; ++j) {
      out[r * cols + j] = gate[j] / (1.0f + expf(-gate[j])) * up[j];
    }
  }
}

void corpus_silu_mul_backward_f32(const float* dy, const float* in, float* dx, int64_t rows,
                                  int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* dyr = dy + r * cols;
    const float* gate = in + r * 2 * cols;
    const float* up = gate + cols;
    float* dgate = dx + r * 2 * cols;
    float* dup = dgate + cols;
    for (int64_t j = 0; j < cols; ++j) {
      const float s = 1.0f / (1.0f + expf(-gate[j]));
      dgate[j] = dyr[j] * up[j] * s * (1.0f + gate[j] * (1.0f - s));
      dup[j] = dyr[j] * gate[j] * s;
    }
  }
}

void corpus_log_sum_exp_rows_f32(const float* x, float* row_max, float* log_sum, int64_t rows,
                                 int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float max = xr[0];
    for (int64_t j = 1; j < cols; ++j) max = fmaxf(max, xr[j]);
    float sum = 0.0f;
    for (int64_t j = 0; j < cols; ++j) sum += expf(xr[j] - max);
    row_max[r] = max;
    log_sum[r] = logf(sum);
  }
}

void corpus_cross_entropy_backward_f32(const int64_t* targets, int64_t seq, int64_t target_stride,
                                       int64_t ignore_index, const float* grad_out,
                                       const float* total_weight, const float* grad_in,
                                       const float* logits, const float* row_max,
                                       const float* log_sum, float* dx, int64_t rows,
                                       int64_t cols) {
  const float scale = grad_out[0] / total_weight[0];
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t t = targets[(r / seq) * target_stride + r % seq];
    const float g = (t != ignore_index && t >= 0 && t < cols) ? -scale : 0.0f;
    const float shift = row_max[r] + log_sum[r];
    for (int64_t j = 0; j < cols; ++j) {
      const float nll = j == t ? g : 0.0f;
      dx[r * cols + j] = grad_in[r * cols + j] + nll - expf(logits[r * cols + j] - shift) * g;
    }
  }
}

int64_t corpus_embedding_f32(const int64_t* ids, const float* table, float* out, int64_t rows,
                             int64_t vocab, int64_t dim) {
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t i = ids[r] < 0 ? ids[r] + vocab : ids[r];
    if (i < 0 || i >= vocab) return r;
    for (int64_t j = 0; j < dim; ++j) out[r * dim + j] = table[i * dim + j];
  }
  return -1;
}

void corpus_gelu_tanh_mul_sigmoid_f32(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float gelu = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    y[i] = gelu / (1.0f + expf(-v));
  }
}
