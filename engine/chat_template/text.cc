#include "engine/chat_template/text.h"

#include <cstdint>

#include "engine/chat_template/template_error.h"
#include "utf8proc.h"

namespace tcpu::chat_template {
namespace {

// Maps every decodable character of `text` through `map`; other bytes pass unchanged.
template <typename Map>
std::string MapCharacters(std::string_view text, Map map) {
  std::string out;
  out.reserve(text.size());
  size_t index = 0;
  for (std::string_view character : SplitCharacters(text)) {
    utf8proc_int32_t code_point = -1;
    const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(character.data());
    if (utf8proc_iterate(bytes, static_cast<utf8proc_ssize_t>(character.size()), &code_point) !=
            static_cast<utf8proc_ssize_t>(character.size()) ||
        code_point < 0) {
      out.append(character);
    } else {
      utf8proc_uint8_t encoded[4];
      const utf8proc_ssize_t length = utf8proc_encode_char(map(code_point, index), encoded);
      out.append(reinterpret_cast<const char*>(encoded), static_cast<size_t>(length));
    }
    ++index;
  }
  return out;
}

bool IsCased(utf8proc_int32_t code_point) {
  return utf8proc_toupper(code_point) != code_point || utf8proc_tolower(code_point) != code_point;
}

}  // namespace

std::vector<std::string_view> SplitCharacters(std::string_view text) {
  std::vector<std::string_view> characters;
  for (size_t i = 0; i < text.size();) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : 1;
    if (i + length > text.size()) length = 1;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) length = 1;
    }
    characters.push_back(text.substr(i, length));
    i += length;
  }
  return characters;
}

std::string ToUpper(std::string_view text) {
  return MapCharacters(text, [](utf8proc_int32_t c, size_t) { return utf8proc_toupper(c); });
}

std::string ToLower(std::string_view text) {
  return MapCharacters(text, [](utf8proc_int32_t c, size_t) { return utf8proc_tolower(c); });
}

std::string ToTitle(std::string_view text) {
  bool previous_cased = false;
  return MapCharacters(text, [&](utf8proc_int32_t c, size_t) {
    const utf8proc_int32_t mapped = previous_cased ? utf8proc_tolower(c) : utf8proc_totitle(c);
    previous_cased = IsCased(c);
    return mapped;
  });
}

std::string Capitalize(std::string_view text) {
  return MapCharacters(text, [](utf8proc_int32_t c, size_t index) {
    return index == 0 ? utf8proc_totitle(c) : utf8proc_tolower(c);
  });
}

std::string Replace(std::string_view text, std::string_view old_text, std::string_view new_text,
                    int64_t count) {
  std::string out;
  int64_t done = 0;
  const auto may_replace = [&] { return count < 0 || done < count; };
  if (old_text.empty()) {
    const std::vector<std::string_view> characters = SplitCharacters(text);
    if (new_text.size() > 0 && characters.size() + 1 > kMaxValueSize / new_text.size()) {
      throw TemplateError{kUnknownOffset, "replace would build a string over the size limit"};
    }
    for (size_t i = 0; i <= characters.size(); ++i) {
      if (may_replace()) {
        out += new_text;
        ++done;
      }
      if (i < characters.size()) out += characters[i];
    }
    return out;
  }
  if (new_text.size() > old_text.size()) {
    // Count first, so that an expanding replace cannot build an oversized string.
    size_t matches = 0;
    for (size_t pos = text.find(old_text);
         pos != std::string_view::npos && (count < 0 || static_cast<int64_t>(matches) < count);
         pos = text.find(old_text, pos + old_text.size())) {
      ++matches;
    }
    if (matches > 0 &&
        (text.size() > kMaxValueSize ||
         new_text.size() - old_text.size() > (kMaxValueSize - text.size()) / matches)) {
      throw TemplateError{kUnknownOffset, "replace would build a string over the size limit"};
    }
  }
  size_t pos = 0;
  while (may_replace()) {
    const size_t found = text.find(old_text, pos);
    if (found == std::string_view::npos) break;
    out += text.substr(pos, found - pos);
    out += new_text;
    pos = found + old_text.size();
    ++done;
  }
  out += text.substr(pos);
  return out;
}

}  // namespace tcpu::chat_template
