// Test data: a Hugging Face tokenizer (tokenizer.json + tokenizer_config.json) as the
// `tokenizer.ggml.*` metadata llama.cpp's converter writes, into a GGUF file of its own:
// tokens in id order (gaps as `[PADi]`, type UNUSED), token types (special added tokens
// CONTROL, other added tokens USER_DEFINED, `<0xNN>` BYTE and the unknown token UNKNOWN for
// SentencePiece vocabularies, else NORMAL), BOS/EOS ids and add-BOS/EOS flags from the config.
// gpt2: the merges as "left right" strings and `tokenizer.ggml.pre`. llama: scores in the
// order of the SentencePiece model the merges were made from (a piece scores minus the rank of
// the first merge that makes it; pieces no merge makes -1e9), and the merges only when asked.
#ifndef TCPU_ENGINE_TOKENIZER_TESTS_GGUF_FROM_TOKENIZER_JSON_H_
#define TCPU_ENGINE_TOKENIZER_TESTS_GGUF_FROM_TOKENIZER_JSON_H_

#include <string>

#include "engine/gguf/gguf_writer.h"

namespace tcpu::testing {

struct TokenizerExport {
  std::string model;  // "gpt2" or "llama"
  std::string pre;    // gpt2: tokenizer.ggml.pre
  bool llama_merges = false;
};

// Reads `tokenizer_json` and the tokenizer_config.json beside it and adds their metadata to
// *writer. False with *error saying what failed.
bool AddGgufTokenizer(const std::string& tokenizer_json, const TokenizerExport& options,
                      gguf::GgufWriter* writer, std::string* error);

// A GGUF file of the tokenizer's metadata alone, at `path`.
bool WriteGgufTokenizer(const std::string& tokenizer_json, const std::string& path,
                        const TokenizerExport& options, std::string* error);

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_TOKENIZER_TESTS_GGUF_FROM_TOKENIZER_JSON_H_
