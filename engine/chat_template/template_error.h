// The one error type of the chat-template lexer, parser and evaluator: what went wrong and
// the byte offset in the template source where the construct at fault starts. The public
// API turns the offset into "line:column" (LineColumn) and never lets the exception out.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_TEMPLATE_ERROR_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_TEMPLATE_ERROR_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace tcpu::chat_template {

// The offset of an error raised where the source position is not known (inside a value
// operation); the evaluator fills in the expression's offset before it leaves.
inline constexpr size_t kUnknownOffset = static_cast<size_t>(-1);

// The longest string or list a template may build (a guard against `x * 10**9`).
inline constexpr size_t kMaxValueSize = size_t{64} << 20;

// The deepest nesting of lists and dicts a value may have (recursion stays bounded).
inline constexpr int kMaxValueDepth = 256;

struct TemplateError {
  size_t offset;        // byte offset into the template source
  std::string message;  // e.g. "unsupported statement 'macro'"
};

// "line:column" (both from 1, the column counted in bytes) of `offset` in `source`.
std::string LineColumn(std::string_view source, size_t offset);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_TEMPLATE_ERROR_H_
