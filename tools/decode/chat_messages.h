// The conversation of `tcpu-decode --messages FILE.json`: a JSON list of {"role": ...,
// "content": ...} objects, as Hugging Face's apply_chat_template takes it.
#ifndef TCPU_TOOLS_DECODE_CHAT_MESSAGES_H_
#define TCPU_TOOLS_DECODE_CHAT_MESSAGES_H_

#include <string>
#include <vector>

#include "tcpu/chat_template.h"

namespace tcpu::decode {

struct ChatMessage {
  std::string role;
  std::string content;
};

// Parses `json`; false with *error naming what is wrong (the JSON error and its byte offset,
// or the entry and field that is missing or not a string). Fields other than role and content
// are ignored.
bool ParseChatMessages(const std::string& json, std::vector<ChatMessage>* messages,
                       std::string* error);

// The C views of `messages` (valid while they live and are not changed).
std::vector<tcpu_chat_message> ChatMessageViews(const std::vector<ChatMessage>& messages);

}  // namespace tcpu::decode

#endif  // TCPU_TOOLS_DECODE_CHAT_MESSAGES_H_
