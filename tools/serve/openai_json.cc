#include "tools/serve/openai_json.h"

#include "tcpu/generate.h"

namespace tcpu::serve {
namespace {

using nlohmann::json;

json NullOr(const char* text) { return text == nullptr ? json(nullptr) : json(text); }

json UsageJson(const Usage& usage) {
  return {{"prompt_tokens", usage.prompt_tokens},
          {"completion_tokens", usage.completion_tokens},
          {"total_tokens", usage.prompt_tokens + usage.completion_tokens}};
}

json Envelope(const AnswerHeader& header, const char* object, json choice) {
  return {{"id", header.id},
          {"object", object},
          {"created", header.created},
          {"model", header.model},
          {"system_fingerprint", nullptr},
          {"choices", json::array({std::move(choice)})}};
}

}  // namespace

const char kSseDone[] = "data: [DONE]\n\n";

const char* FinishReason(int32_t stop_reason) {
  return stop_reason == TCPU_STOP_MAX_TOKENS || stop_reason == TCPU_STOP_CACHE_FULL ? "length"
                                                                                    : "stop";
}

json Completion(const AnswerHeader& header, const std::string& text, const char* finish_reason,
                const Usage& usage) {
  json choice = {{"index", 0}, {"finish_reason", finish_reason}, {"logprobs", nullptr}};
  if (header.chat) {
    choice["message"] = {{"role", "assistant"}, {"content", text}, {"refusal", nullptr}};
  } else {
    choice["text"] = text;
  }
  json answer = Envelope(header, header.chat ? "chat.completion" : "text_completion", choice);
  answer["usage"] = UsageJson(usage);
  return answer;
}

json Chunk(const AnswerHeader& header, const std::string& text, bool first,
           const char* finish_reason) {
  json choice = {{"index", 0}, {"finish_reason", NullOr(finish_reason)}, {"logprobs", nullptr}};
  if (header.chat) {
    json delta = json::object();
    if (first) delta["role"] = "assistant";
    if (first || !text.empty()) delta["content"] = text;
    choice["delta"] = delta;
  } else {
    choice["text"] = text;
  }
  return Envelope(header, header.chat ? "chat.completion.chunk" : "text_completion", choice);
}

json UsageChunk(const AnswerHeader& header, const Usage& usage) {
  json chunk =
      Envelope(header, header.chat ? "chat.completion.chunk" : "text_completion", json(nullptr));
  chunk["choices"] = json::array();
  chunk["usage"] = UsageJson(usage);
  return chunk;
}

json ModelList(const std::string& model, int64_t created) {
  return {{"object", "list"},
          {"data", json::array({{{"id", model},
                                 {"object", "model"},
                                 {"created", created},
                                 {"owned_by", "tcpu-serve"}}})}};
}

json ErrorJson(const ApiError& error) {
  const auto text_or_null = [](const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
  };
  return {{"error",
           {{"message", error.message},
            {"type", error.type},
            {"param", text_or_null(error.param)},
            {"code", text_or_null(error.code)}}}};
}

std::string JsonText(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string SseEvent(const json& value) { return "data: " + JsonText(value) + "\n\n"; }

}  // namespace tcpu::serve
