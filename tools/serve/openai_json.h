// The answers of tcpu-serve in the OpenAI API's shapes: chat.completion and its streamed
// chat.completion.chunk, text_completion (streamed as text_completion objects too), the model list,
// the error object, and the server-sent-event framing of a stream ("data: {json}\n\n", then
// "data: [DONE]\n\n").
#ifndef TCPU_TOOLS_SERVE_OPENAI_JSON_H_
#define TCPU_TOOLS_SERVE_OPENAI_JSON_H_

#include <cstdint>
#include <string>

#include "nlohmann/json.hpp"
#include "tools/serve/api_error.h"

namespace tcpu::serve {

// What identifies one answer in all its chunks.
struct AnswerHeader {
  std::string id;       // "chatcmpl-N" or "cmpl-N"
  int64_t created = 0;  // Unix seconds
  std::string model;
  bool chat = true;  // chat.completion(.chunk) or text_completion
};

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
};

// "stop" (an EOS or a stop string) or "length" (max_tokens, or the KV cache full) for a
// tcpu_stop_reason.
const char* FinishReason(int32_t stop_reason);

// The whole answer (stream: false).
nlohmann::json Completion(const AnswerHeader& header, const std::string& text,
                          const char* finish_reason, const Usage& usage);

// One streamed chunk: the first of a chat opens the assistant's turn (role), then text pieces, then
// an empty delta with the finish_reason. finish_reason: nullptr until the last.
nlohmann::json Chunk(const AnswerHeader& header, const std::string& text, bool first,
                     const char* finish_reason);

// The chunk after the last one when stream_options.include_usage: no choices, the usage.
nlohmann::json UsageChunk(const AnswerHeader& header, const Usage& usage);

// GET /v1/models: the one model.
nlohmann::json ModelList(const std::string& model, int64_t created);

// {"error": {"message", "type", "param", "code"}} (param and code null when empty).
nlohmann::json ErrorJson(const ApiError& error);

// `value` as one server-sent event: "data: <compact json>\n\n".
std::string SseEvent(const nlohmann::json& value);

// The last event of every stream.
extern const char kSseDone[];

// Compact JSON text; text that is not UTF-8 becomes U+FFFD rather than an exception.
std::string JsonText(const nlohmann::json& value);

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_OPENAI_JSON_H_
