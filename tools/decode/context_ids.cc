#include "tools/decode/context_ids.h"

#include "tcpu/status.h"

namespace tcpu::decode {

int EncodeText(const tcpu_tokenizer* tokenizer, const std::string& text, bool add_special_tokens,
               std::vector<int32_t>* ids) {
  const int64_t bytes = static_cast<int64_t>(text.size());
  int64_t n = 0;
  int status =
      tcpu_tokenizer_encode(tokenizer, text.data(), bytes, add_special_tokens, nullptr, 0, &n);
  ids->assign(static_cast<size_t>(n), 0);
  if (status == TCPU_ERR_BUFFER_TOO_SMALL) {
    status = tcpu_tokenizer_encode(tokenizer, text.data(), bytes, add_special_tokens, ids->data(),
                                   n, &n);
  }
  ids->resize(static_cast<size_t>(n));
  return status;
}

int RenderChat(const tcpu_chat_template* chat_template,
               const std::vector<tcpu_chat_message>& messages, bool add_generation_prompt,
               std::string* text) {
  const int64_t n_messages = static_cast<int64_t>(messages.size());
  int64_t bytes = 0;
  int status = tcpu_chat_template_render(chat_template, messages.data(), n_messages,
                                         add_generation_prompt, nullptr, 0, &bytes);
  if (status != TCPU_ERR_BUFFER_TOO_SMALL) return status;
  text->assign(static_cast<size_t>(bytes) + 1, '\0');
  status = tcpu_chat_template_render(chat_template, messages.data(), n_messages,
                                     add_generation_prompt, text->data(), bytes + 1, &bytes);
  text->resize(static_cast<size_t>(bytes));
  return status;
}

}  // namespace tcpu::decode
