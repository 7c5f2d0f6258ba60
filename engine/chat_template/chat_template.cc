#include "engine/chat_template/chat_template.h"

#include <utility>

#include "engine/common/json_text.h"
#include "nlohmann/json.hpp"

#include "engine/chat_template/lexer.h"
#include "engine/chat_template/parser.h"
#include "engine/chat_template/template_error.h"

namespace tcpu::chat_template {
namespace {

// A special token of tokenizer_config.json: "text", {"content": "text", ...} or null.
bool ReadSpecialToken(const nlohmann::ordered_json& config, const char* field,
                      std::optional<std::string>* token, std::string* error) {
  token->reset();
  const auto found = config.find(field);
  if (found == config.end() || found->is_null()) return true;
  if (found->is_string()) {
    *token = found->get<std::string>();
    return true;
  }
  if (found->is_object()) {
    const auto content = found->find("content");
    if (content != found->end() && content->is_string()) {
      *token = content->get<std::string>();
      return true;
    }
  }
  *error = std::string(field) + ": expected a string, an object with a string \"content\", or null";
  return false;
}

}  // namespace

bool ChatTemplate::Parse(std::string source, std::optional<std::string> bos_token,
                         std::optional<std::string> eos_token, std::string* error) {
  source_ = std::move(source);
  bos_token_ = std::move(bos_token);
  eos_token_ = std::move(eos_token);
  try {
    program_ = chat_template::Parse(Lex(source_));
  } catch (const TemplateError& failure) {
    program_.clear();
    *error = LineColumn(source_, failure.offset) + ": " + failure.message;
    return false;
  }
  return true;
}

bool ChatTemplate::LoadConfig(std::string_view config_json, std::string* error) {
  nlohmann::ordered_json config;
  if (!engine::ParseJson(config_json, &config) || !config.is_object()) {
    *error = "tokenizer_config.json is not a JSON object";
    return false;
  }
  std::optional<std::string> bos, eos;
  if (!ReadSpecialToken(config, "bos_token", &bos, error) ||
      !ReadSpecialToken(config, "eos_token", &eos, error)) {
    return false;
  }
  const auto found = config.find("chat_template");
  if (found == config.end() || found->is_null()) {
    *error = "chat_template: the config has none";
    return false;
  }
  std::string source;
  if (found->is_string()) {
    source = found->get<std::string>();
  } else if (found->is_array()) {
    // Several named templates (e.g. "default", "tool_use"): the default one renders chats.
    for (const auto& named : *found) {
      if (named.is_object() && named.value("name", nlohmann::ordered_json()) == "default" &&
          named.contains("template") && named["template"].is_string()) {
        source = named["template"].get<std::string>();
      }
    }
    if (source.empty()) {
      *error = "chat_template: a list without a {\"name\": \"default\", \"template\": ...} entry";
      return false;
    }
  } else {
    *error = "chat_template: expected a string or a list of named templates";
    return false;
  }
  if (!Parse(std::move(source), std::move(bos), std::move(eos), error)) {
    *error = "chat_template " + *error;
    return false;
  }
  return true;
}

bool ChatTemplate::Render(const nlohmann::ordered_json& context, std::string* text,
                          std::string* error, const EvaluationLimits& limits) const {
  if (!context.is_object()) {
    *error = "the context must be a JSON object of variables";
    return false;
  }
  try {
    Object variables;
    if (bos_token_ && !context.contains("bos_token")) {
      variables.emplace_back("bos_token", Value::String(*bos_token_));
    }
    if (eos_token_ && !context.contains("eos_token")) {
      variables.emplace_back("eos_token", Value::String(*eos_token_));
    }
    for (const auto& [name, value] : context.items()) {
      variables.emplace_back(name, Value::FromJson(value));
    }
    *text = Evaluate(program_, variables, limits);
  } catch (const TemplateError& failure) {
    *error = failure.offset == kUnknownOffset
                 ? failure.message
                 : LineColumn(source_, failure.offset) + ": " + failure.message;
    return false;
  }
  return true;
}

}  // namespace tcpu::chat_template
