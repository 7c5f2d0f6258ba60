// A block of token rows through the model with every linear layer as one GEMM (int8:
// tcpu_gemm_i8, int4: tcpu_gemm_w4a8, block-Q8: tcpu_gemm_q8) instead of one GEMV per token,
// each row at its own position of its own KV cache: the mechanism under batched prefill (the
// rows are one sequence, consecutive positions of one cache) and tcpu_decoder_step_batch (each
// row another decoder). What keeps every row bit-identical to the decode step
// (tcpu_decode_step) of its token:
//   - a row is quantized by the GEMV kernel's own absmax and quantize functions (the all-zero
//     row gives scale 0 and zeros, so its outputs are 0 or the bias, as the GEMV's);
//   - every row of a GEMM is the GEMV's arithmetic, and the epilogue is the GEMV's: int8
//     y = bf16(float(acc) * s_x * s_w), int4 each row the arithmetic of tcpu/gemv_q4.h, then
//     bf16 (fp32 + bias, then bf16, with a bias);
//   - the norms, RoPE, SwiGLU and residuals are the decode step's own functions per row;
//   - attention runs after the rows' keys and values are in their caches: one sequence as one
//     tcpu_flash_attn_prefill_bf16 call (token t over positions [0, position_t], bit-identical
//     to its decode call), independent rows as one tcpu_flash_attn_decode_bf16 call each, the
//     decode step's own call.
#ifndef TCPU_ENGINE_MODEL_ROWS_H_
#define TCPU_ENGINE_MODEL_ROWS_H_

#include <cstdint>

#include "tcpu/transformer.h"

namespace tcpu::model {

// Rows per pass: enough to fill the SMMLA tiles and reuse each weight tile many times, small
// enough that the block's activations stay in L2.
inline constexpr int64_t kRowBlock = 64;

// Rows whose logits one RowLogits call computes (the lm_head read once for them): the
// workspace holds kLogitRows x vocab_size fp32 for them.
inline constexpr int64_t kLogitRows = 8;

// Where a row's token goes: its KV cache (bf16 [layers][kv_heads][capacity][head_dim] for k
// and v, as tcpu_decode_step takes them) and its position there.
struct RowCache {
  uint16_t* k_cache = nullptr;
  uint16_t* v_cache = nullptr;
  int64_t capacity = 0;
  int64_t position = 0;
};

// How the rows' attention runs.
enum class RowAttention {
  kOneSequence,  // rows are consecutive positions of caches[0]: one causal call
  kIndependent,  // each row its own cache and position: one decode call per row
};

// Workspace bytes RunRows and RowLogits need for `model` (64-byte aligned slots), or a negative
// tcpu_status.
int64_t RowsWorkspaceSize(const tcpu_model_weights& model);

// Scratch the GEMMs take from the calling thread's arena (tcpu_scratch_reserve it at open).
int64_t RowsGemmScratchSize(const tcpu_model_weights& model);

// Runs tokens[0, rows) (rows in [1, kRowBlock]), row t at caches[t] (kIndependent: `rows`
// entries; kOneSequence: caches[0], row t at its position + t), through every layer: each row's
// keys and values land in its cache, its final hidden state stays in the workspace for
// RowLogits. Everything is trusted (checked by the caller: tokens in the vocabulary, positions
// inside the caches). Returns a tcpu_status.
int RunRows(const tcpu_model_weights& model, const int32_t* tokens, const RowCache* caches,
            int64_t rows, RowAttention attention, uint8_t* workspace);

// The logits of rows [first, first + count) of the last RunRows (count in [1, kLogitRows]):
// final norm, the logit divisor and the lm_head as one GEMM, fp32 [count][vocab_size] into
// `logits` (which may be RowLogitsBuffer). Returns a tcpu_status.
int RowLogits(const tcpu_model_weights& model, int64_t first, int64_t count, uint8_t* workspace,
              float* logits);

// Room in the workspace for kLogitRows rows of logits, free while RowLogits runs.
float* RowLogitsBuffer(const tcpu_model_weights& model, uint8_t* workspace);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_ROWS_H_
