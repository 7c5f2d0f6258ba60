// Token embedding rows kept as a GGUF file stores them (ggml's Q4_0 or Q8_0 blocks of 32), turned
// into bf16 one row per token: the decode step reads a row where a converted table would cost
// the whole table at load. The values are the ones such a table would hold: each d x q exact in
// fp32, rounded to bf16 (ties to even).
#ifndef TCPU_KERNELS_TRANSFORMER_LAYER_EMBEDDING_ROWS_H_
#define TCPU_KERNELS_TRANSFORMER_LAYER_EMBEDDING_ROWS_H_

#include <cstdint>

namespace tcpu::transformer {

inline constexpr int64_t kEmbeddingBlock = 32;  // values per Q4_0 and Q8_0 block
inline constexpr int64_t kQ4_0BlockBytes = 18;  // fp16 d, 16 bytes of nibbles v: (v - 8) x d
inline constexpr int64_t kQ8_0BlockBytes = 34;  // fp16 d, 32 int8 q: q x d

// `values` (a multiple of 32) values of consecutive blocks as bf16.
void Q4_0ToBf16(const uint8_t* blocks, int64_t values, uint16_t* out);
void Q8_0ToBf16(const uint8_t* blocks, int64_t values, uint16_t* out);

}  // namespace tcpu::transformer

#endif  // TCPU_KERNELS_TRANSFORMER_LAYER_EMBEDDING_ROWS_H_
