// Jinja's tests, predicates over values (`value is [not] name(arguments)`), that chat
// templates use: defined, undefined, none, string, number, integer, float, boolean, true,
// false, mapping, iterable, sequence, odd, even, divisibleby, eq/equalto/==, ne/!=, lt, gt, le,
// ge, in.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_VALUE_PREDICATES_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_VALUE_PREDICATES_H_

#include <cstddef>
#include <string>

#include "engine/chat_template/arguments.h"
#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

// Throws TemplateError at `offset` for an unknown test or a missing or wrong argument.
bool ApplyTest(const std::string& name, const Value& input, const Arguments& arguments,
               size_t offset);

// `left op right` for op in == != < > <= >= in, "not in" (shared with the evaluator).
bool Compare(const std::string& op, const Value& left, const Value& right, size_t offset);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_VALUE_PREDICATES_H_
