// Python's sequence protocol on template values: iteration, `x[i]` and `x[a:b:c]` over
// lists and strings (strings by character), dict keys and item lookup.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_SEQUENCE_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_SEQUENCE_H_

#include <cstddef>
#include <optional>

#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

// The items a `for` loop visits: a list's items, a string's characters, a dict's keys,
// nothing for undefined (as Jinja's Undefined). Throws TemplateError at `offset` for anything else.
Array Iterate(const Value& value, size_t offset);

// `value[index]`: list or string by (negative-capable) int, dict by key. Undefined when the
// index is out of range or the key missing, as Jinja; TemplateError for a wrong type.
Value Index(const Value& value, const Value& index, size_t offset);

// `value[start:stop:step]` on a list or string, Python's rules (step 0 is an error).
Value Slice(const Value& value, std::optional<int64_t> start, std::optional<int64_t> stop,
            std::optional<int64_t> step, size_t offset);

// `len(value)` for strings (characters), lists and dicts, 0 for undefined; TemplateError
// otherwise.
int64_t Length(const Value& value, size_t offset);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_SEQUENCE_H_
