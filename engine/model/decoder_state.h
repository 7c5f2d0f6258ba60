// What a tcpu_decoder holds: the loaded Model, shared by every sibling decoder opened over it
// (tcpu_decoder_open_sibling), and its own KV cache, logits and workspaces, all allocated at
// open. Internal to decoder.cc and decoder_batch.cc.
#ifndef TCPU_ENGINE_MODEL_DECODER_STATE_H_
#define TCPU_ENGINE_MODEL_DECODER_STATE_H_

#include <cstdint>
#include <memory>

#include "engine/model/model.h"
#include "tcpu/decoder.h"

struct tcpu_decoder {
  std::shared_ptr<const tcpu::model::Model> model;
  int64_t max_tokens = 0;
  int64_t position = 0;
  // rows_workspace: batched prefill and tcpu_decoder_step_batch (rows.h).
  tcpu::model::AlignedBuffer k_cache, v_cache, workspace, logits, rows_workspace;
};

namespace tcpu::model {

// The model `decoder` runs (shared by its siblings): decoders with the same one can step
// together in tcpu_decoder_step_batch.
const Model* ModelOf(const tcpu_decoder* decoder);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_DECODER_STATE_H_
