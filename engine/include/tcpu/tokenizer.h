/* Text to token ids and back, as Hugging Face `tokenizers` does it, from a model's
 * tokenizer.json (+ tokenizer_config.json beside it for BOS/EOS and add_bos_token).
 * Supported: BPE models, byte-level (GPT-2, Llama 3, Qwen2/3: regex Split + ByteLevel, NFC)
 * and SentencePiece-style (Llama 2, Mistral, MiniCPM: Metaspace or Prepend/Replace "▁",
 * byte fallback). Added and special tokens are split out of the text before anything else.
 *
 * Every function returns TCPU_OK or a negative tcpu_status; tcpu_last_error_detail() names
 * what was wrong (the JSON field, the byte offset of invalid UTF-8, the unknown id). A
 * tokenizer is immutable after open: encode and decode may run on several threads at once. */
#ifndef TCPU_TOKENIZER_H_
#define TCPU_TOKENIZER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcpu_tokenizer tcpu_tokenizer;

/* Loads `path`: a tokenizer.json file, or a directory that holds one. tokenizer_config.json
 * in the same directory is read when present. A GGUF file (one that starts with "GGUF", e.g.
 * the model's own .gguf) is read from its `tokenizer.ggml.*` metadata instead: `gpt2`
 * (byte-level BPE) and `llama` (SentencePiece-style BPE) tokenizers. Errors:
 * TCPU_ERR_NULL_POINTER, TCPU_ERR_IO (cannot read the file), TCPU_ERR_INVALID_MODEL (malformed
 * JSON or GGUF, or an unsupported model, normalizer, pre-tokenizer or decoder; the detail
 * names the field or GGUF key), TCPU_ERR_OUT_OF_MEMORY. */
int tcpu_tokenizer_open(const char* path, tcpu_tokenizer** tokenizer);

void tcpu_tokenizer_close(tcpu_tokenizer* tokenizer);

typedef struct tcpu_tokenizer_info {
  int64_t vocab_size; /* one more than the largest id (model vocabulary and added tokens) */
  int32_t bos_id;     /* -1 when the tokenizer has no BOS token */
  int32_t eos_id;     /* -1 when the tokenizer has no EOS token */
} tcpu_tokenizer_info;

int tcpu_tokenizer_get_info(const tcpu_tokenizer* tokenizer, tcpu_tokenizer_info* info);

/* Encodes `text_bytes` bytes of UTF-8 `text` into ids[0 .. *n_ids). add_special_tokens != 0
 * adds what the post-processor (or add_bos_token/add_eos_token) asks for, e.g. BOS.
 * When `capacity` is too small, returns TCPU_ERR_BUFFER_TOO_SMALL with *n_ids set to the
 * count needed (ids may be NULL with capacity 0 to ask for it). Invalid UTF-8 gives
 * TCPU_ERR_INVALID_ARGUMENT naming the byte offset. */
int tcpu_tokenizer_encode(const tcpu_tokenizer* tokenizer, const char* text, int64_t text_bytes,
                          int add_special_tokens, int32_t* ids, int64_t capacity, int64_t* n_ids);

/* Decodes ids[0 .. n_ids) into UTF-8 text[0 .. *text_bytes) followed by a NUL (so capacity
 * must be at least *text_bytes + 1). skip_special_tokens != 0 leaves special tokens out.
 * Byte sequences that do not form UTF-8 become U+FFFD, as in Hugging Face tokenizers.
 * When `capacity` is too small, returns TCPU_ERR_BUFFER_TOO_SMALL with *text_bytes set to
 * the length needed (without the NUL). An id outside the vocabulary gives
 * TCPU_ERR_INVALID_ARGUMENT naming it. */
int tcpu_tokenizer_decode(const tcpu_tokenizer* tokenizer, const int32_t* ids, int64_t n_ids,
                          int skip_special_tokens, char* text, int64_t capacity,
                          int64_t* text_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TOKENIZER_H_ */
