#include "kernels/transformer_layer/embedding_rows.h"

#include <cstring>

#include "tcpu/bf16.h"
#include "tcpu/fp16.h"

namespace tcpu::transformer {
namespace {

inline float BlockScale(const uint8_t* block) {
  uint16_t d;
  std::memcpy(&d, block, 2);
  return tcpu_f16_to_f32(d);
}

}  // namespace

// Straight loops over a block (no calls, no branches) so the compiler vectorizes them: the
// engine also converts whole tables with these (an int8 lm_head from Q4_0 blocks).
void Q4_0ToBf16(const uint8_t* blocks, int64_t values, uint16_t* out) {
  constexpr int64_t kHalf = kEmbeddingBlock / 2;
  for (int64_t b = 0; b < values / kEmbeddingBlock;
       ++b, blocks += kQ4_0BlockBytes, out += kEmbeddingBlock) {
    const float d = BlockScale(blocks);
    float v[kEmbeddingBlock];
    for (int64_t i = 0; i < kHalf; ++i) {
      v[i] = d * static_cast<float>((blocks[2 + i] & 0x0f) - 8);
      v[i + kHalf] = d * static_cast<float>((blocks[2 + i] >> 4) - 8);
    }
    for (int64_t i = 0; i < kEmbeddingBlock; ++i) out[i] = tcpu_f32_to_bf16(v[i]);
  }
}

void Q8_0ToBf16(const uint8_t* blocks, int64_t values, uint16_t* out) {
  for (int64_t b = 0; b < values / kEmbeddingBlock;
       ++b, blocks += kQ8_0BlockBytes, out += kEmbeddingBlock) {
    const float d = BlockScale(blocks);
    float v[kEmbeddingBlock];
    for (int64_t i = 0; i < kEmbeddingBlock; ++i) {
      v[i] = d * static_cast<float>(static_cast<int8_t>(blocks[2 + i]));
    }
    for (int64_t i = 0; i < kEmbeddingBlock; ++i) out[i] = tcpu_f32_to_bf16(v[i]);
  }
}

}  // namespace tcpu::transformer
