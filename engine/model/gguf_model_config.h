// ModelConfig from the metadata of a GGUF file (llama.cpp's keys): `general.architecture`
// (llama, qwen2, qwen3 or minicpm) and its `<arch>.*` sizes, the vocabulary size from the token
// list, tied embeddings from the absence of `output.weight`, attention biases from the presence
// of `blk.0.attn_q.bias`, RoPE from `<arch>.rope.freq_base`, `<arch>.rope.scaling.*` and the
// `rope_freqs.weight` factors (Llama 3) or `rope_factors_long/short.weight` (LongRoPE), and
// MiniCPM's muP from `minicpm.embedding_scale`, `.residual_scale`, `.logit_scale`. The values go
// through the same checks as config.json (model_config.h); every error names the GGUF key or
// tensor.
#ifndef TCPU_ENGINE_MODEL_GGUF_MODEL_CONFIG_H_
#define TCPU_ENGINE_MODEL_GGUF_MODEL_CONFIG_H_

#include <string>

#include "engine/gguf/gguf_reader.h"
#include "engine/model/model_config.h"

namespace tcpu::model {

// `name` labels errors ("model.gguf: key 'llama.block_count' is missing").
bool ModelConfigFromGguf(const gguf::GgufFile& file, const std::string& name, ModelConfig* config,
                         std::string* error);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_GGUF_MODEL_CONFIG_H_
