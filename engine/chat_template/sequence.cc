#include "engine/chat_template/sequence.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chat_template/template_error.h"
#include "engine/chat_template/text.h"

namespace tcpu::chat_template {

Array Iterate(const Value& value, size_t offset) {
  if (value.is_array()) return value.array();
  Array items;
  if (value.is_undefined()) return items;  // Jinja's Undefined iterates as empty
  if (value.is_string()) {
    for (std::string_view character : SplitCharacters(value.string_value())) {
      items.push_back(Value::String(std::string(character)));
    }
    return items;
  }
  if (value.is_object()) {
    for (const auto& entry : value.object()) items.push_back(Value::String(entry.first));
    return items;
  }
  throw TemplateError{offset,
                      std::string("cannot iterate over a value of type ") + value.KindName()};
}

Value Index(const Value& value, const Value& index, size_t offset) {
  if (value.is_object()) {
    if (!index.is_string()) return Value();
    const Value* found = value.Find(index.string_value());
    return found != nullptr ? *found : Value();
  }
  if (!value.is_array() && !value.is_string()) {
    throw TemplateError{offset, std::string("cannot index a value of type ") + value.KindName()};
  }
  if (index.kind() != Value::Kind::kInt) {
    throw TemplateError{offset, std::string("a ") + value.KindName() +
                                    " index must be an int, not " + index.KindName()};
  }
  if (value.is_array()) {
    const int64_t size = static_cast<int64_t>(value.array().size());
    const int64_t i = index.int_value() < 0 ? index.int_value() + size : index.int_value();
    if (i < 0 || i >= size) return Value();
    return value.array()[static_cast<size_t>(i)];
  }
  const std::vector<std::string_view> characters = SplitCharacters(value.string_value());
  const int64_t size = static_cast<int64_t>(characters.size());
  const int64_t i = index.int_value() < 0 ? index.int_value() + size : index.int_value();
  if (i < 0 || i >= size) return Value();
  return Value::String(std::string(characters[static_cast<size_t>(i)]));
}

namespace {

// Python's slice.indices(): the first index and the count of items a slice selects.
void SliceBounds(int64_t size, std::optional<int64_t> start, std::optional<int64_t> stop,
                 int64_t step, int64_t* first, int64_t* count) {
  const auto clamp = [&](std::optional<int64_t> bound, int64_t fallback) {
    if (!bound) return fallback;
    int64_t i = *bound;
    if (i < 0) i = i < -size ? (step < 0 ? -1 : 0) : i + size;
    if (i >= size) i = step < 0 ? size - 1 : size;
    return i;
  };
  const int64_t begin = clamp(start, step < 0 ? size - 1 : 0);
  const int64_t end = clamp(stop, step < 0 ? -1 : size);
  *first = begin;
  if (step > 0) {
    *count = end > begin ? (end - begin - 1) / step + 1 : 0;
  } else {
    const int64_t stride = step == INT64_MIN ? INT64_MAX : -step;  // no overflow negating
    *count = begin > end ? (begin - end - 1) / stride + 1 : 0;
  }
}

}  // namespace

Value Slice(const Value& value, std::optional<int64_t> start, std::optional<int64_t> stop,
            std::optional<int64_t> step, size_t offset) {
  const int64_t stride = step.value_or(1);
  if (stride == 0) throw TemplateError{offset, "slice step cannot be zero"};
  if (value.is_array()) {
    int64_t first = 0, count = 0;
    SliceBounds(static_cast<int64_t>(value.array().size()), start, stop, stride, &first, &count);
    Array items;
    for (int64_t k = 0; k < count; ++k) {
      items.push_back(value.array()[static_cast<size_t>(first + k * stride)]);
    }
    return Value::NewArray(std::move(items));
  }
  if (value.is_string()) {
    const std::vector<std::string_view> characters = SplitCharacters(value.string_value());
    int64_t first = 0, count = 0;
    SliceBounds(static_cast<int64_t>(characters.size()), start, stop, stride, &first, &count);
    std::string text;
    for (int64_t k = 0; k < count; ++k) text += characters[static_cast<size_t>(first + k * stride)];
    return Value::String(std::move(text));
  }
  throw TemplateError{offset, std::string("cannot slice a value of type ") + value.KindName()};
}

int64_t Length(const Value& value, size_t offset) {
  if (value.is_undefined()) return 0;  // as len() of Jinja's Undefined
  if (value.is_string()) return static_cast<int64_t>(SplitCharacters(value.string_value()).size());
  if (value.is_array()) return static_cast<int64_t>(value.array().size());
  if (value.is_object()) return static_cast<int64_t>(value.object().size());
  throw TemplateError{offset,
                      std::string("a value of type ") + value.KindName() + " has no length"};
}

}  // namespace tcpu::chat_template
