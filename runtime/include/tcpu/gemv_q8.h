/* Block-Q8 weights with int8 activations: GGUF Q8_0's numbers used as they are.
 *
 * Numbers (llama.cpp's Q8_0): each row of w[n][k] is cut along k into groups of
 * TCPU_Q8_GROUP = 32 (a last group of k % 32 weights when k is not a multiple of 32; its
 * missing weights count as zero); weight j of row i is q[i][j] * scale[i][g], q an int8 in
 * [-127, 127] (what Q8_0's quantizer produces; -128 is refused so that two products of the
 * NEON kernel still fit int16 for any int8 x) and scale an fp16 per group and row.
 *
 * Arithmetic of every GEMV and GEMM variant (bit-identical on every CPU and vector length; the
 * contract of tcpu/gemv_q4.h with 8-bit q):
 *   acc[i][g] = sum over the group of q[i][j] * x[j]              (int32, exact)
 *   f = 0.0f; for g = 0, 1, ..., groups - 1:
 *     f = fmaf((float)acc[i][g], (float)scale[i][g], f)           (fp16 -> fp32 exact)
 *   y[i] = f * x_scale                                             (fp32)
 *
 * Packed format (independent of the SVE vector length): a 64-byte header (magic, version, n,
 * k, groups, tiles) that every call checks against its own n and k, then rows in tiles of 16
 * (n padded with zero rows), each tile one stream over its groups of 544 bytes: 8 units of 64
 * bytes, then the 16 rows' fp16 scales (32 bytes). Unit u holds k = 4u .. 4u + 3 of the group
 * for the 16 rows: byte 16q + 4r + e is tile row 4q + r's q at k = 4u + e. 1.0625 bytes per
 * weight (Q8_0's). */
#ifndef TCPU_GEMV_Q8_H_
#define TCPU_GEMV_Q8_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCPU_Q8_GROUP 32

/* The version of the packed format above, stored in every packed header (a pre-quantized
 * file written by another SDK is refused instead of misread). */
#define TCPU_Q8_PACKED_VERSION 1

/* Bytes a packed [n, k] block-Q8 matrix needs, or a negative tcpu_status. */
int64_t tcpu_q8_packed_size(int64_t n, int64_t k);

/* Packs q[n][k] (each in [-127, 127]) and scales[n][groups] (fp16 bits, finite; groups = k /
 * 32 rounded up) into `packed` (packed_bytes >= tcpu_q8_packed_size). A value out of range or
 * a non-finite scale is TCPU_ERR_INVALID_ARGUMENT naming the first one; the buffer then does
 * not validate. */
int tcpu_pack_q8(const int8_t* q, const uint16_t* scales, int64_t n, int64_t k, void* packed,
                 int64_t packed_bytes);

/* Packs a GGUF Q8_0 matrix as it is: `blocks` holds n rows of k / 32 blocks of 34 bytes
 * (ggml's block_q8_0: fp16 d, then 32 int8 q, value q * d). q and d are copied bit for bit,
 * so the packed matrix holds exactly the file's numbers. k must be a multiple of 32
 * (TCPU_ERR_INVALID_SIZE otherwise), blocks_bytes n * k / 32 * 34; a non-finite d or a
 * q = -128 is TCPU_ERR_INVALID_ARGUMENT naming its row and block (the buffer then does not
 * validate). Runs at under one instruction per weight (a load takes no dequantization). */
int tcpu_pack_q8_from_q8_0(const void* blocks, int64_t blocks_bytes, int64_t n, int64_t k,
                           void* packed, int64_t packed_bytes);

/* Checks that packed[0, packed_bytes) is a whole [n, k] matrix from tcpu_pack_q8 of this
 * version: packed_bytes == tcpu_q8_packed_size(n, k) and the header's magic, version, n, k.
 * Reads the header only. TCPU_ERR_INVALID_ARGUMENT with what differs. */
int tcpu_check_q8_packed(const void* packed, int64_t packed_bytes, int64_t n, int64_t k);

/* Reads q[n][k] and scales[n][groups] (fp16 bits) back out of a packed matrix (checked like
 * the GEMV). */
int tcpu_unpack_q8(const void* packed, int64_t n, int64_t k, int8_t* q, uint16_t* scales);

/* y[i] for one activation row x[k] (int8, any value) with scale x_scale, by the arithmetic
 * above. packed_w from tcpu_pack_q8 with the same n and k (checked). When k is not a multiple
 * of 32, uses the calling thread's scratch arena for x padded to whole groups. */
int tcpu_gemv_q8(const void* packed_w, const int8_t* x, float x_scale, float* y, int64_t n,
                 int64_t k);

/* The decode form: bf16 x quantized exactly as tcpu_gemv_bf16_w8 does it (so every weight
 * format sees the same int8 activations), then y[i] = bf16_rne(f * x_scale); an all-zero x
 * gives y = 0. Uses the calling thread's scratch arena (k and n * 4 bytes, rounded up). */
int tcpu_gemv_bf16_q8(const void* packed_w, const uint16_t* x, uint16_t* y, int64_t n, int64_t k);

/* y[r][i] for m activation rows x[m][k] (row-major) with scales x_scales[m]: each row exactly
 * as tcpu_gemv_q8 computes it. SMMLA (i8mm) where available. y: [m, n] row-major. Uses the
 * calling thread's scratch arena for x rearranged (m rounded up to 2, times k rounded up to
 * 32, bytes). */
int tcpu_gemm_q8(const void* packed_w, const int8_t* x, const float* x_scales, float* y,
                 int64_t m, int64_t n, int64_t k);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_GEMV_Q8_H_ */
