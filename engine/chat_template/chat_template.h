// A chat template ready to render: the Jinja source of a model's tokenizer_config.json
// `chat_template`, lexed and parsed once, with the bos_token/eos_token the config names.
// Rendering runs the evaluator over a context of variables (messages, tools,
// add_generation_prompt, ...). The C ABI in tcpu/chat_template.h wraps this class.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_CHAT_TEMPLATE_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_CHAT_TEMPLATE_H_

#include <optional>
#include <string>
#include <string_view>

#include "engine/chat_template/ast.h"
#include "engine/chat_template/evaluator.h"
#include "nlohmann/json_fwd.hpp"  // the full header only where JSON is parsed or built

namespace tcpu::chat_template {

class ChatTemplate {
 public:
  // Parses `source` with the given special tokens (nullopt leaves the variable undefined,
  // as when the config's token is null). False with *error "line:column: what".
  bool Parse(std::string source, std::optional<std::string> bos_token,
             std::optional<std::string> eos_token, std::string* error);

  // From the contents of tokenizer_config.json: `chat_template` (a string, or a list of
  // {name, template} of which "default" is taken) and `bos_token`/`eos_token` (a string or
  // an added-token object with "content"). False with *error naming the field or position.
  bool LoadConfig(std::string_view config_json, std::string* error);

  // Renders with the variables of the JSON object `context`; bos_token and eos_token are
  // added unless the context sets them. False with *error "line:column: what" (a
  // raise_exception in the template says "raise_exception: its message").
  bool Render(const nlohmann::ordered_json& context, std::string* text, std::string* error,
              const EvaluationLimits& limits = {}) const;

  const std::string& source() const { return source_; }

 private:
  std::string source_;
  Body program_;
  std::optional<std::string> bos_token_, eos_token_;
};

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_CHAT_TEMPLATE_H_
