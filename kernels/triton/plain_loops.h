/* The computations of the Triton kernels in kernels/triton, each as the plain C loop a
 * performance-minded user would write instead: the clang -O3 peers of //tools/perf:triton_table.
 *
 * Flags (kernels/triton/BUILD.bazel, PLAIN_LOOP_COPTS): -O3 -ffast-math
 * -march=armv8.2-a+fp16+fp16fml+bf16+dotprod+i8mm.
 *  - -O3: clang's loop and SLP vectorizers at their most eager; the loops are auto-vectorized,
 *    never written with intrinsics or unrolled by hand.
 *  - -ffast-math: reductions may reassociate (Triton's tt.reduce and tt.dot do), a*b+c may
 *    contract to one FMA, math functions do not set errno. It also lets clang assume no NaN
 *    or infinity reaches float arithmetic, so no loop here starts a max at -infinity; NaN codes
 *    are made and tested on integer bits. No vector math library: the sysroot's glibc (2.36)
 *    has no AArch64 libmvec, so exp, exp2, log, sin, ... stay calls to glibc, one per element.
 *  - -march: the features the Triton objects run with under the table's QEMU (-cpu max):
 *    their per-target variants use dotprod, i8mm, bf16, fp16 and fp16fml; none uses SVE, so
 *    neither do these loops (their counts do not change with the SVE vector length).
 *
 * Layouts are the kernels': row-major with a row stride in elements. Each function states
 * where it differs from the TTIR in rounding only (the caller compares within a tolerance).
 * bf16 is __bf16 and f16 is _Float16 (clang on AArch64); fp8 values are their uint8_t codes. */
#ifndef TCPU_KERNELS_TRITON_PLAIN_LOOPS_H_
#define TCPU_KERNELS_TRITON_PLAIN_LOOPS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* vector_add.ttir, vector_add_hinted.ttir: out[i] = x[i] + y[i] for i < n. */
void plain_add_f32(const float* x, const float* y, float* out, int64_t n);

/* exp.ttir: e[i] = expf(x[i]), e2[i] = exp2f(x[i]) for i < n. */
void plain_exp_exp2_f32(const float* x, float* e, float* e2, int64_t n);

/* math.ttir: y[i] = f(x[i]) for i < n through glibc's logf, sinf, cosf, erff and tanhf, and
 * 1 / sqrtf (FSQRT and FDIV once vectorized). */
void plain_log_f32(const float* x, float* y, int64_t n);
void plain_sin_f32(const float* x, float* y, int64_t n);
void plain_cos_f32(const float* x, float* y, int64_t n);
void plain_rsqrt_f32(const float* x, float* y, int64_t n);
void plain_erf_f32(const float* x, float* y, int64_t n);
void plain_tanh_f32(const float* x, float* y, int64_t n);

/* softmax.ttir: each of `rows` rows of `cols` >= 1 values, out = exp(x - max) / sum. */
void plain_softmax_rows_f32(const float* in, float* out, int64_t rows, int64_t cols,
                            int64_t in_stride, int64_t out_stride);

/* layer_norm.ttir (forward): per row of n >= 1, mean, rstd = 1 / sqrt(var + eps) (biased
 * variance), y = (x - mean) * rstd * w + b; mean[row], rstd[row] written. x and y share
 * `stride`. */
void plain_layer_norm_fwd_f32(const float* x, float* y, const float* w, const float* b, float* mean,
                              float* rstd, int64_t rows, int64_t n, int64_t stride, float eps);

/* layer_norm_bwd_dx.ttir (and _4096): per row, xhat = (x - mean) * rstd, wdy = w * dy,
 * dx = (wdy - (xhat * c1 + c2)) * rstd with c1 = sum(xhat * wdy) / n, c2 = sum(wdy) / n;
 * partial_dw[row % group] += dy * xhat, partial_db[row % group] += dy (rows of n). The
 * kernel's lock serializes GPU programs on a partial row and its first program stores
 * instead of adding: here the caller zeroes partial_dw and partial_db ([group, n]) first. */
void plain_layer_norm_bwd_dx_f32(const float* dy, const float* x, const float* w, const float* mean,
                                 const float* rstd, float* dx, float* partial_dw, float* partial_db,
                                 int64_t rows, int64_t n, int64_t stride, int64_t group);

/* layer_norm_bwd_dwdb.ttir: final_dw[j] = sum over the m rows of dw[i][j] (likewise db),
 * j < n, rows of n. */
void plain_layer_norm_bwd_dwdb_f32(const float* dw, const float* db, float* final_dw,
                                   float* final_db, int64_t m, int64_t n);

/* histogram.ttir: for each block of `block` values of x (the last one padded with zeros past
 * n, which count in bin 0 of `all` only), the count of each value in [0, bins): all[p * bins +
 * v] and, without the padding, valid[p * bins + v]. Other values count nowhere. */
void plain_histogram_blocks_i32(const int32_t* x, int32_t* all, int32_t* valid, int64_t n,
                                int64_t block, int32_t bins);

/* scan.ttir cumsum_kernel: y[i] = x[b] + ... + x[i], b the start of i's block of `block`. */
void plain_cumsum_blocks_f32(const float* x, float* y, int64_t n, int64_t block);

/* scan.ttir row_suffix_max_kernel: per row r of `rows`, for c < cols, y[r * stride + c] =
 * max(x[r * stride + c .. cols - 1]) and y[r * stride + cols + c] its column (the later one
 * on ties). */
void plain_row_suffix_max_i32(const int32_t* x, int32_t* y, int64_t rows, int64_t cols,
                              int64_t stride);

/* argmax.ttir: per row of cols >= 1, the largest value and its first column. */
void plain_argmax_rows_f32(const float* x, int32_t* index, float* max, int64_t rows, int64_t cols,
                           int64_t stride);

/* block_pointer_copy.ttir: dst[i * n + j] = src[i * src_stride + j], i < m, j < n. */
void plain_copy_2d_f32(const float* src, float* dst, int64_t m, int64_t n, int64_t src_stride);

/* descriptor_scale.ttir: y[i * n + j] = x[i * x_stride + j] * 2 + 1, i < m, j < n. */
void plain_scale_2d_f32(const float* x, float* y, int64_t m, int64_t n, int64_t x_stride);

/* fp16_arith.ttir: nine planes of n: x + y, x - y, x * y, fma(x, y, z), max, min, 0 - |x|,
 * x < y ? z : y, (x * y + z) * y - x. Each op of the TTIR rounds to f16; here fma is C's fmaf
 * (exact product, one f32 rounding, then f16: two roundings), and clang may fuse the chain's
 * multiplies and adds (FMLA .8h), rounding once. */
void plain_fp16_arith(const _Float16* x, const _Float16* y, const _Float16* z, _Float16* out,
                      int64_t n);

/* fp8_cast.ttir half_narrow: x to f16 and bf16, to nearest even and toward zero (IEEE:
 * overflow to infinity, or to the largest finite value toward zero; NaN stays NaN). */
void plain_half_narrow(const float* x, _Float16* f16_rtne, uint16_t* f16_rtz, __bf16* bf16_rtne,
                       uint16_t* bf16_rtz, int64_t n);

/* fp8_cast.ttir e4m3fn_narrow: x to e4m3fn codes, to nearest even and toward zero, saturating
 * as Triton does (overflow and infinity to 448, NaN to 0x7f). */
void plain_e4m3fn_narrow(const float* x, uint8_t* rtne, uint8_t* rtz, int64_t n);

/* fp8_cast.ttir e4m3fn_widen: each e4m3fn code as f32, f16 and bf16 (exact), and its bits. */
void plain_e4m3fn_widen(const uint8_t* x, float* f32, _Float16* f16, __bf16* bf16, uint8_t* bits,
                        int64_t n);

/* fp8_scale.ttir: v = e4m3fn x * scale in f32; y8 = v as e5m2 (nearest even, saturating at
 * 57344), y16 = v as f16. */
void plain_fp8_scale(const uint8_t* x, float scale, uint8_t* y8, _Float16* y16, int64_t n);

/* The matmuls: C[m, n] = A[m, k] B[k, n], row strides lda, ldb, ldc (elements). The float loops
 * run i, p, j (a row of C accumulates a[i][p] * b[p][j] along contiguous j: the order a
 * performance-minded C programmer picks so that the inner loop vectorizes); `acc` is n floats
 * of the caller's scratch where C is narrower than the f32 accumulator. */

/* matmul_f32.ttir. */
void plain_matmul_f32(const float* a, const float* b, float* c, int64_t m, int64_t n, int64_t k,
                      int64_t lda, int64_t ldb, int64_t ldc);

/* matmul_tutorial_f16.ttir: f16 A and B, f32 accumulation, C rounded to f16. */
void plain_matmul_f16_f32acc(const _Float16* a, const _Float16* b, _Float16* c, float* acc,
                             int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                             int64_t ldc);

/* matmul_tutorial_f16acc.ttir: f16 A, B and accumulator (C accumulates in place). */
void plain_matmul_f16_f16acc(const _Float16* a, const _Float16* b, _Float16* c, int64_t m,
                             int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc);

/* matmul_bf16.ttir, matmul_tutorial_bf16.ttir, matmul_persistent_bf16.ttir: bf16 A and B, f32
 * accumulation, C rounded to bf16. */
void plain_matmul_bf16(const __bf16* a, const __bf16* b, __bf16* c, float* acc, int64_t m,
                       int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc);

/* matmul_fp8.ttir: e4m3fn A, e5m2 B, f32 accumulation, C rounded to f16. */
void plain_matmul_fp8(const uint8_t* a, const uint8_t* b, _Float16* c, float* acc, int64_t m,
                      int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc);

/* matmul_i8.ttir, matmul_splitk_i8.ttir: int8 A and B, C in int32 (exact). */
void plain_matmul_i8(const int8_t* a, const int8_t* b, int32_t* c, int64_t m, int64_t n, int64_t k,
                     int64_t lda, int64_t ldb, int64_t ldc);

/* linear_i8.ttir: y[m, n] = x[m, k] w[n, k]^T in int32 (exact): one dot product per output. */
void plain_linear_i8(const int8_t* x, const int8_t* w, int32_t* y, int64_t m, int64_t n, int64_t k,
                     int64_t ldx, int64_t ldw, int64_t ldy);

/* Attention forward over `heads` heads of [n_ctx, head_dim] Q, K, V, O (contiguous, head after
 * head): O[i] = sum_j p_j V[j] / sum_j p_j, p_j = exp(sm_scale Q[i].K[j] - max), over all keys
 * (or j <= i where causal). The loop computes a row's scores, then its softmax, then P V: the
 * textbook form, which needs `scores` (n_ctx floats of the caller's scratch). */

/* flash_attention.ttir (attn_fwd): f32 throughout, head_dim 32 in the kernel. */
void plain_attention_f32(const float* q, const float* k, const float* v, float* out, float* scores,
                         int64_t heads, int64_t n_ctx, int64_t head_dim, float sm_scale);

/* attention_fwd.ttir, attention_fwd_causal.ttir (tutorial 06): f16 Q, K, V, O, f32 softmax and
 * accumulation; also lse[head * n_ctx + i] = log2 of the row's sum of 2^(sm_scale log2(e)
 * Q[i].K[j]) (the kernel's M). The kernel rounds P to f16 before P V; this loop keeps it f32.
 * `scratch`: n_ctx + head_dim floats (the scores, then the f32 output row). */
void plain_attention_f16(const _Float16* q, const _Float16* k, const _Float16* v, _Float16* out,
                         float* lse, float* scratch, int64_t heads, int64_t n_ctx, int64_t head_dim,
                         float sm_scale, int causal);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_KERNELS_TRITON_PLAIN_LOOPS_H_ */
