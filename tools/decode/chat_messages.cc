#include "tools/decode/chat_messages.h"

#include "engine/common/json_text.h"
#include "nlohmann/json.hpp"

namespace tcpu::decode {

bool ParseChatMessages(const std::string& json, std::vector<ChatMessage>* messages,
                       std::string* error) {
  nlohmann::json document;
  if (engine::JsonError parse_error; !engine::ParseJson(json, &document, &parse_error)) {
    *error = "not valid JSON: " + parse_error.message;  // says the line and column
    return false;
  }
  if (!document.is_array()) {
    *error = std::string("expected a list of {\"role\", \"content\"} objects, found a JSON ") +
             document.type_name();
    return false;
  }
  if (document.empty()) {
    *error = "the list of messages is empty";
    return false;
  }
  messages->clear();
  for (size_t i = 0; i < document.size(); ++i) {
    const nlohmann::json& entry = document[i];
    const std::string where = "message " + std::to_string(i);
    if (!entry.is_object()) {
      *error = where + " is a JSON " + entry.type_name() + ", expected an object";
      return false;
    }
    ChatMessage message;
    for (const auto& [field, out] :
         {std::pair{"role", &message.role}, std::pair{"content", &message.content}}) {
      const auto it = entry.find(field);
      if (it == entry.end()) {
        *error = where + " has no \"" + field + "\"";
        return false;
      }
      if (!it->is_string()) {
        *error = where + ": \"" + field + "\" is a JSON " + it->type_name() + ", expected a string";
        return false;
      }
      *out = it->get<std::string>();
    }
    if (message.role.empty()) {
      *error = where + ": \"role\" is empty";
      return false;
    }
    messages->push_back(std::move(message));
  }
  return true;
}

std::vector<tcpu_chat_message> ChatMessageViews(const std::vector<ChatMessage>& messages) {
  std::vector<tcpu_chat_message> views;
  views.reserve(messages.size());
  for (const ChatMessage& message : messages) {
    views.push_back({message.role.c_str(), message.content.c_str()});
  }
  return views;
}

}  // namespace tcpu::decode
