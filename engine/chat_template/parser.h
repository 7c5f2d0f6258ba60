// Tokens to a syntax tree: the statements `if`/`elif`/`else`, `for ... in ... [if ...]`
// with `else`, `set name = ...` and `set ns.attribute = ...`, and Jinja's expressions with
// its precedence (conditional, or, and, not, comparisons and `in`, + -, ~, * / // %, **,
// unary - +, then attributes, subscripts, slices, calls, filters and `is` tests).
// Anything else (macro, call, block, include, break, ...) is an error naming the construct.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_PARSER_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_PARSER_H_

#include <vector>

#include "engine/chat_template/ast.h"
#include "engine/chat_template/lexer.h"

namespace tcpu::chat_template {

// Throws TemplateError naming the offending token's offset.
Body Parse(const std::vector<Token>& tokens);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_PARSER_H_
