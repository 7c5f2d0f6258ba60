#include "engine/chat_template/template_error.h"

#include <algorithm>

namespace tcpu::chat_template {

std::string LineColumn(std::string_view source, size_t offset) {
  offset = std::min(offset, source.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (source[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

}  // namespace tcpu::chat_template
