/* INT8 weights: packing, INT8 GEMV and the W8A8 bf16 GEMV of LLM decode.
 *
 * Packed weight format (one format for GEMV and GEMM, independent of the SVE vector
 * length: pack once, run on any VL or CPU model). Rows are grouped in blocks of
 * TCPU_PACK_NR = 4 rows and k in chunks of TCPU_PACK_KR = 8 bytes; n is padded to a
 * multiple of 4 and k to a multiple of 8 with zeros. Block b, chunk c holds 32 bytes:
 *   w[4b+0][8c..8c+7], w[4b+1][8c..8c+7], w[4b+2][8c..8c+7], w[4b+3][8c..8c+7]
 * so 16 consecutive bytes are a 2x8 SMMLA tile and blocks stream contiguously. A 64-byte
 * header (magic, n, k) precedes the data, which starts 64-byte aligned relative to it. */
#ifndef TCPU_GEMV_H_
#define TCPU_GEMV_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCPU_PACK_NR 4
#define TCPU_PACK_KR 8

/* The version of the packed format above, stored in every packed header. It changes whenever
 * the layout does, so packed bytes kept in a file (a pre-quantized checkpoint) from another
 * SDK are refused instead of misread. */
#define TCPU_PACKED_WEIGHTS_VERSION 1

/* Bytes a packed [n, k] int8 matrix needs, or a negative tcpu_status. */
int64_t tcpu_packed_weights_size(int64_t n, int64_t k);

/* Packs row-major int8 w[n][k] into `packed` (packed_bytes >= tcpu_packed_weights_size).
 * Multithreaded over row blocks. */
int tcpu_pack_weights_i8(const int8_t* w, int64_t n, int64_t k, void* packed,
                         int64_t packed_bytes);

/* The same packing from w stored k-major: row-major w[k][n], the transpose of the [n, k]
 * matrix it packs (weights kept as [in, out], such as GPT-2's Conv1D; a Triton matmul's b as
 * [K, N]). Same packed bytes as tcpu_pack_weights_i8 of the transposed matrix, same errors.
 * Multithreaded over row blocks. */
int tcpu_pack_weights_i8_kn(const int8_t* w, int64_t n, int64_t k, void* packed,
                            int64_t packed_bytes);

/* Checks that packed[0, packed_bytes) is a whole [n, k] matrix from tcpu_pack_weights_i8 of this
 * version: packed_bytes == tcpu_packed_weights_size(n, k) and the header's magic, version, n
 * and k. Reads the header only. TCPU_ERR_INVALID_ARGUMENT with what differs in the detail. */
int tcpu_check_packed_weights(const void* packed, int64_t packed_bytes, int64_t n, int64_t k);

/* y[i] = sum_j w[i][j] * x[j] in int32, exact (bit-identical on every variant).
 * packed_w: from tcpu_pack_weights_i8 with the same n and k (checked). x: k int8.
 * y: n int32. Any n >= 1, k >= 1. The vector variants lay x out once per call in the
 * calling thread's scratch arena (at most 4 * k rounded up to 8, bytes; tcpu/scratch.h). */
int tcpu_gemv_i8(const void* packed_w, const int8_t* x, int32_t* y, int64_t n, int64_t k);

/* Per-output-channel weight quantization as in the FlagTree reference:
 * scale[i] = absmax(w[i][:]) / 127 (a zero row gets scale 1 and zeros),
 * w_i8[i][j] = clamp(round_half_even(w[i][j] / scale[i]), -127, 127).
 * A NaN or infinite weight is TCPU_ERR_INVALID_ARGUMENT naming the first one (lowest row,
 * then column); rows holding one are left unwritten, all others are quantized. */
int tcpu_quantize_weights_bf16(const uint16_t* w, int64_t n, int64_t k, int8_t* w_i8,
                               float* scales);

/* W8A8 GEMV with dynamic per-tensor activation quantization, exactly as FlagTree does it:
 *   absmax = max |x|; if absmax == 0: y = 0.
 *   inv = 127.0f / absmax; q[j] = clamp(round_half_even(x[j] * inv), -127, 127)  (fp32)
 *   acc = W_i8 . q (int32);  y[i] = bf16_rne((float)acc[i] * (absmax / 127.0f) * w_scales[i])
 * NaN in x is ignored by absmax and quantizes to 0 (as FCVTNS does); an all-zero x gives
 * y = 0. Bit-identical on every variant. Uses tcpu_gemv_bf16_w8_scratch_size(k) scratch bytes of
 * the calling thread's arena (tcpu/scratch.h). */
int tcpu_gemv_bf16_w8(const void* packed_w, const float* w_scales, const uint16_t* x,
                      uint16_t* y, int64_t n, int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_GEMV_H_ */
