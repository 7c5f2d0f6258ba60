/* Chat templates: a conversation to the prompt text an instruct model expects, by running
 * the Jinja `chat_template` of the model's tokenizer_config.json as Hugging Face
 * transformers does (trim_blocks and lstrip_blocks on). Supported: the Jinja subset the
 * Llama 3.x and Qwen2.5/3 templates use (if/elif/else, for with loop.* and else, set,
 * namespace, filters such as trim, tojson, length, join, default; Python string methods
 * such as startswith, split, strip; slices such as messages[::-1]; `is defined` and other
 * tests; raise_exception; whitespace control {%- -%}). Anything else fails with
 * TCPU_ERR_INVALID_MODEL and a detail naming the construct and its line:column.
 *
 * Every function returns TCPU_OK or a negative tcpu_status; tcpu_last_error_detail() names
 * what was wrong. A template is immutable after open: it may render on several threads. */
#ifndef TCPU_CHAT_TEMPLATE_H_
#define TCPU_CHAT_TEMPLATE_H_

#include <stdint.h>

#include "tcpu/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcpu_chat_template tcpu_chat_template;

/* One turn of a conversation: UTF-8, NUL-terminated. role is "system", "user",
 * "assistant" (or "tool", as the template allows). */
typedef struct tcpu_chat_message {
  const char* role;
  const char* content;
} tcpu_chat_message;

/* Loads `chat_template`, `bos_token` and `eos_token` from `path`: a tokenizer_config.json
 * file, or a directory that holds one. Errors: TCPU_ERR_NULL_POINTER, TCPU_ERR_IO,
 * TCPU_ERR_INVALID_MODEL (malformed JSON, no chat_template, or a template outside the
 * supported subset: the detail gives line:column and the construct),
 * TCPU_ERR_OUT_OF_MEMORY. */
int tcpu_chat_template_open(const char* path, tcpu_chat_template** chat_template);

/* Parses the template text `source`; bos_token and eos_token may be NULL (the template
 * then sees them undefined). Errors as tcpu_chat_template_open. */
int tcpu_chat_template_open_string(const char* source, const char* bos_token, const char* eos_token,
                                   tcpu_chat_template** chat_template);

void tcpu_chat_template_close(tcpu_chat_template* chat_template);

/* Renders messages[0 .. n_messages) into text[0 .. *text_bytes) followed by a NUL (so
 * capacity must be at least *text_bytes + 1). add_generation_prompt != 0 asks the template
 * for the opening of the assistant's turn. When `capacity` is too small, returns
 * TCPU_ERR_BUFFER_TOO_SMALL with *text_bytes set to the length needed (text may be NULL
 * with capacity 0 to ask for it). A message that is not UTF-8 or a template that refuses
 * the conversation (raise_exception, a type error) gives TCPU_ERR_INVALID_ARGUMENT; the
 * detail says which message, or the template's line:column and message. */
int tcpu_chat_template_render(const tcpu_chat_template* chat_template,
                              const tcpu_chat_message* messages, int64_t n_messages,
                              int add_generation_prompt, char* text, int64_t capacity,
                              int64_t* text_bytes);

/* As tcpu_chat_template_render, with every variable given as the JSON object
 * `context_json` (e.g. {"messages": [...], "tools": [...], "add_generation_prompt": true,
 * "enable_thinking": false}), for messages with more fields than role and content. */
int tcpu_chat_template_render_json(const tcpu_chat_template* chat_template,
                                   const char* context_json, char* text, int64_t capacity,
                                   int64_t* text_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_CHAT_TEMPLATE_H_ */
