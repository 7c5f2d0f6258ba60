// Batched prefill: a block of prompt tokens through the model with every linear layer as one
// GEMM instead of one GEMV per token, over the rows mechanism of rows.h (the block's rows are
// one sequence: consecutive positions of one KV cache, attention as one causal call), so the
// logits and the KV cache are bit-identical to feeding the tokens one by one (tested).
#ifndef TCPU_ENGINE_MODEL_PREFILL_H_
#define TCPU_ENGINE_MODEL_PREFILL_H_

#include <cstdint>

#include "engine/model/rows.h"
#include "tcpu/transformer.h"

namespace tcpu::model {

// Tokens per GEMM (rows.h's block).
inline constexpr int64_t kPrefillBlock = kRowBlock;

// Workspace bytes Prefill needs for `model` (64-byte aligned slots), or a negative tcpu_status.
inline int64_t PrefillWorkspaceSize(const tcpu_model_weights& model) {
  return RowsWorkspaceSize(model);
}

// Scratch the GEMMs take from the calling thread's arena (tcpu_scratch_reserve it at open).
inline int64_t PrefillGemmScratchSize(const tcpu_model_weights& model) {
  return RowsGemmScratchSize(model);
}

// Runs tokens[0, n) at positions [position, position + n) (checked by the caller: tokens in
// the vocabulary, position + n <= cache_capacity); the last token's logits (fp32, vocab_size)
// go to `logits` and its greedy choice to *next_token. Returns a tcpu_status.
int Prefill(const tcpu_model_weights& model, uint16_t* k_cache, uint16_t* v_cache,
            int64_t cache_capacity, int64_t position, const int32_t* tokens, int64_t n,
            float* logits, int32_t* next_token, uint8_t* workspace);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_PREFILL_H_
