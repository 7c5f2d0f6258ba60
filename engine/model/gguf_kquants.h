// ggml's k-quants (Q4_K, Q5_K, Q6_K; ggml-common.h's block_q4_K, block_q5_K, block_q6_K):
// super-blocks of 256 weights cut into sub-blocks that each carry a small integer scale (and,
// for Q4_K and Q5_K, a min) relative to the super-block's fp16 factors. Dequantized exactly:
// d * sc, dmin * m and d * sc * q are exact in fp32 (at most 11 + 6 + 5 significant bits, never
// subnormal, as fp16 starts at 2^-24), so d * sc * q - dmin * m is a single correctly rounded
// fp32 subtraction, the same whether or not a compiler fuses it with the product.
//
//   Q4_K (144 bytes): fp16 d, fp16 dmin, scales[12], qs[128]. Eight sub-blocks of 32, each
//     with a 6-bit scale sc and a 6-bit min m (packed in scales[], see the .cc); value
//     = d * sc * q - dmin * m, q a 4-bit nibble. qs[32c + l] holds value 64c + l in its low
//     nibble (sub-block 2c) and value 64c + 32 + l in its high nibble (sub-block 2c + 1).
//   Q5_K (176 bytes): fp16 d, fp16 dmin, scales[12], qh[32], qs[128]: Q4_K plus a fifth bit
//     per weight, bit s of qh[l] being the 16s of value l of sub-block s (q runs 0..31).
//   Q6_K (210 bytes): ql[128], qh[64], int8 scales[16], fp16 d. Sixteen sub-blocks of 16, each
//     with a signed 8-bit scale; value = d * sc * (q - 32), q of 6 bits: 4 from ql, 2 from qh
//     (see the .cc).
#ifndef TCPU_ENGINE_MODEL_GGUF_KQUANTS_H_
#define TCPU_ENGINE_MODEL_GGUF_KQUANTS_H_

#include <cstdint>

#include "engine/gguf/gguf_types.h"

namespace tcpu::model {

constexpr int64_t kKQuantBlock = 256;  // weights per super-block (ggml's QK_K)

// True for Q4_K, Q5_K and Q6_K, the k-quants the loader dequantizes.
bool IsLoadedKQuant(gguf::TensorType type);

// Dequantizes `blocks` super-blocks of `type` (IsLoadedKQuant) from `data` (blocks x the type's
// block bytes) into `out` (blocks x 256 floats). Returns -1, or the index of the first
// super-block whose fp16 d or dmin is infinite or NaN (then `out` is incomplete).
int64_t DequantizeKQuant(gguf::TensorType type, const uint8_t* data, int64_t blocks, float* out);

// The same values rounded to bf16 (round to nearest even, tcpu_f32_to_bf16): what the loader
// makes of every float weight before quantizing it, so a model gets the numbers of an F32 file
// of the dequantized values at half the memory and without a second pass.
int64_t DequantizeKQuantToBf16(gguf::TensorType type, const uint8_t* data, int64_t blocks,
                               uint16_t* out);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_GGUF_KQUANTS_H_
