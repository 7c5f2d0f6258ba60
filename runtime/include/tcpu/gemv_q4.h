/* INT4 weights (W4A8): group quantization, packing, GEMV and GEMM on int8 activations.
 *
 * Quantization (llama.cpp's Q4_0 numbers: a signed nibble times an fp16 scale per block of
 * 32): each row of w[n][k] is cut along k into groups of TCPU_Q4_GROUP = 32 (the last group
 * of a row holds k % 32 weights when k is not a multiple of 32; its missing weights count as
 * zero). Per row i and group g:
 *   m = the weight of largest magnitude in the group (the first one on ties);
 *   scale[i][g] = fp16_rne(m / -8) (tcpu/fp16.h; +0 for an all-zero group);
 *   q[i][j] = clamp(round_half_even(w[i][j] / (float)scale[i][g]), -8, 7)  (fp32 division by
 *   the fp16-rounded scale, which the kernels multiply by; 0 when that scale is 0).
 * So m maps to -8 (unless the scale is an fp16 subnormal, |m| < 8 x 2^-14) and w ~ q * scale.
 * llama.cpp divides by the unrounded scale and rounds half up; dividing by the stored scale
 * gives the q nearest to w for the scale the arithmetic actually uses. A group whose scale
 * rounds to infinity (|m| >= 8 x 65520) is TCPU_ERR_INVALID_ARGUMENT; one whose scale rounds
 * to zero (|m| <= 8 x 2^-25) quantizes to zeros.
 *
 * Arithmetic of every GEMV and GEMM variant (bit-identical on every CPU and vector length):
 *   acc[i][g] = sum over the group of q[i][j] * x[j]              (int32, exact)
 *   f = 0.0f; for g = 0, 1, ..., groups - 1:
 *     f = fmaf((float)acc[i][g], (float)scale[i][g], f)           (fp16 -> fp32 exact)
 *   y[i] = f * x_scale                                             (fp32)
 *
 * Packed format (independent of the SVE vector length: pack once, run on any VL or CPU):
 * rows in tiles of 16 (n padded with zero rows), each tile one stream over its groups of
 * 288 bytes: 4 units of 64 bytes, then the 16 rows' fp16 scales (32 bytes). One byte holds two
 * rows at the same k: tile rows p and p + 8 (a row pair, p = 0..7), row p's q in the high nibble
 * (two's complement) and row p + 8's q + 8 in the low nibble (0..15). Unit u holds 4 slots of
 * 16 bytes; slot s holds row pairs 4 * (s % 2) .. + 3 at k = 4u .. 4u + 3 (s < 2) or
 * k = 16 + 4u .. 16 + 4u + 3 (s >= 2) of the group, byte 4j + e of the slot the pair
 * 4 * (s % 2) + j at the slot's k + e. 0.5625 bytes per weight (Q4_0's),
 * after a 64-byte header (magic, version, n, k) that every call checks against its own n and k.
 * GGUF Q4_0 blocks (nibble v = q + 8) are packed as they are by tcpu_pack_q4_from_q4_0. */
#ifndef TCPU_GEMV_Q4_H_
#define TCPU_GEMV_Q4_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCPU_Q4_GROUP 32

/* The version of the packed format above, stored in every packed header. It changes whenever
 * the layout does, so packed bytes kept in a file (a pre-quantized checkpoint) from another
 * SDK are refused instead of misread. 3: two rows per byte (2 had a row's k and k + 16 in a
 * byte, 1 fp32 scales). */
#define TCPU_Q4_PACKED_VERSION 3

/* Groups per row: k / 32 rounded up (k >= 1), or a negative tcpu_status. */
int64_t tcpu_q4_groups(int64_t k);

/* Quantizes row-major fp32 w[n][k] as described above: q[n][k] int8 in [-8, 7] and
 * scales[n][tcpu_q4_groups(k)] (fp16 bits). A NaN or infinite weight, or a group whose scale
 * does not fit fp16, is TCPU_ERR_INVALID_ARGUMENT naming the first one (lowest row, then
 * column), and nothing is written. */
int tcpu_quantize_q4_f32(const float* w, int64_t n, int64_t k, int8_t* q, uint16_t* scales);

/* The same for bf16 weights (each converted to fp32 exactly first). */
int tcpu_quantize_q4_bf16(const uint16_t* w, int64_t n, int64_t k, int8_t* q, uint16_t* scales);

/* Bytes a packed [n, k] int4 matrix needs, or a negative tcpu_status. */
int64_t tcpu_q4_packed_size(int64_t n, int64_t k);

/* Packs q[n][k] (each in [-8, 7]) and scales[n][groups] (fp16 bits, finite) into `packed`
 * (packed_bytes >= tcpu_q4_packed_size). A value out of range or a non-finite scale is
 * TCPU_ERR_INVALID_ARGUMENT naming the first one; the buffer then does not validate. */
int tcpu_pack_q4(const int8_t* q, const uint16_t* scales, int64_t n, int64_t k, void* packed,
                 int64_t packed_bytes);

/* Packs a GGUF Q4_0 matrix as it is: `blocks` holds n rows of k / 32 blocks of 18 bytes
 * (ggml's block_q4_0: fp16 d, then 16 bytes whose low nibbles are values 0..15 and high
 * nibbles values 16..31, each v with value (v - 8) * d). q = v - 8 and scale = d bit for bit,
 * so the packed matrix holds exactly the file's numbers; no rounding happens. k must be a
 * multiple of 32 (TCPU_ERR_INVALID_SIZE otherwise), blocks_bytes n * k / 32 * 18; a
 * non-finite d is TCPU_ERR_INVALID_ARGUMENT naming its row and block, before anything is
 * written. Runs at well under one instruction per weight (a load takes no dequantization). */
int tcpu_pack_q4_from_q4_0(const void* blocks, int64_t blocks_bytes, int64_t n, int64_t k,
                           void* packed, int64_t packed_bytes);

/* Checks that packed[0, packed_bytes) is a whole [n, k] matrix from tcpu_pack_q4 of this
 * version: packed_bytes == tcpu_q4_packed_size(n, k) and the header's magic, version, n and k.
 * Reads the header only (not the scales). TCPU_ERR_INVALID_ARGUMENT with what differs. */
int tcpu_check_q4_packed(const void* packed, int64_t packed_bytes, int64_t n, int64_t k);

/* Reads q[n][k] and scales[n][groups] (fp16 bits) back out of a packed matrix (checked like
 * the GEMV). */
int tcpu_unpack_q4(const void* packed, int64_t n, int64_t k, int8_t* q, uint16_t* scales);

/* y[i] for one activation row x[k] (int8, any value) with scale x_scale, by the arithmetic
 * above. packed_w from tcpu_pack_q4 with the same n and k (checked). When k is not a multiple
 * of 32, uses the calling thread's scratch arena for x padded to whole groups. */
int tcpu_gemv_w4a8(const void* packed_w, const int8_t* x, float x_scale, float* y, int64_t n,
                   int64_t k);

/* The W4A8 GEMV of LLM decode: bf16 x quantized exactly as tcpu_gemv_bf16_w8 does it
 * (x_scale = absmax / 127, q = clamp(round_half_even(x * 127 / absmax), -127, 127), NaN
 * ignored by absmax and quantized to 0; an all-zero x gives y = 0), then y[i] =
 * bf16_rne(f * x_scale) with f as above. Bit-identical on every variant. Uses the calling
 * thread's scratch arena (k and n * 4 bytes, rounded up). */
int tcpu_gemv_bf16_w4(const void* packed_w, const uint16_t* x, uint16_t* y, int64_t n, int64_t k);

/* y[r][i] for m activation rows x[m][k] (row-major) with scales x_scales[m]: each row exactly
 * as tcpu_gemv_w4a8 computes it. SMMLA (i8mm) where available. y: [m, n] row-major. Uses
 * the calling thread's scratch arena for x rearranged (m rounded up to 2, times k rounded up
 * to 32, bytes). */
int tcpu_gemm_w4a8(const void* packed_w, const int8_t* x, const float* x_scales, float* y,
                   int64_t m, int64_t n, int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_GEMV_Q4_H_ */
