// Chat-template source to tokens, as Hugging Face's Jinja environment reads it
// (trim_blocks and lstrip_blocks on, one trailing newline dropped): text between tags, the
// tag delimiters, and inside tags names, numbers, strings and operators. `{%-`, `-%}`,
// `{{-`, `-}}`, `{#-`, `-#}` strip the whitespace next to them here, so the parser never
// sees it. Every token keeps the byte offset of its start in the original source.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_LEXER_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tcpu::chat_template {

enum class TokenKind {
  kText,             // literal output between tags
  kComment,          // {# ... #}: no output, but it separates texts as Jinja does
  kBlockOpen,        // {%
  kBlockClose,       // %}
  kExpressionOpen,   // {{
  kExpressionClose,  // }}
  kName,             // identifiers and keywords (if, for, not, in, is, true, ...)
  kInteger,
  kFloat,
  kString,    // the value with escapes resolved
  kOperator,  // ( ) [ ] { } , . : | + - ~ * / // % ** == != < > <= >= =
  kEnd,
};

struct Token {
  TokenKind kind;
  std::string text;
  size_t offset;  // in the original source
};

// Throws TemplateError (an unterminated string or comment, a character that starts no
// token, an unknown escape) naming the offset. The last token is kEnd.
std::vector<Token> Lex(std::string_view source);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_LEXER_H_
