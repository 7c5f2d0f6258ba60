// Python's str operations the templates use, on UTF-8 strings counted in code points (as
// Python counts): length, indexing, slicing, case mapping (via utf8proc).
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_TEXT_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcpu::chat_template {

// The characters of `text`, one UTF-8 sequence each (a stray byte is a character of its own).
std::vector<std::string_view> SplitCharacters(std::string_view text);

std::string ToUpper(std::string_view text);
std::string ToLower(std::string_view text);
// str.title(): upper case after a non-letter, lower case after a letter.
std::string ToTitle(std::string_view text);
// str.capitalize(): the first character upper case, the rest lower case.
std::string Capitalize(std::string_view text);

// str.replace(old, new, count): at most `count` replacements (all when count < 0); an empty
// `old` matches before every character and at the end.
std::string Replace(std::string_view text, std::string_view old_text, std::string_view new_text,
                    int64_t count);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_TEXT_H_
