/* Text generation: a session over a decoder (tcpu/decoder.h), a tokenizer (tcpu/tokenizer.h)
 * and a sampler (tcpu/sampler.h), optionally a chat template (tcpu/chat_template.h). Each
 * call takes the whole context (text, ids, or a conversation rendered through the chat
 * template), reuses the KV cache of what the previous call left in the decoder as far as the
 * new context agrees with it (so a follow-up turn prefills only its new tokens, and an edited
 * context only what follows the edit), then samples
 * until a stop: an EOS id, a stop string, max_new_tokens, a full KV cache, or the callback
 * asking to stop. Text reaches the callback as pieces of valid UTF-8: a character whose bytes
 * span several tokens is held until complete, and text that may begin a stop string is held
 * until it cannot (a stop string itself is never delivered).
 *
 * Every function returns TCPU_OK or a negative tcpu_status; tcpu_last_error_detail() names
 * what was wrong. A session is used by one thread at a time; it does not own the decoder,
 * tokenizer, sampler or template, which must outlive it. */
#ifndef TCPU_GENERATE_H_
#define TCPU_GENERATE_H_

#include <stdint.h>

#include "tcpu/chat_template.h"
#include "tcpu/decoder.h"
#include "tcpu/sampler.h"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcpu_generate_session tcpu_generate_session;

/* Creates a session (it resets the decoder). tokenizer: NULL for a session of ids only (no
 * text reaches the callback, tcpu_generate_text and tcpu_generate_chat fail, and only the
 * generation config's and options' ids stop). sampler: NULL for greedy decoding (a default
 * tcpu_sampler the session owns), else one created with the decoder's vocab_size. chat_template:
 * NULL when tcpu_generate_chat will not be called. generation_config: NULL, or the path of a
 * model's generation_config.json (or of the directory holding it; a directory without one adds
 * nothing) whose eos_token_id (an int or a list) joins the tokenizer's EOS as stop ids. Errors:
 * TCPU_ERR_NULL_POINTER, TCPU_ERR_IO, TCPU_ERR_INVALID_MODEL (a malformed generation_config.json;
 * the detail names the field), TCPU_ERR_OUT_OF_MEMORY. */
int tcpu_generate_session_create(tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer,
                                 tcpu_sampler* sampler, const tcpu_chat_template* chat_template,
                                 const char* generation_config, tcpu_generate_session** session);

void tcpu_generate_session_destroy(tcpu_generate_session* session);

/* Receives each piece of generated text (valid UTF-8, text_bytes > 0, not NUL-terminated).
 * Returning nonzero cancels the generation after this piece. */
typedef int (*tcpu_generate_callback)(const char* text, int64_t text_bytes, void* user_data);

/* Receives the logits (vocab_size floats) after each token fed to the decoder during a call:
 * every context token not reused from the cache (the prefill then runs token by token rather
 * than batched; the logits are the same) and every generated token fed. Returning nonzero
 * cancels the generation (TCPU_STOP_CANCELLED). */
typedef int (*tcpu_generate_logits_callback)(const float* logits, int64_t vocab_size,
                                             void* user_data);

typedef struct tcpu_generate_options {
  int64_t max_new_tokens;          /* > 0; generation also ends when the KV cache is full */
  const char* const* stop_strings; /* n_stop_strings non-empty UTF-8 strings, or NULL */
  int64_t n_stop_strings;
  const int32_t* stop_ids; /* more ids that end the generation, or NULL */
  int64_t n_stop_ids;
  int32_t keep_special_tokens;     /* nonzero: special tokens appear in the text */
  int32_t add_special_tokens;      /* text input: nonzero adds what the tokenizer adds (BOS) */
  int32_t add_generation_prompt;   /* chat input: nonzero opens the assistant's turn */
  tcpu_generate_callback callback; /* NULL: the text is only counted */
  void* user_data;
  tcpu_generate_logits_callback logits_callback; /* NULL: none (the prefill is batched) */
  void* logits_user_data;
} tcpu_generate_options;

/* max_new_tokens 256, no stop strings or extra stop ids, special tokens skipped, BOS added,
 * generation prompt on, no callbacks. */
void tcpu_generate_default_options(tcpu_generate_options* options);

typedef enum tcpu_stop_reason {
  TCPU_STOP_EOS = 0,        /* an EOS or stop id was sampled (it is neither fed nor shown) */
  TCPU_STOP_STRING = 1,     /* a stop string appeared in the text */
  TCPU_STOP_MAX_TOKENS = 2, /* max_new_tokens tokens were generated */
  TCPU_STOP_CACHE_FULL = 3, /* the decoder's KV cache has no room for another token */
  TCPU_STOP_CANCELLED = 4   /* a callback returned nonzero */
} tcpu_stop_reason;

typedef struct tcpu_generate_stats {
  int64_t context_tokens;   /* tokens of this call's context (prompt) */
  int64_t reused_tokens;    /* of those, already in the KV cache from the previous call */
  int64_t prefill_tokens;   /* of those, fed this call (context_tokens - reused_tokens) */
  int64_t generated_tokens; /* sampled tokens, the stopping EOS not counted */
  int64_t text_bytes;       /* bytes delivered to the callback */
  double prefill_seconds;   /* tokenizing, rendering and prefill */
  double decode_seconds;    /* sampling, decoding steps and detokenizing */
  int32_t stop_reason;      /* a tcpu_stop_reason */
} tcpu_generate_stats;

/* Generates after `text` (text_bytes bytes of UTF-8), the whole context. stats: NULL or out.
 * Errors: TCPU_ERR_NULL_POINTER, TCPU_ERR_INVALID_ARGUMENT (invalid UTF-8, an empty context,
 * an option out of range, a context longer than the KV cache: the detail names it), and
 * what the decoder, tokenizer or sampler return. */
int tcpu_generate_text(tcpu_generate_session* session, const char* text, int64_t text_bytes,
                       const tcpu_generate_options* options, tcpu_generate_stats* stats);

/* Generates after ids[0 .. n_ids), the whole context. */
int tcpu_generate_ids(tcpu_generate_session* session, const int32_t* ids, int64_t n_ids,
                      const tcpu_generate_options* options, tcpu_generate_stats* stats);

/* Generates after the conversation messages[0 .. n_messages) rendered by the session's chat
 * template (TCPU_ERR_INVALID_ARGUMENT without one) and tokenized without added special
 * tokens (the template writes them). */
int tcpu_generate_chat(tcpu_generate_session* session, const tcpu_chat_message* messages,
                       int64_t n_messages, const tcpu_generate_options* options,
                       tcpu_generate_stats* stats);

/* Stepwise generation, for a caller that advances several sessions together (a server with
 * one session per conversation slot). tcpu_generate_begin_{text,ids,chat} do everything
 * tcpu_generate_{text,ids,chat} do before the first token is sampled (render, tokenize, reuse
 * the cached prefix, prefill) and copy the options (stop strings included; the callbacks and
 * user data are kept and called from tcpu_generate_step_batch). tcpu_generate_step_batch
 * advances each of n sessions, each with a generation begun and not finished, by one token:
 * samples it, delivers its text, checks the stops, and feeds the tokens of the sessions that go
 * on to their decoders in one tcpu_decoder_step_batch where the decoders share a model.
 * finished[i] (out, [n]) becomes 1 when session i's generation has ended.
 * tcpu_generate_finish ends a generation and fills stats (NULL or out); a generation that had
 * not ended is cancelled (TCPU_STOP_CANCELLED: a client that went away). tcpu_generate_text,
 * _ids and _chat are begin, step_batch on the one session until finished, finish: the same
 * tokens and text whether a session steps alone or with others (tested). A session that fails
 * a step ends its generation with that error; the other sessions of the batch are unharmed:
 * step_batch still returns TCPU_OK with finished[i] = 1, and tcpu_generate_finish returns the
 * error (its detail restored; stats filled up to the failure). A refused step_batch (the errors
 * below, the detail naming the index; also NULL, n <= 0, two sessions over one decoder)
 * changes nothing.
 * Errors as for tcpu_generate_text; TCPU_ERR_INVALID_ARGUMENT for a session with no
 * generation in progress (begin while one is in progress, step after it finished, a session
 * twice in one batch). */
int tcpu_generate_begin_text(tcpu_generate_session* session, const char* text,
                             int64_t text_bytes, const tcpu_generate_options* options);
int tcpu_generate_begin_ids(tcpu_generate_session* session, const int32_t* ids, int64_t n_ids,
                            const tcpu_generate_options* options);
int tcpu_generate_begin_chat(tcpu_generate_session* session, const tcpu_chat_message* messages,
                             int64_t n_messages, const tcpu_generate_options* options);
int tcpu_generate_step_batch(tcpu_generate_session* const* sessions, int64_t n,
                             int32_t* finished);
int tcpu_generate_finish(tcpu_generate_session* session, tcpu_generate_stats* stats);

/* Replaces the session's sampler between generations (NULL: greedy, owned by the session);
 * the caller keeps ownership of `sampler`, created with the decoder's vocab_size. Lets one
 * session (and its KV cache) serve requests with different sampling parameters.
 * TCPU_ERR_INVALID_ARGUMENT while a generation is in progress. */
int tcpu_generate_session_set_sampler(tcpu_generate_session* session, tcpu_sampler* sampler);

/* The ids of the last call's context followed by the tokens it generated (the stopping EOS
 * not included): ids[0 .. *n_ids). TCPU_ERR_BUFFER_TOO_SMALL with *n_ids set when capacity
 * is too small (ids may be NULL with capacity 0 to ask). */
int tcpu_generate_session_history(const tcpu_generate_session* session, int32_t* ids,
                                  int64_t capacity, int64_t* n_ids);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_GENERATE_H_ */
