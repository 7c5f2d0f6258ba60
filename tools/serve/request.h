// The bodies of POST /v1/chat/completions and POST /v1/completions: read and checked field by field
// before anything reaches the engine. Fields of the OpenAI API that tcpu-serve does not implement
// (logprobs, tools, ...) are ignored; those it implements must have the documented type and range,
// or the request is refused naming the field.
#ifndef TCPU_TOOLS_SERVE_REQUEST_H_
#define TCPU_TOOLS_SERVE_REQUEST_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tools/decode/chat_messages.h"
#include "tools/serve/api_error.h"

namespace tcpu::serve {

enum class Endpoint { kChatCompletions, kCompletions };

struct GenerationRequest {
  Endpoint endpoint = Endpoint::kChatCompletions;
  std::vector<tcpu::decode::ChatMessage> messages;  // chat: the conversation
  std::string prompt;                               // completions: the raw prompt text
  int64_t max_tokens = 0;                           // 0: until the KV cache is full
  float temperature = 1.0f;                         // 0: greedy
  float top_p = 1.0f;
  bool has_seed = false;
  uint64_t seed = 0;
  std::vector<std::string> stop;  // stop strings, none empty
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage: a last chunk with usage
};

// What the server's model and configuration allow.
struct RequestLimits {
  std::string model_id;      // the one model served; "model" must name it when given
  int64_t context_size = 0;  // positions of each slot's KV cache
};

// Parses `body` for `endpoint`. false with *error: 400 for JSON that is malformed or not UTF-8, a
// field of the wrong type or out of range (param names it: "messages[2].role"); 404 for a model
// other than limits.model_id.
bool ParseGenerationRequest(Endpoint endpoint, std::string_view body, const RequestLimits& limits,
                            GenerationRequest* request, ApiError* error);

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_REQUEST_H_
