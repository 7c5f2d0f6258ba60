// Python methods that chat templates call on values: on strings startswith, endswith,
// split, strip, lstrip, rstrip, upper, lower, title, capitalize, replace, join; on dicts
// items, keys, values, get.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_METHODS_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_METHODS_H_

#include <cstddef>
#include <string>

#include "engine/chat_template/arguments.h"
#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

// Whether `receiver.name(...)` is one of the methods above.
bool HasMethod(const Value& receiver, const std::string& name);

// Calls it; throws TemplateError at `offset` for a wrong argument.
Value CallMethod(const Value& receiver, const std::string& name, const Arguments& arguments,
                 size_t offset);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_METHODS_H_
