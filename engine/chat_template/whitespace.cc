#include "engine/chat_template/whitespace.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tcpu::chat_template {
namespace {

bool IsPythonSpace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000;
}

// Decodes the (well-formed, up to 3-byte) UTF-8 character at text[pos]: every Python space
// fits in 3 bytes. Returns its length, or 0 when the bytes there are no such character.
size_t DecodeAt(std::string_view text, size_t pos, uint32_t* code_point) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[pos + i]); };
  const size_t left = text.size() - pos;
  if (left >= 1 && byte(0) < 0x80) {
    *code_point = byte(0);
    return 1;
  }
  if (left >= 2 && (byte(0) & 0xE0) == 0xC0 && (byte(1) & 0xC0) == 0x80) {
    *code_point = (byte(0) & 0x1Fu) << 6 | (byte(1) & 0x3Fu);
    return 2;
  }
  if (left >= 3 && (byte(0) & 0xF0) == 0xE0 && (byte(1) & 0xC0) == 0x80 &&
      (byte(2) & 0xC0) == 0x80) {
    *code_point = (byte(0) & 0x0Fu) << 12 | (byte(1) & 0x3Fu) << 6 | (byte(2) & 0x3Fu);
    return 3;
  }
  return 0;
}

// Length of the UTF-8 character whose lead byte is `lead` (1 for a stray byte).
size_t CharacterLength(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return lead < 0xF0 ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

size_t WhitespaceAt(std::string_view text, size_t pos) {
  uint32_t code_point = 0;
  const size_t length = pos < text.size() ? DecodeAt(text, pos, &code_point) : 0;
  return length > 0 && IsPythonSpace(code_point) ? length : 0;
}

size_t WhitespaceBefore(std::string_view text, size_t end) {
  for (size_t length = 1; length <= 3 && length <= end; ++length) {
    if (WhitespaceAt(text, end - length) == length) return length;
  }
  return 0;
}

std::string_view TrimWhitespace(std::string_view text, bool left, bool right) {
  size_t begin = 0, end = text.size();
  while (left && begin < end) {
    const size_t length = WhitespaceAt(text, begin);
    if (length == 0) break;
    begin += length;
  }
  while (right && end > begin) {
    const size_t length = WhitespaceBefore(text.substr(0, end), end);
    if (length == 0 || end - length < begin) break;
    end -= length;
  }
  return text.substr(begin, end - begin);
}

std::string_view TrimCharacters(std::string_view text, std::string_view chars, bool left,
                                bool right) {
  std::vector<std::string_view> characters;
  for (size_t i = 0; i < chars.size();) {
    const size_t length = std::min(CharacterLength(chars[i]), chars.size() - i);
    characters.push_back(chars.substr(i, length));
    i += length;
  }
  const auto strip_one = [&](std::string_view* rest, bool at_front) {
    for (std::string_view c : characters) {
      if (rest->size() < c.size()) continue;
      const std::string_view edge =
          at_front ? rest->substr(0, c.size()) : rest->substr(rest->size() - c.size());
      if (edge == c) {
        *rest = at_front ? rest->substr(c.size()) : rest->substr(0, rest->size() - c.size());
        return true;
      }
    }
    return false;
  };
  while (left && strip_one(&text, true)) {
  }
  while (right && strip_one(&text, false)) {
  }
  return text;
}

}  // namespace tcpu::chat_template
