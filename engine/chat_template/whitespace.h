// Python's notion of whitespace (str.isspace, the `\s` of Jinja's `-` whitespace control) on
// UTF-8 text: what `trim`, `strip()` and `{%-` remove.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_WHITESPACE_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_WHITESPACE_H_

#include <cstddef>
#include <string_view>

namespace tcpu::chat_template {

// Byte length of the whitespace character starting at text[pos], or 0 if there is none.
size_t WhitespaceAt(std::string_view text, size_t pos);

// Byte length of the whitespace character ending at text[end - 1], or 0 if there is none.
size_t WhitespaceBefore(std::string_view text, size_t end);

// `text` without leading (left) and/or trailing (right) whitespace.
std::string_view TrimWhitespace(std::string_view text, bool left, bool right);

// `text` without leading and/or trailing bytes found in `chars` (Python's strip(chars) on
// ASCII `chars`; a multi-byte `chars` is matched per character).
std::string_view TrimCharacters(std::string_view text, std::string_view chars, bool left,
                                bool right);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_WHITESPACE_H_
