// Jinja's filters (`value | name(arguments)`) that chat templates use: trim, tojson,
// length/count, upper, lower, capitalize, title, first, last, join, default/d, string, int,
// float, list, reverse, items, replace, abs, safe.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_FILTERS_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_FILTERS_H_

#include <cstddef>
#include <string>

#include "engine/chat_template/arguments.h"
#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

// Throws TemplateError at `offset` for an unknown filter or a wrong input or argument.
Value ApplyFilter(const std::string& name, const Value& input, const Arguments& arguments,
                  size_t offset);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_FILTERS_H_
