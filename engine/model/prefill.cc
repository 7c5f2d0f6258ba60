// Prefill (prefill.h): the prompt in blocks of up to kPrefillBlock tokens, each block one
// RunRows pass as one sequence, then the last token's logits.
#include "engine/model/prefill.h"

#include "runtime/greedy.h"
#include "tcpu/status.h"

namespace tcpu::model {

int Prefill(const tcpu_model_weights& m, uint16_t* k_cache, uint16_t* v_cache,
            int64_t cache_capacity, int64_t position, const int32_t* tokens, int64_t n,
            float* logits, int32_t* next_token, uint8_t* ws) {
  for (int64_t start = 0; start < n; start += kPrefillBlock) {
    const int64_t rows = n - start < kPrefillBlock ? n - start : kPrefillBlock;
    RowCache block;
    block.k_cache = k_cache;
    block.v_cache = v_cache;
    block.capacity = cache_capacity;
    block.position = position + start;
    if (int st = RunRows(m, tokens + start, &block, rows, RowAttention::kOneSequence, ws);
        st != TCPU_OK) {
      return st;
    }
    if (start + rows == n) {  // the last token's logits
      if (int st = RowLogits(m, rows - 1, 1, ws, logits); st != TCPU_OK) return st;
      *next_token = GreedyToken(logits, m.vocab_size);
    }
  }
  return TCPU_OK;
}

}  // namespace tcpu::model
