// libFuzzer over chat templates: the input is a template source, parsed and (when it parses)
// rendered twice over a fixed conversation with tools, under small evaluation limits.
// Crashes, sanitizer reports, hangs, an error without a "line:column: " prefix, or two
// renderings that differ fail.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/chat_template/chat_template.h"
#include "engine/common/json_text.h"
#include "nlohmann/json.hpp"

namespace {

using tcpu::chat_template::ChatTemplate;
using tcpu::chat_template::EvaluationLimits;

// The conversation every template is rendered over.
constexpr char kContextJson[] = R"({
    "messages": [
      {"role": "system", "content": "Be brief."},
      {"role": "user", "content": "  Héllo 👋\n"},
      {"role": "assistant", "content": "<think>\nhm\n</think>\n\nHi!",
       "tool_calls": [{"type": "function",
                       "function": {"name": "f", "arguments": {"x": 1, "y": [true, null]}}}]},
      {"role": "tool", "content": "{\"ok\": 1}"},
      {"role": "user", "content": "<tool_response>x</tool_response>"}
    ],
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
    "add_generation_prompt": true,
    "enable_thinking": false
  })";

const nlohmann::ordered_json& Context() {
  static const nlohmann::ordered_json context = [] {
    nlohmann::ordered_json parsed;
    if (!tcpu::engine::ParseJson(kContextJson, &parsed)) std::abort();  // a bug in this file
    return parsed;
  }();
  return context;
}

// "line:column: " with both numbers positive.
bool HasPosition(const std::string& error) {
  const size_t colon = error.find(':');
  if (colon == 0 || colon == std::string::npos) return false;
  char* end = nullptr;
  const long column = std::strtol(error.c_str() + colon + 1, &end, 10);
  return std::atol(error.c_str()) > 0 && column > 0 && end[0] == ':' && end[1] == ' ';
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  ChatTemplate chat_template;
  std::string error;
  if (!chat_template.Parse(source, "<s>", "</s>", &error)) {
    if (!HasPosition(error)) std::abort();
    return 0;
  }
  EvaluationLimits limits;
  limits.max_steps = 20000;
  limits.max_output_bytes = 1 << 20;
  std::string first, second, first_error, second_error;
  const bool first_ok = chat_template.Render(Context(), &first, &first_error, limits);
  const bool second_ok = chat_template.Render(Context(), &second, &second_error, limits);
  if (first_ok != second_ok || first != second || first_error != second_error) std::abort();
  if (!first_ok && !HasPosition(first_error)) std::abort();
  return 0;
}
