/* The decode engine: load a Hugging Face checkpoint directory (config.json and
 * model.safetensors or sharded model-0000i-of-0000n.safetensors with
 * model.safetensors.index.json; BF16, F16 or F32 weights) or a GGUF file (llama, qwen2 or
 * qwen3; F32, F16, BF16, Q8_0 or Q4_0 tensors), quantize and pack its linear weights once
 * (int8 or int4) — or map them from a pre-quantized checkpoint (tcpu/quantize_checkpoint.h)
 * — then decode token by token on tcpu_decode_step. */
#ifndef TCPU_DECODER_H_
#define TCPU_DECODER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcpu_decoder tcpu_decoder;

/* Loads `model` — a checkpoint directory, or a GGUF file (a path ending in .gguf, or any path
 * that is not a directory) — with room for `max_tokens` positions (prompt plus generated; at
 * most the config's max_position_embeddings, a GGUF file's `<arch>.context_length`).
 * Errors: TCPU_ERR_IO (a file cannot be read), TCPU_ERR_INVALID_MODEL (malformed or
 * unsupported model: the detail names the file, tensor and config field or GGUF metadata
 * key), TCPU_ERR_INVALID_ARGUMENT (max_tokens), TCPU_ERR_OUT_OF_MEMORY. */
int tcpu_decoder_open(const char* model, int64_t max_tokens, tcpu_decoder** decoder);

/* How the linear weights (attention, MLP, lm_head) are quantized at load. A pre-quantized
 * checkpoint is opened with the format it holds (another is TCPU_ERR_INVALID_ARGUMENT). */
typedef enum tcpu_weight_format {
  /* W8A8: per output channel, absmax / 127 (tcpu/gemv.h); ~1 byte per weight. */
  TCPU_WEIGHTS_INT8 = 0,
  /* W4A8: groups of 32 along k, one fp16 scale each (tcpu/gemv_q4.h: Q4_0's numbers; a GGUF
   * Q4_0 tensor is used as it is); 0.5625 bytes per weight.
   * Activations are int8 exactly as for TCPU_WEIGHTS_INT8. */
  TCPU_WEIGHTS_INT4 = 1
} tcpu_weight_format;

typedef struct tcpu_decoder_options {
  int32_t weights; /* a tcpu_weight_format */
} tcpu_decoder_options;

/* tcpu_decoder_open with options (NULL: the defaults, all-zero fields: TCPU_WEIGHTS_INT8).
 * An unknown options->weights is TCPU_ERR_INVALID_ARGUMENT naming the value, before any
 * file is read. */
int tcpu_decoder_open_with_options(const char* model, int64_t max_tokens,
                                   const tcpu_decoder_options* options, tcpu_decoder** decoder);

void tcpu_decoder_close(tcpu_decoder* decoder);

/* A decoder with its own KV cache (room for `max_tokens` positions, at most the model's
 * limit) and step workspace over the model `base` holds: no file is read, no weight copied.
 * The model stays alive while any decoder opened over it does (`base` may be closed first).
 * Decoders over one model can step together (tcpu_decoder_step_batch). Errors:
 * TCPU_ERR_NULL_POINTER, TCPU_ERR_INVALID_ARGUMENT (max_tokens), TCPU_ERR_OUT_OF_MEMORY. */
int tcpu_decoder_open_sibling(const tcpu_decoder* base, int64_t max_tokens,
                              tcpu_decoder** decoder);

typedef struct tcpu_decoder_info {
  int64_t vocab_size;
  int64_t hidden_size;
  int64_t num_layers;
  int64_t max_tokens;
  int64_t position;               /* tokens consumed so far */
  int64_t weight_bytes_per_token; /* bytes of weights one step reads */
} tcpu_decoder_info;

int tcpu_decoder_get_info(const tcpu_decoder* decoder, tcpu_decoder_info* info);

/* Feeds `token` at the next position. logits: NULL or [vocab_size] fp32 out. next_token:
 * the greedy choice. TCPU_ERR_INVALID_ARGUMENT when the cache is full or token is out of
 * range (nothing changes then). */
int tcpu_decoder_step(tcpu_decoder* decoder, int32_t token, float* logits, int32_t* next_token);

/* Feeds tokens[0, n) at the next n positions (a prompt) in blocks of 64 through the INT8 or
 * INT4 GEMM (SMMLA on i8mm CPUs, SDOT on dotprod, NEON otherwise): each token's activations are
 * quantized on their own as tcpu_decoder_step does, so the KV cache, last_logits and *next_token
 * are bit-identical to n tcpu_decoder_step calls, at a fraction of the instructions. last_logits:
 * NULL or [vocab_size] fp32 out (the last token's); next_token: its greedy choice. Allocates
 * nothing (the workspace is sized at open, and the GEMM scratch reserved in the opening
 * thread's arena). TCPU_ERR_INVALID_ARGUMENT when the tokens do not fit the KV cache or one is
 * out of range (nothing changes then). */
int tcpu_decoder_prefill(tcpu_decoder* decoder, const int32_t* tokens, int64_t n,
                         float* last_logits, int32_t* next_token);

/* One step of n decoders together: tokens[i] is fed to decoders[i] at its own next position.
 * The decoders must be distinct and over one model (tcpu_decoder_open_sibling); every linear
 * layer runs as one GEMM with n rows (the weights are read once for all of them) and attention
 * per decoder on its own KV cache. The logits and next tokens are bit-identical to calling
 * tcpu_decoder_step on each decoder in turn. logits: NULL, or n pointers each NULL or
 * [vocab_size] fp32 out; next_tokens: [n] out. Everything is checked first (n > 0, pointers,
 * distinct decoders of one model, tokens in the vocabulary, room in each KV cache): a refused
 * call changes nothing, and the detail names the offending index. */
int tcpu_decoder_step_batch(tcpu_decoder* const* decoders, int64_t n, const int32_t* tokens,
                            float* const* logits, int32_t* next_tokens);

/* Forgets all tokens (position 0). */
int tcpu_decoder_reset(tcpu_decoder* decoder);

/* Forgets the tokens from `position` on and keeps the KV cache before it: the next token goes
 * at `position` (0 <= position <= the current position; 0 is tcpu_decoder_reset). A
 * conversation whose text changes after a common prefix is fed again from there only.
 * TCPU_ERR_INVALID_ARGUMENT outside that range (nothing changes then). */
int tcpu_decoder_truncate(tcpu_decoder* decoder, int64_t position);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_DECODER_H_ */
