/* INT8 GEMM for prefill and batched decode, on the packed weights of tcpu/gemv.h. */
#ifndef TCPU_GEMM_H_
#define TCPU_GEMM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[r][i] = sum_j x[r][j] * w[i][j] in int32, exact. x: [m, k] row-major int8;
 * y: [m, n] row-major int32; packed_w from tcpu_pack_weights_i8(n, k). SMMLA (i8mm) where
 * available. Uses tcpu_gemm_i8_scratch_size(m, k) bytes of the calling thread's arena. */
int tcpu_gemm_i8(const void* packed_w, const int8_t* x, int32_t* y, int64_t m, int64_t n,
                 int64_t k);

/* W8A8 GEMM: the sums of tcpu_gemm_i8 through tcpu_gemv_bf16_w8's epilogue, each row with its
 * own activation scale: y[r][i] = (float)acc[r][i] * x_scales[r] * w_scales[i], fp32, two
 * roundings in that order (no FMA), so row r is bit for bit the fp32 value the W8A8 GEMV gives
 * for x row r quantized with scale x_scales[r] (0 for a row that quantized to all zeros).
 * w_scales: [n] (tcpu_quantize_weights_bf16); x_scales: [m]; y: [m, n] row-major fp32. The
 * epilogue runs on the tile in registers: no int32 pass over y. Same scratch as tcpu_gemm_i8. */
int tcpu_gemm_w8a8(const void* packed_w, const float* w_scales, const int8_t* x,
                   const float* x_scales, float* y, int64_t m, int64_t n, int64_t k);

/* The same rounded to bf16 (round to nearest even, NaN kept: tcpu_f32_to_bf16), with
 * bias[i] added to the fp32 value first when bias is not NULL (one more rounding):
 * y[r][i] = bf16(fp32[r][i] + bias[i]). y: [m, n] row-major bf16. */
int tcpu_gemm_bf16_w8a8(const void* packed_w, const float* w_scales, const float* bias,
                        const int8_t* x, const float* x_scales, uint16_t* y, int64_t m, int64_t n,
                        int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_GEMM_H_ */
