// tcpu_decoder_*: a loaded Model (shared with sibling decoders) plus its KV cache, logits and
// step workspace, all allocated once at open; each step runs tcpu_decode_step on them.
// tcpu_decoder_step_batch is decoder_batch.cc.
#include "tcpu/decoder.h"

#include <memory>
#include <new>
#include <utility>

#include "engine/common/c_boundary.h"
#include "engine/model/decoder_state.h"
#include "engine/model/model.h"
#include "engine/model/prefill.h"
#include "runtime/check.h"
#include "tcpu/scratch.h"
#include "tcpu/transformer.h"

namespace {

// Checks max_tokens against d's model and allocates d's KV cache and workspaces.
int AllocateState(const char* fn, int64_t max_tokens, tcpu_decoder* d) {
  const tcpu::model::ModelConfig& c = d->model->config();
  if (max_tokens > c.max_position_embeddings) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: max_tokens = %lld exceeds the model's %s = %lld", fn,
                      static_cast<long long>(max_tokens), c.max_positions_key.c_str(),
                      static_cast<long long>(c.max_position_embeddings));
  }
  const tcpu_model_weights& w = d->model->weights();
  int64_t cache_elems = 0;
  TCPU_CHECK_MUL(fn, w.num_layers * w.shape.num_kv_heads * w.shape.head_dim, max_tokens,
                 &cache_elems);
  const int64_t workspace = tcpu_decode_step_workspace_size(&w);
  if (workspace < 0) return static_cast<int>(workspace);
  const int64_t rows_workspace = tcpu::model::RowsWorkspaceSize(w);
  if (rows_workspace < 0) return static_cast<int>(rows_workspace);
  const int64_t gemm_scratch = tcpu::model::RowsGemmScratchSize(w);
  if (gemm_scratch < 0) return static_cast<int>(gemm_scratch);
  if (cache_elems > INT64_MAX / 2 || !d->k_cache.Allocate(2 * cache_elems) ||
      !d->v_cache.Allocate(2 * cache_elems) || !d->workspace.Allocate(workspace) ||
      !d->logits.Allocate(4 * w.vocab_size) || !d->rows_workspace.Allocate(rows_workspace)) {
    return tcpu::Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: cannot allocate the KV cache for %lld tokens",
                      fn, static_cast<long long>(max_tokens));
  }
  // The batched GEMMs' packed activations come from this thread's arena: reserved now.
  if (int s = tcpu_scratch_reserve(gemm_scratch); s != TCPU_OK) return s;
  d->max_tokens = max_tokens;
  return TCPU_OK;
}

int OpenDecoder(const char* fn, const char* model_dir, int64_t max_tokens,
                const tcpu_decoder_options* options, tcpu_decoder** decoder) {
  TCPU_CHECK_NOT_NULL(fn, model_dir);
  TCPU_CHECK_NOT_NULL(fn, decoder);
  *decoder = nullptr;
  TCPU_CHECK_POSITIVE(fn, max_tokens);
  tcpu::model::WeightFormat format;
  if (int s = tcpu::model::WeightFormatFromC(
          fn, "options->weights", options != nullptr ? options->weights : TCPU_WEIGHTS_INT8,
          &format);
      s != TCPU_OK) {
    return s;
  }
  auto d = std::unique_ptr<tcpu_decoder>(new (std::nothrow) tcpu_decoder());
  if (d == nullptr) return tcpu::Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
  std::unique_ptr<tcpu::model::Model> model;
  if (int s = tcpu::model::Model::Load(model_dir, format, &model); s != TCPU_OK) return s;
  d->model = std::move(model);
  if (int s = AllocateState(fn, max_tokens, d.get()); s != TCPU_OK) return s;
  *decoder = d.release();
  return TCPU_OK;
}

// Runs OpenDecoder so that nothing throws out of the C ABI.
int OpenDecoderNoThrow(const char* fn, const char* model_dir, int64_t max_tokens,
                       const tcpu_decoder_options* options, tcpu_decoder** decoder) {
  const int status = tcpu::engine::Guarded(
      fn, [&] { return OpenDecoder(fn, model_dir, max_tokens, options, decoder); },
      TCPU_ERR_INVALID_MODEL);
  return status != TCPU_OK ? status : tcpu::Succeed();
}

}  // namespace

namespace tcpu::model {

const Model* ModelOf(const tcpu_decoder* decoder) { return decoder->model.get(); }

}  // namespace tcpu::model

extern "C" int tcpu_decoder_open(const char* model_dir, int64_t max_tokens,
                                 tcpu_decoder** decoder) {
  return OpenDecoderNoThrow("tcpu_decoder_open", model_dir, max_tokens, nullptr, decoder);
}

extern "C" int tcpu_decoder_open_with_options(const char* model_dir, int64_t max_tokens,
                                              const tcpu_decoder_options* options,
                                              tcpu_decoder** decoder) {
  return OpenDecoderNoThrow("tcpu_decoder_open_with_options", model_dir, max_tokens, options,
                            decoder);
}

extern "C" int tcpu_decoder_open_sibling(const tcpu_decoder* base, int64_t max_tokens,
                                         tcpu_decoder** decoder) {
  constexpr const char* kFn = "tcpu_decoder_open_sibling";
  TCPU_CHECK_NOT_NULL(kFn, decoder);
  *decoder = nullptr;
  TCPU_CHECK_NOT_NULL(kFn, base);
  TCPU_CHECK_POSITIVE(kFn, max_tokens);
  return tcpu::engine::Guarded(kFn, [&] {
    auto d = std::make_unique<tcpu_decoder>();
    d->model = base->model;  // shared: no file read, no weight copied
    if (int s = AllocateState(kFn, max_tokens, d.get()); s != TCPU_OK) return s;
    *decoder = d.release();
    return tcpu::Succeed();
  });
}

extern "C" void tcpu_decoder_close(tcpu_decoder* decoder) { delete decoder; }

extern "C" int tcpu_decoder_get_info(const tcpu_decoder* decoder, tcpu_decoder_info* info) {
  constexpr const char* kFn = "tcpu_decoder_get_info";
  TCPU_CHECK_NOT_NULL(kFn, decoder);
  TCPU_CHECK_NOT_NULL(kFn, info);
  const tcpu_model_weights& w = decoder->model->weights();
  info->vocab_size = w.vocab_size;
  info->hidden_size = w.shape.hidden;
  info->num_layers = w.num_layers;
  info->max_tokens = decoder->max_tokens;
  info->position = decoder->position;
  info->weight_bytes_per_token = decoder->model->weight_bytes_per_token();
  return tcpu::Succeed();
}

extern "C" int tcpu_decoder_step(tcpu_decoder* decoder, int32_t token, float* logits,
                                 int32_t* next_token) {
  constexpr const char* kFn = "tcpu_decoder_step";
  TCPU_CHECK_NOT_NULL(kFn, decoder);
  TCPU_CHECK_NOT_NULL(kFn, next_token);
  if (decoder->position >= decoder->max_tokens) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: the KV cache is full (%lld tokens)", kFn,
                      static_cast<long long>(decoder->max_tokens));
  }
  float* out = logits != nullptr ? logits : reinterpret_cast<float*>(decoder->logits.data());
  if (int s = tcpu_decode_step(&decoder->model->weights(),
                               reinterpret_cast<uint16_t*>(decoder->k_cache.data()),
                               reinterpret_cast<uint16_t*>(decoder->v_cache.data()),
                               decoder->max_tokens, decoder->position, token, out, next_token,
                               decoder->workspace.data(), decoder->workspace.size());
      s != TCPU_OK) {
    return s;
  }
  ++decoder->position;
  return TCPU_OK;
}

extern "C" int tcpu_decoder_reset(tcpu_decoder* decoder) {
  TCPU_CHECK_NOT_NULL("tcpu_decoder_reset", decoder);
  decoder->position = 0;
  return tcpu::Succeed();
}

extern "C" int tcpu_decoder_truncate(tcpu_decoder* decoder, int64_t position) {
  TCPU_CHECK_NOT_NULL("tcpu_decoder_truncate", decoder);
  if (position < 0 || position > decoder->position) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "tcpu_decoder_truncate: position = %lld is outside [0, %lld] (the tokens "
                      "consumed so far)",
                      static_cast<long long>(position), static_cast<long long>(decoder->position));
  }
  decoder->position = position;
  return tcpu::Succeed();
}

extern "C" int tcpu_decoder_prefill(tcpu_decoder* decoder, const int32_t* tokens, int64_t n,
                                    float* last_logits, int32_t* next_token) {
  constexpr const char* kFn = "tcpu_decoder_prefill";
  TCPU_CHECK_NOT_NULL(kFn, decoder);
  TCPU_CHECK_NOT_NULL(kFn, tokens);
  TCPU_CHECK_NOT_NULL(kFn, next_token);
  TCPU_CHECK_POSITIVE(kFn, n);
  if (n > decoder->max_tokens - decoder->position) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: n = %lld tokens at position %lld do not fit the KV cache (%lld tokens)",
                      kFn, static_cast<long long>(n), static_cast<long long>(decoder->position),
                      static_cast<long long>(decoder->max_tokens));
  }
  const tcpu_model_weights& w = decoder->model->weights();
  for (int64_t i = 0; i < n; ++i) {  // all checked first: a refused call changes nothing
    if (tokens[i] < 0 || tokens[i] >= w.vocab_size) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: tokens[%lld] = %d is outside the vocabulary [0, %lld)", kFn,
                        static_cast<long long>(i), tokens[i], static_cast<long long>(w.vocab_size));
    }
  }
  float* out =
      last_logits != nullptr ? last_logits : reinterpret_cast<float*>(decoder->logits.data());
  if (int s = tcpu::model::Prefill(w, reinterpret_cast<uint16_t*>(decoder->k_cache.data()),
                                   reinterpret_cast<uint16_t*>(decoder->v_cache.data()),
                                   decoder->max_tokens, decoder->position, tokens, n, out,
                                   next_token, decoder->rows_workspace.data());
      s != TCPU_OK) {
    return s;
  }
  decoder->position += n;
  return tcpu::Succeed();
}
