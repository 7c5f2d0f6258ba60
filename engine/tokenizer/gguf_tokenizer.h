// A tokenizer from a GGUF file's metadata (llama.cpp's `tokenizer.ggml.*` keys), expressed as
// the tokenizer.json and tokenizer_config.json documents the tokenizer engine loads
// (Tokenizer::LoadParsed), so one engine runs both formats:
// - `tokenizer.ggml.model` = "gpt2": byte-level BPE from `tokens` and `merges`, the
//   pre-tokenizer regex chosen by `tokenizer.ggml.pre` (gpt-2/default, qwen2, llama-bpe);
// - "llama": SentencePiece-style BPE (`▁` for spaces, byte fallback to `<0xNN>` pieces) from
//   `tokens` and `scores`, the merges ranked by the score of the piece they make (as
//   transformers' SentencePiece converter ranks them), or `merges` when the file has them;
//   `add_space_prefix` (default true) prepends `▁`.
// Tokens of type CONTROL (3) become special added tokens and USER_DEFINED (4) plain added
// tokens (llama: UNKNOWN (2) too); `bos_token_id`, `eos_token_id`, `unknown_token_id`,
// `add_bos_token` and `add_eos_token` (defaults: llama true / false, gpt2 false / false) fill
// the config. Every error names the key, and the token index where one is wrong.
#ifndef TCPU_ENGINE_TOKENIZER_GGUF_TOKENIZER_H_
#define TCPU_ENGINE_TOKENIZER_GGUF_TOKENIZER_H_

#include <string>

#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

// `name` labels errors ("model.gguf: metadata key 'tokenizer.ggml.merges' is missing").
bool TokenizerJsonFromGguf(const gguf::GgufFile& file, const std::string& name, Json* tokenizer,
                           Json* config, std::string* error);

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_GGUF_TOKENIZER_H_
