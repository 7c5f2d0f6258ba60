#include "tools/serve/request.h"

#include <cmath>
#include <limits>

#include "engine/common/json_text.h"
#include "nlohmann/json.hpp"

namespace tcpu::serve {
namespace {

using nlohmann::json;

constexpr size_t kMaxStopStrings = 4;  // as the OpenAI API

// "'max_tokens' is a string, expected an integer"
ApiError WrongType(const std::string& param, const json& value, const std::string& expected) {
  const std::string type = value.type_name();
  const std::string what = value.is_null()                       ? "null"
                           : type == "array" || type == "object" ? "an " + type
                                                                 : "a " + type;
  return InvalidRequest(param, "'" + param + "' is " + what + ", expected " + expected);
}

// A message's content: a string, or a list of {"type": "text", "text": ...} parts (joined).
bool ReadContent(const json& content, const std::string& param, std::string* text,
                 ApiError* error) {
  if (content.is_string()) {
    *text = content.get<std::string>();
    return true;
  }
  if (!content.is_array()) {
    *error = WrongType(param, content, "a string or a list of text parts");
    return false;
  }
  text->clear();
  for (size_t i = 0; i < content.size(); ++i) {
    const json& part = content[i];
    const std::string part_param = param + "[" + std::to_string(i) + "]";
    if (!part.is_object()) {
      *error = WrongType(part_param, part, "an object {\"type\": \"text\", \"text\": ...}");
      return false;
    }
    const auto type = part.find("type");
    if (type == part.end() || !type->is_string() || type->get<std::string>() != "text") {
      *error = InvalidRequest(
          part_param + ".type",
          "'" + part_param + ".type' must be \"text\" (this server reads text only)");
      return false;
    }
    const auto part_text = part.find("text");
    if (part_text == part.end() || !part_text->is_string()) {
      *error = WrongType(part_param + ".text", part_text == part.end() ? json(nullptr) : *part_text,
                         "a string");
      return false;
    }
    *text += part_text->get<std::string>();
  }
  return true;
}

bool ReadMessages(const json& body, GenerationRequest* request, ApiError* error) {
  const auto messages = body.find("messages");
  if (messages == body.end()) {
    *error = InvalidRequest("messages", "'messages' is required");
    return false;
  }
  if (!messages->is_array()) {
    *error = WrongType("messages", *messages, "a list of {\"role\", \"content\"} objects");
    return false;
  }
  if (messages->empty()) {
    *error = InvalidRequest("messages", "'messages' is empty");
    return false;
  }
  for (size_t i = 0; i < messages->size(); ++i) {
    const json& message = (*messages)[i];
    const std::string param = "messages[" + std::to_string(i) + "]";
    if (!message.is_object()) {
      *error = WrongType(param, message, "an object with \"role\" and \"content\"");
      return false;
    }
    tcpu::decode::ChatMessage parsed;
    const auto role = message.find("role");
    if (role == message.end() || !role->is_string() || role->get<std::string>().empty()) {
      *error = role == message.end()
                   ? InvalidRequest(param + ".role", "'" + param + ".role' is required")
               : role->is_string()
                   ? InvalidRequest(param + ".role", "'" + param + ".role' is empty")
                   : WrongType(param + ".role", *role, "a string");
      return false;
    }
    parsed.role = role->get<std::string>();
    const auto content = message.find("content");
    if (content == message.end()) {
      *error = InvalidRequest(param + ".content", "'" + param + ".content' is required");
      return false;
    }
    if (!ReadContent(*content, param + ".content", &parsed.content, error)) return false;
    request->messages.push_back(std::move(parsed));
  }
  return true;
}

bool ReadPrompt(const json& body, GenerationRequest* request, ApiError* error) {
  const auto prompt = body.find("prompt");
  if (prompt == body.end()) {
    *error = InvalidRequest("prompt", "'prompt' is required");
    return false;
  }
  // A string, or a list holding one string (what clients send for a single prompt).
  const json* text = &*prompt;
  if (prompt->is_array() && prompt->size() == 1) text = &(*prompt)[0];
  if (!text->is_string()) {
    *error = WrongType("prompt", *prompt, "a string (one prompt per request)");
    return false;
  }
  request->prompt = text->get<std::string>();
  if (request->prompt.empty()) {
    *error = InvalidRequest("prompt", "'prompt' is empty");
    return false;
  }
  return true;
}

// A number field in [low, high] (an integer is a number too).
bool ReadNumber(const json& body, const char* name, double low, double high, float* value,
                ApiError* error) {
  const auto field = body.find(name);
  if (field == body.end() || field->is_null()) return true;
  if (!field->is_number()) {
    *error = WrongType(name, *field, "a number");
    return false;
  }
  const double v = field->get<double>();
  if (!(v >= low && v <= high)) {
    *error = InvalidRequest(name, "'" + std::string(name) + "' is " + field->dump() +
                                      ", expected a number in [" + json(low).dump() + ", " +
                                      json(high).dump() + "]");
    return false;
  }
  *value = static_cast<float>(v);
  return true;
}

bool ReadMaxTokens(const json& body, const char* name, const RequestLimits& limits,
                   int64_t* max_tokens, ApiError* error) {
  const auto field = body.find(name);
  if (field == body.end() || field->is_null()) return true;
  if (!field->is_number_integer()) {
    *error = WrongType(name, *field, "an integer");
    return false;
  }
  const bool negative =
      field->is_number_integer() && !field->is_number_unsigned() && field->get<int64_t>() < 1;
  const uint64_t v = negative ? 0 : field->get<uint64_t>();
  if (negative || v < 1 || v > static_cast<uint64_t>(limits.context_size)) {
    *error = InvalidRequest(
        name, "'" + std::string(name) + "' is " + field->dump() + ", expected an integer in [1, " +
                  std::to_string(limits.context_size) + "] (the context of each slot)");
    return false;
  }
  *max_tokens = static_cast<int64_t>(v);
  return true;
}

bool ReadStop(const json& body, GenerationRequest* request, ApiError* error) {
  const auto stop = body.find("stop");
  if (stop == body.end() || stop->is_null()) return true;
  if (stop->is_string()) {
    if (!stop->get<std::string>().empty()) request->stop.push_back(stop->get<std::string>());
    return true;
  }
  if (!stop->is_array()) {
    *error = WrongType("stop", *stop, "a string or a list of strings");
    return false;
  }
  if (stop->size() > kMaxStopStrings) {
    *error = InvalidRequest("stop", "'stop' has " + std::to_string(stop->size()) +
                                        " strings, at most " + std::to_string(kMaxStopStrings));
    return false;
  }
  for (size_t i = 0; i < stop->size(); ++i) {
    const json& s = (*stop)[i];
    const std::string param = "stop[" + std::to_string(i) + "]";
    if (!s.is_string()) {
      *error = WrongType(param, s, "a string");
      return false;
    }
    if (s.get<std::string>().empty()) {
      *error = InvalidRequest(param, "'" + param + "' is empty");
      return false;
    }
    request->stop.push_back(s.get<std::string>());
  }
  return true;
}

bool ReadStreaming(const json& body, GenerationRequest* request, ApiError* error) {
  const auto stream = body.find("stream");
  if (stream != body.end() && !stream->is_null()) {
    if (!stream->is_boolean()) {
      *error = WrongType("stream", *stream, "a boolean");
      return false;
    }
    request->stream = stream->get<bool>();
  }
  const auto options = body.find("stream_options");
  if (options == body.end() || options->is_null()) return true;
  if (!options->is_object()) {
    *error = WrongType("stream_options", *options, "an object");
    return false;
  }
  const auto usage = options->find("include_usage");
  if (usage == options->end() || usage->is_null()) return true;
  if (!usage->is_boolean()) {
    *error = WrongType("stream_options.include_usage", *usage, "a boolean");
    return false;
  }
  request->include_usage = usage->get<bool>();
  return true;
}

bool ReadSampling(const json& body, GenerationRequest* request, ApiError* error) {
  if (!ReadNumber(body, "temperature", 0.0, 2.0, &request->temperature, error) ||
      !ReadNumber(body, "top_p", 0.0, 1.0, &request->top_p, error)) {
    return false;
  }
  if (request->top_p <= 0.0f) {
    *error = InvalidRequest("top_p", "'top_p' is 0, expected a number in (0, 1]");
    return false;
  }
  const auto seed = body.find("seed");
  if (seed != body.end() && !seed->is_null()) {
    if (!seed->is_number_integer()) {
      *error = WrongType("seed", *seed, "an integer");
      return false;
    }
    request->has_seed = true;
    request->seed = seed->is_number_unsigned() ? seed->get<uint64_t>()
                                               : static_cast<uint64_t>(seed->get<int64_t>());
  }
  const auto n = body.find("n");
  if (n != body.end() && !n->is_null() && !(n->is_number_integer() && n->get<int64_t>() == 1)) {
    *error = InvalidRequest("n", "'n' is " + n->dump() + ", this server answers with 1 choice");
    return false;
  }
  return true;
}

}  // namespace

bool ParseGenerationRequest(Endpoint endpoint, std::string_view body, const RequestLimits& limits,
                            GenerationRequest* request, ApiError* error) {
  *request = GenerationRequest();
  request->endpoint = endpoint;
  json parsed;
  tcpu::engine::JsonError json_error;
  if (!tcpu::engine::ParseJson(body, &parsed, &json_error)) {
    const bool utf8 = json_error.message.find("UTF-8") != std::string::npos;
    *error = InvalidRequest("",
                            std::string(utf8 ? "the request body is not valid UTF-8: "
                                             : "the request body is not valid JSON: ") +
                                json_error.message,
                            utf8 ? "invalid_utf8" : "invalid_json");
    return false;
  }
  if (!parsed.is_object()) {
    *error = InvalidRequest("", std::string("the request body is a JSON ") + parsed.type_name() +
                                    ", expected an object");
    return false;
  }
  const auto model = parsed.find("model");
  if (model != parsed.end() && !model->is_null()) {
    if (!model->is_string()) {
      *error = WrongType("model", *model, "a string");
      return false;
    }
    if (model->get<std::string>() != limits.model_id) {
      *error = InvalidRequest("model",
                              "the model '" + model->get<std::string>() +
                                  "' does not exist; this server serves '" + limits.model_id + "'",
                              "model_not_found");
      error->http_status = 404;
      return false;
    }
  }
  if (endpoint == Endpoint::kChatCompletions ? !ReadMessages(parsed, request, error)
                                             : !ReadPrompt(parsed, request, error)) {
    return false;
  }
  // max_completion_tokens is the chat API's newer name for max_tokens.
  return ReadMaxTokens(parsed, "max_tokens", limits, &request->max_tokens, error) &&
         ReadMaxTokens(parsed, "max_completion_tokens", limits, &request->max_tokens, error) &&
         ReadSampling(parsed, request, error) && ReadStop(parsed, request, error) &&
         ReadStreaming(parsed, request, error);
}

}  // namespace tcpu::serve
