// The token ids a prompt becomes: text through the tokenizer, a conversation through the chat
// template then the tokenizer. tcpu-decode sizes its KV cache and checks ids with them, and
// --chat tokenizes each turn's new text with them.
#ifndef TCPU_TOOLS_DECODE_CONTEXT_IDS_H_
#define TCPU_TOOLS_DECODE_CONTEXT_IDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tcpu/chat_template.h"
#include "tcpu/tokenizer.h"

namespace tcpu::decode {

// tcpu_tokenizer_encode into *ids; a tcpu_status.
int EncodeText(const tcpu_tokenizer* tokenizer, const std::string& text, bool add_special_tokens,
               std::vector<int32_t>* ids);

// tcpu_chat_template_render into *text; a tcpu_status.
int RenderChat(const tcpu_chat_template* chat_template,
               const std::vector<tcpu_chat_message>& messages, bool add_generation_prompt,
               std::string* text);

}  // namespace tcpu::decode

#endif  // TCPU_TOOLS_DECODE_CONTEXT_IDS_H_
