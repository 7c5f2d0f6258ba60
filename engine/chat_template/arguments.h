// The evaluated arguments of a call, filter or test: positional values, then keywords.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_ARGUMENTS_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_ARGUMENTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

struct Arguments {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keywords;

  // The argument at `index` or named `name` (Python's binding), or nullptr if not given.
  const Value* Get(size_t index, std::string_view name) const {
    if (index < positional.size()) return &positional[index];
    for (const auto& [keyword, value] : keywords) {
      if (keyword == name) return &value;
    }
    return nullptr;
  }
};

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_ARGUMENTS_H_
