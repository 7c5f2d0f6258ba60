// Batched prefill: a block of prompt tokens through the model with every linear layer as one
// GEMM (int8: tcpu_gemm_i8, int4: tcpu_gemm_w4a8; SMMLA on i8mm, SDOT on dotprod, NEON
// otherwise) instead of one GEMV per token. Each token's activation row is quantized on its own
// exactly as the decode step quantizes it, every row of the GEMM is the GEMV's own arithmetic
// (int32 sums are exact; int4 groups in the same order), the epilogues, norms, RoPE and
// residuals are the decode step's own functions per token, and attention is one causal call for
// the block (tcpu_flash_attn_prefill_bf16) that gives each token the bits of its decode call, so
// the logits and the KV cache are bit-identical to feeding the tokens one by one (tested).
#ifndef TCPU_ENGINE_MODEL_PREFILL_H_
#define TCPU_ENGINE_MODEL_PREFILL_H_

#include <cstdint>

#include "tcpu/transformer.h"

namespace tcpu::model {

// Tokens per GEMM: enough rows to fill the SMMLA tiles and reuse each weight tile many times,
// small enough that the block's activations stay in L2.
inline constexpr int64_t kPrefillBlock = 64;

// Workspace bytes Prefill needs for `model` (64-byte aligned slots), or a negative tcpu_status.
int64_t PrefillWorkspaceSize(const tcpu_model_weights& model);

// Scratch the GEMMs take from the calling thread's arena (tcpu_scratch_reserve it at open).
int64_t PrefillGemmScratchSize(const tcpu_model_weights& model);

// Runs tokens[0, n) at positions [position, position + n) (checked by the caller: tokens in
// the vocabulary, position + n <= cache_capacity); the last token's logits (fp32, vocab_size)
// go to `logits` and its greedy choice to *next_token. Returns a tcpu_status.
int Prefill(const tcpu_model_weights& model, uint16_t* k_cache, uint16_t* v_cache,
            int64_t cache_capacity, int64_t position, const int32_t* tokens, int64_t n,
            float* logits, int32_t* next_token, uint8_t* workspace);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_PREFILL_H_
