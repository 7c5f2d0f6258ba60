#include "engine/chat_template/methods.h"

#include <string_view>

#include "engine/chat_template/sequence.h"
#include "engine/chat_template/template_error.h"
#include "engine/chat_template/text.h"
#include "engine/chat_template/whitespace.h"

namespace tcpu::chat_template {
namespace {

constexpr std::string_view kStringMethods[] = {"startswith", "endswith", "split",   "strip",
                                               "lstrip",     "rstrip",   "upper",   "lower",
                                               "capitalize", "title",    "replace", "join"};
constexpr std::string_view kDictMethods[] = {"items", "keys", "values", "get"};

[[noreturn]] void Fail(size_t offset, const std::string& method, const std::string& problem) {
  throw TemplateError{offset, "method '" + method + "': " + problem};
}

// startswith/endswith: a string or a tuple (list) of strings.
bool MatchesEdge(const std::string& method, std::string_view text, const Value* pattern,
                 size_t offset) {
  if (pattern == nullptr) Fail(offset, method, "needs an argument");
  const bool at_start = method == "startswith";
  const auto matches = [&](const Value& candidate) {
    if (!candidate.is_string()) Fail(offset, method, "expected a string or a tuple of strings");
    const std::string& p = candidate.string_value();
    if (p.size() > text.size()) return false;
    return at_start ? text.substr(0, p.size()) == p : text.substr(text.size() - p.size()) == p;
  };
  if (!pattern->is_array()) return matches(*pattern);
  for (const Value& candidate : pattern->array()) {
    if (matches(candidate)) return true;
  }
  return false;
}

// str.split(sep=None, maxsplit=-1).
Value Split(const std::string& method, std::string_view text, const Arguments& arguments,
            size_t offset) {
  const Value* separator = arguments.Get(0, "sep");
  const Value* limit = arguments.Get(1, "maxsplit");
  int64_t maxsplit = -1;
  if (limit != nullptr) {
    if (limit->kind() != Value::Kind::kInt) Fail(offset, method, "maxsplit must be an int");
    maxsplit = limit->int_value();
  }
  Array parts;
  const auto room = [&] { return maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit; };
  if (separator == nullptr || separator->is_none()) {
    // Runs of whitespace separate; no empty parts at either end.
    std::string_view rest = TrimWhitespace(text, true, false);
    while (!rest.empty()) {
      if (!room()) {
        parts.push_back(Value::String(std::string(rest)));
        break;
      }
      size_t end = 0;
      while (end < rest.size() && WhitespaceAt(rest, end) == 0) ++end;
      parts.push_back(Value::String(std::string(rest.substr(0, end))));
      rest = TrimWhitespace(rest.substr(end), true, false);
    }
    return Value::NewArray(std::move(parts));
  }
  if (!separator->is_string()) Fail(offset, method, "sep must be a string or none");
  const std::string& sep = separator->string_value();
  if (sep.empty()) Fail(offset, method, "empty separator");
  size_t pos = 0;
  while (room()) {
    const size_t found = text.find(sep, pos);
    if (found == std::string_view::npos) break;
    parts.push_back(Value::String(std::string(text.substr(pos, found - pos))));
    pos = found + sep.size();
  }
  parts.push_back(Value::String(std::string(text.substr(pos))));
  return Value::NewArray(std::move(parts));
}

Value Strip(const std::string& method, std::string_view text, const Arguments& arguments,
            size_t offset) {
  const bool left = method != "rstrip", right = method != "lstrip";
  const Value* chars = arguments.Get(0, "chars");
  if (chars == nullptr || chars->is_none()) {
    return Value::String(std::string(TrimWhitespace(text, left, right)));
  }
  if (!chars->is_string()) Fail(offset, method, "chars must be a string or none");
  return Value::String(std::string(TrimCharacters(text, chars->string_value(), left, right)));
}

Value StringMethod(const std::string& method, const std::string& text, const Arguments& arguments,
                   size_t offset) {
  if (method == "startswith" || method == "endswith") {
    return Value::Bool(MatchesEdge(method, text, arguments.Get(0, "prefix"), offset));
  }
  if (method == "split") return Split(method, text, arguments, offset);
  if (method == "strip" || method == "lstrip" || method == "rstrip") {
    return Strip(method, text, arguments, offset);
  }
  if (method == "upper") return Value::String(ToUpper(text));
  if (method == "lower") return Value::String(ToLower(text));
  if (method == "title") return Value::String(ToTitle(text));
  if (method == "capitalize") return Value::String(Capitalize(text));
  if (method == "replace") {
    const Value* old_text = arguments.Get(0, "old");
    const Value* new_text = arguments.Get(1, "new");
    const Value* count = arguments.Get(2, "count");
    if (old_text == nullptr || new_text == nullptr || !old_text->is_string() ||
        !new_text->is_string()) {
      Fail(offset, method, "needs two strings");
    }
    if (count != nullptr && count->kind() != Value::Kind::kInt) {
      Fail(offset, method, "count must be an int");
    }
    return Value::String(Replace(text, old_text->string_value(), new_text->string_value(),
                                 count != nullptr ? count->int_value() : -1));
  }
  // join
  const Value* items = arguments.Get(0, "iterable");
  if (items == nullptr) Fail(offset, method, "needs an argument");
  std::string out;
  bool first = true;
  for (const Value& item : Iterate(*items, offset)) {
    if (!item.is_string()) Fail(offset, method, "items must be strings");
    if (!first) out += text;
    first = false;
    out += item.string_value();
  }
  return Value::String(std::move(out));
}

Value DictMethod(const std::string& method, const Value& dict, const Arguments& arguments,
                 size_t offset) {
  if (method == "get") {
    const Value* key = arguments.Get(0, "key");
    if (key == nullptr) Fail(offset, method, "needs a key");
    const Value* found = key->is_string() ? dict.Find(key->string_value()) : nullptr;
    if (found != nullptr) return *found;
    const Value* fallback = arguments.Get(1, "default");
    return fallback != nullptr ? *fallback : Value::None();
  }
  Array items;
  for (const auto& [key, value] : dict.object()) {
    if (method == "items") {
      items.push_back(Value::NewArray({Value::String(key), value}));
    } else {
      items.push_back(method == "keys" ? Value::String(key) : value);
    }
  }
  return Value::NewArray(std::move(items));
}

}  // namespace

bool HasMethod(const Value& receiver, const std::string& name) {
  if (receiver.is_string()) {
    for (std::string_view method : kStringMethods) {
      if (name == method) return true;
    }
  }
  if (receiver.is_object() && !receiver.is_namespace()) {
    for (std::string_view method : kDictMethods) {
      if (name == method) return true;
    }
  }
  return false;
}

Value CallMethod(const Value& receiver, const std::string& name, const Arguments& arguments,
                 size_t offset) {
  if (!HasMethod(receiver, name)) {
    throw TemplateError{offset,
                        std::string("a ") + receiver.KindName() + " has no method '" + name + "'"};
  }
  if (receiver.is_string()) return StringMethod(name, receiver.string_value(), arguments, offset);
  return DictMethod(name, receiver, arguments, offset);
}

}  // namespace tcpu::chat_template
