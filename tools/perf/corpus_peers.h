/* The computations of Inductor's kernels in tools/perf/triton_corpus_perf.txt (launches of the
 * corpus captured on a GPU, tests/triton_replay/corpus), each as the plain C loop a
 * performance-minded user would write instead: the clang -O3 peers of
 * //tools/perf:triton_corpus_table, run by corpus_peers_main.cc on each launch's own bytes.
 *
 * Flags (tools/perf/BUILD.bazel, CORPUS_PEER_COPTS: kernels/triton's PLAIN_LOOP_COPTS):
 * -O3 -ffast-math -march=armv8.2-a+fp16+fp16fml+bf16+dotprod+i8mm; kernels/triton/plain_loops.h
 * says why each. As there, expf, sinf, cosf, tanhf and logf stay calls to glibc (2.36 has no
 * AArch64 vector math library), one per element.
 *
 * Every launch of the slice is f32. Rows are contiguous (stride = row length). Each comment names
 * the launch and states where the loop differs from the TTIR in more than rounding. */
#ifndef TCPU_TOOLS_PERF_CORPUS_PEERS_H_
#define TCPU_TOOLS_PERF_CORPUS_PEERS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0031 (RMSNorm): per row of n, y = x * (1 / sqrt(sum(x * x) / n + eps)) * w. */
void corpus_rms_norm_f32(const float* x, const float* w, float* y, int64_t rows, int64_t n,
                         float eps);

/* 0030 (LayerNorm): kernels/triton/plain_loops.h's plain_layer_norm_fwd_f32 (the same loop;
 * its mean and rstd rows are scratch there). */

/* Rotary embedding (rotate-half): x is [tokens][heads][dim]; token t is at position
 * t % positions; angles is [dim / 2][positions] (the transposed inv_freq x position product the
 * model's bmm left). With a = angles[j * positions + p], h = dim / 2, for j < h:
 *   y[j]     = x[j] * cos(a) - x[j + h] * sin(a)
 *   y[j + h] = x[j + h] * cos(a) + x[j] * sin(a).
 * 0066 (Llama rotary): tokens 32, heads 2, dim 16, positions 16. */
void corpus_rope_f32(const float* x, const float* angles, float* y, int64_t tokens, int64_t heads,
                     int64_t dim, int64_t positions);

/* 0080 (Qwen3 q/k norm + rotary): the rotary above on x's heads RMS-normalized first (each head
 * of dim by itself, weight w[dim], eps), x[j] standing for x[j] * rstd * w[j]. */
void corpus_rms_norm_rope_f32(const float* x, const float* w, const float* angles, float* y,
                              int64_t tokens, int64_t heads, int64_t dim, int64_t positions,
                              float eps);

/* 0241 (Qwen3 rotary backward into the q/k norm weight's gradient): dy is [batch][heads]
 * [positions][dim] (the gradient of the rotated heads), angles [dim / 2][positions] as above,
 * x [batch][positions][heads][dim] (the heads before the norm's weight) and rstd
 * [batch][positions][heads] (their reciprocal RMS). Each row of dy is rotated back (the rotary's
 * transpose: with h = dim / 2, g[j] = dy[j] cos(a) + dy[j + h] sin(a) and g[j + h] =
 * dy[j + h] cos(a) - dy[j] sin(a)), and dw[j] = the sum over batch, heads and positions of
 * g[j] x[j] rstd. The TTIR computes a sin and a cos per element; the loop one of each per pair
 * (j, j + h), as corpus_rope_f32 does. 0241 does this twice (q and k): batch 2, heads 4,
 * positions 16, dim 16. */
void corpus_rope_backward_norm_weight_grad_f32(const float* dy, const float* angles,
                                               const float* x, const float* rstd, float* dw,
                                               int64_t batch, int64_t heads, int64_t positions,
                                               int64_t dim);

/* 0370 (SiLU-mul): in is [rows][2 * cols], gate then up; out[r][j] = silu(gate) * up,
 * silu(g) = g / (1 + exp(-g)). */
void corpus_silu_mul_f32(const float* in, float* out, int64_t rows, int64_t cols);

/* 0377 (SiLU-mul backward): dy is [rows][cols], in the forward's [rows][2 * cols] (gate, up);
 * dx is [rows][2 * cols]: d gate = dy * up * s * (1 + gate * (1 - s)), s = sigmoid(gate), and
 * d up = dy * silu(gate). One exp per pair (the TTIR evaluates the sigmoid once per half). */
void corpus_silu_mul_backward_f32(const float* dy, const float* in, float* dx, int64_t rows,
                                  int64_t cols);

/* 0188 (cross-entropy forward, log-softmax statistics): per row of cols, row_max[r] = max and
 * log_sum[r] = log(sum(exp(x - max))). */
void corpus_log_sum_exp_rows_f32(const float* x, float* row_max, float* log_sum, int64_t rows,
                                 int64_t cols);

/* 0190 (cross-entropy backward, nll_loss + log_softmax backward, added to a gradient): row r's
 * target t = targets[(r / seq) * target_stride + r % seq]; g = -grad_out[0] / total_weight[0]
 * where t != ignore_index and 0 <= t < cols, else 0 (the TTIR sums the one-hot row of g: that
 * sum); dx[r][j] = grad_in[r][j] + (j == t ? g : 0) - exp(logits[r][j] - row_max[r] -
 * log_sum[r]) * g. */
void corpus_cross_entropy_backward_f32(const int64_t* targets, int64_t seq, int64_t target_stride,
                                       int64_t ignore_index, const float* grad_out,
                                       const float* total_weight, const float* grad_in,
                                       const float* logits, const float* row_max,
                                       const float* log_sum, float* dx, int64_t rows,
                                       int64_t cols);

/* 0165 (embedding): out[r][j] = table[i][j], i = ids[r] (+ vocab when negative), j < dim.
 * Returns the first row whose id is out of [0, vocab) after that (the TTIR's tt.assert), or -1
 * when none is; rows before it are written. */
int64_t corpus_embedding_f32(const int64_t* ids, const float* table, float* out, int64_t rows,
                             int64_t vocab, int64_t dim);

/* 0022 (GELU, tanh approximation, times sigmoid): y = 0.5 x (1 + tanh(0.7978845608 (x +
 * 0.044715 x^3))) * 1 / (1 + exp(-x)). */
void corpus_gelu_tanh_mul_sigmoid_f32(const float* x, float* y, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TOOLS_PERF_CORPUS_PEERS_H_ */
