#include "engine/chat_template/filters.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/chat_template/sequence.h"
#include "engine/chat_template/template_error.h"
#include "engine/chat_template/text.h"
#include "engine/chat_template/whitespace.h"

namespace tcpu::chat_template {
namespace {

[[noreturn]] void Fail(size_t offset, const std::string& filter, const std::string& problem) {
  throw TemplateError{offset, "filter '" + filter + "': " + problem};
}

// Jinja's string filters read any value as its str() (undefined as ""), as Python does.
std::string StringInput(const Value& input) { return input.ToString(); }

std::string StringArgument(const std::string& filter, const Value* argument, std::string_view what,
                           size_t offset) {
  if (argument == nullptr || !argument->is_string()) {
    Fail(offset, filter, "argument '" + std::string(what) + "' must be a string");
  }
  return argument->string_value();
}

Value ReplaceAll(const std::string& filter, const Value& input, const Arguments& arguments,
                 size_t offset) {
  const std::string text = StringInput(input);
  const std::string old_text = StringArgument(filter, arguments.Get(0, "old"), "old", offset);
  const std::string new_text = StringArgument(filter, arguments.Get(1, "new"), "new", offset);
  const Value* count_value = arguments.Get(2, "count");
  int64_t count = -1;
  if (count_value != nullptr && !count_value->is_none()) {
    if (count_value->kind() != Value::Kind::kInt) Fail(offset, filter, "count must be an int");
    count = count_value->int_value();
  }
  return Value::String(Replace(text, old_text, new_text, count));
}

Value Join(const std::string& filter, const Value& input, const Arguments& arguments,
           size_t offset) {
  const Value* separator_value = arguments.Get(0, "d");
  const std::string separator =
      separator_value == nullptr ? "" : StringArgument(filter, separator_value, "d", offset);
  std::string out;
  bool first = true;
  for (const Value& item : Iterate(input, offset)) {
    if (!first) out += separator;
    first = false;
    out += item.ToString();
  }
  return Value::String(std::move(out));
}

Value ToInt(const Value& input, const Arguments& arguments) {
  const Value* fallback = arguments.Get(0, "default");
  const Value zero = fallback != nullptr ? *fallback : Value::Int(0);
  switch (input.kind()) {
    case Value::Kind::kInt:
      return input;
    case Value::Kind::kBool:
      return Value::Int(input.bool_value() ? 1 : 0);
    case Value::Kind::kFloat: {
      const double truncated = std::trunc(input.number_value());
      if (!(std::fabs(truncated) < 9.2e18)) return zero;
      return Value::Int(static_cast<int64_t>(truncated));
    }
    case Value::Kind::kString: {
      const std::string text(TrimWhitespace(input.string_value(), true, true));
      if (text.empty()) return zero;
      char* end = nullptr;
      errno = 0;
      const long long value = std::strtoll(text.c_str(), &end, 10);
      if (errno == 0 && *end == '\0') return Value::Int(value);
      const double real = std::strtod(text.c_str(), &end);
      if (*end == '\0' && std::fabs(real) < 9.2e18) {
        return Value::Int(static_cast<int64_t>(std::trunc(real)));
      }
      return zero;
    }
    default:
      return zero;
  }
}

Value ToFloat(const Value& input, const Arguments& arguments) {
  const Value* fallback = arguments.Get(0, "default");
  const Value zero = fallback != nullptr ? *fallback : Value::Float(0);
  if (input.is_number()) return Value::Float(input.number_value());
  if (input.is_string()) {
    const std::string text(TrimWhitespace(input.string_value(), true, true));
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (!text.empty() && *end == '\0') return Value::Float(value);
  }
  return zero;
}

Value ToJson(const std::string& filter, const Value& input, const Arguments& arguments,
             size_t offset) {
  const Value* indent = arguments.Get(0, "indent");
  int width = -1;
  if (indent != nullptr && !indent->is_none()) {
    if (indent->kind() != Value::Kind::kInt || indent->int_value() < 0 ||
        indent->int_value() > 64) {
      Fail(offset, filter, "indent must be an int from 0 to 64");
    }
    width = static_cast<int>(indent->int_value());
  }
  return Value::String(input.ToJson(width));
}

}  // namespace

Value ApplyFilter(const std::string& name, const Value& input, const Arguments& arguments,
                  size_t offset) {
  if (name == "trim") {
    const std::string text = StringInput(input);
    const Value* chars = arguments.Get(0, "chars");
    if (chars == nullptr || chars->is_none()) {
      return Value::String(std::string(TrimWhitespace(text, true, true)));
    }
    const std::string set = StringArgument(name, chars, "chars", offset);
    return Value::String(std::string(TrimCharacters(text, set, true, true)));
  }
  if (name == "tojson") return ToJson(name, input, arguments, offset);
  if (name == "length" || name == "count") return Value::Int(Length(input, offset));
  if (name == "upper") return Value::String(ToUpper(StringInput(input)));
  if (name == "lower") return Value::String(ToLower(StringInput(input)));
  if (name == "title") return Value::String(ToTitle(StringInput(input)));
  if (name == "capitalize") return Value::String(Capitalize(StringInput(input)));
  if (name == "first" || name == "last") {
    const Array items = Iterate(input, offset);
    if (items.empty()) return Value();
    return name == "first" ? items.front() : items.back();
  }
  if (name == "join") return Join(name, input, arguments, offset);
  if (name == "default" || name == "d") {
    const Value* fallback = arguments.Get(0, "default_value");
    const Value* boolean = arguments.Get(1, "boolean");
    const bool use_fallback =
        (boolean != nullptr && boolean->Truthy()) ? !input.Truthy() : input.is_undefined();
    if (!use_fallback) return input;
    return fallback != nullptr ? *fallback : Value::String("");
  }
  if (name == "string") return Value::String(input.ToString());
  if (name == "safe") return input;
  if (name == "int") return ToInt(input, arguments);
  if (name == "float") return ToFloat(input, arguments);
  if (name == "list") return Value::NewArray(Iterate(input, offset));
  if (name == "reverse") {
    if (input.is_string()) {
      return Slice(input, std::nullopt, std::nullopt, int64_t{-1}, offset);
    }
    Array items = Iterate(input, offset);
    return Value::NewArray(Array(items.rbegin(), items.rend()));
  }
  if (name == "items") {
    if (!input.is_object())
      Fail(offset, name, std::string("expected a dict, got ") + input.KindName());
    Array pairs;
    for (const auto& [key, value] : input.object()) {
      pairs.push_back(Value::NewArray({Value::String(key), value}));
    }
    return Value::NewArray(std::move(pairs));
  }
  if (name == "replace") return ReplaceAll(name, input, arguments, offset);
  if (name == "abs") {
    if (input.kind() == Value::Kind::kInt && input.int_value() != INT64_MIN) {
      return Value::Int(std::llabs(input.int_value()));
    }
    if (input.is_number()) return Value::Float(std::fabs(input.number_value()));
    Fail(offset, name, std::string("expected a number, got ") + input.KindName());
  }
  throw TemplateError{offset, "unsupported filter '" + name + "'"};
}

}  // namespace tcpu::chat_template
