// tcpu_decoder_step_batch: one token for each of n sibling decoders, as rows of one RunRows
// pass (rows.h: every linear layer one GEMM over the rows, attention per row on its own KV
// cache), then the lm_head over kLogitRows rows at a time. Everything is checked before any
// cache is written, and the positions advance only when the whole batch succeeded.
#include <cstring>

#include "engine/common/c_boundary.h"
#include "engine/model/decoder_state.h"
#include "engine/model/rows.h"
#include "runtime/check.h"
#include "runtime/greedy.h"
#include "tcpu/decoder.h"

namespace {

constexpr const char* kFn = "tcpu_decoder_step_batch";

int CheckBatch(tcpu_decoder* const* decoders, int64_t n, const int32_t* tokens,
               const int32_t* next_tokens) {
  TCPU_CHECK_NOT_NULL(kFn, decoders);
  TCPU_CHECK_NOT_NULL(kFn, tokens);
  TCPU_CHECK_NOT_NULL(kFn, next_tokens);
  TCPU_CHECK_POSITIVE(kFn, n);
  for (int64_t i = 0; i < n; ++i) {
    const tcpu_decoder* d = decoders[i];
    const long long index = static_cast<long long>(i);
    if (d == nullptr)
      return tcpu::Fail(TCPU_ERR_NULL_POINTER, "%s: decoders[%lld] is NULL", kFn, index);
    for (int64_t j = 0; j < i; ++j) {
      if (decoders[j] == d) {
        return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                          "%s: decoders[%lld] is decoders[%lld] again (each decoder steps once)",
                          kFn, index, static_cast<long long>(j));
      }
    }
    if (d->model != decoders[0]->model) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: decoders[%lld] runs another model than decoders[0] (open the "
                        "decoders of a batch with tcpu_decoder_open_sibling)",
                        kFn, index);
    }
    const int64_t vocab = d->model->weights().vocab_size;
    if (tokens[i] < 0 || tokens[i] >= vocab) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: tokens[%lld] = %d is outside the vocabulary [0, %lld)", kFn, index,
                        tokens[i], static_cast<long long>(vocab));
    }
    if (d->position >= d->max_tokens) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: the KV cache of decoders[%lld] is full (%lld tokens)", kFn, index,
                        static_cast<long long>(d->max_tokens));
    }
  }
  return TCPU_OK;
}

// Rows [first, first + rows) of the batch (rows <= kRowBlock) through the model, logits and
// greedy tokens out; the workspace is the first row's decoder's.
int StepRows(tcpu_decoder* const* decoders, int64_t first, int64_t rows, const int32_t* tokens,
             float* const* logits, int32_t* next_tokens) {
  namespace tm = tcpu::model;
  const tcpu_model_weights& m = decoders[first]->model->weights();
  uint8_t* ws = decoders[first]->rows_workspace.data();
  tm::RowCache caches[tm::kRowBlock];
  for (int64_t t = 0; t < rows; ++t) {
    tcpu_decoder* d = decoders[first + t];
    caches[t].k_cache = reinterpret_cast<uint16_t*>(d->k_cache.data());
    caches[t].v_cache = reinterpret_cast<uint16_t*>(d->v_cache.data());
    caches[t].capacity = d->max_tokens;
    caches[t].position = d->position;
  }
  if (int s = tm::RunRows(m, tokens + first, caches, rows, tm::RowAttention::kIndependent, ws);
      s != TCPU_OK) {
    return s;
  }
  float* buffer = tm::RowLogitsBuffer(m, ws);
  const size_t row_bytes = static_cast<size_t>(m.vocab_size) * sizeof(float);
  for (int64_t start = 0; start < rows; start += tm::kLogitRows) {
    const int64_t count = rows - start < tm::kLogitRows ? rows - start : tm::kLogitRows;
    if (int s = tm::RowLogits(m, start, count, ws, buffer); s != TCPU_OK) return s;
    for (int64_t r = 0; r < count; ++r) {
      const int64_t i = first + start + r;
      const float* row = buffer + r * m.vocab_size;
      float* out = logits != nullptr && logits[i] != nullptr
                       ? logits[i]
                       : reinterpret_cast<float*>(decoders[i]->logits.data());
      std::memcpy(out, row, row_bytes);
      next_tokens[i] = tcpu::GreedyToken(row, m.vocab_size);
    }
  }
  return TCPU_OK;
}

}  // namespace

extern "C" int tcpu_decoder_step_batch(tcpu_decoder* const* decoders, int64_t n,
                                       const int32_t* tokens, float* const* logits,
                                       int32_t* next_tokens) {
  return tcpu::engine::Guarded(kFn, [&] {
    if (int s = CheckBatch(decoders, n, tokens, next_tokens); s != TCPU_OK) return s;
    for (int64_t first = 0; first < n; first += tcpu::model::kRowBlock) {
      const int64_t rows = n - first < tcpu::model::kRowBlock ? n - first : tcpu::model::kRowBlock;
      if (int s = StepRows(decoders, first, rows, tokens, logits, next_tokens); s != TCPU_OK) {
        return s;
      }
    }
    for (int64_t i = 0; i < n; ++i) ++decoders[i]->position;
    return tcpu::Succeed();
  });
}
