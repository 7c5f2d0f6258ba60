#include "engine/chat_template/value_predicates.h"

#include "engine/chat_template/template_error.h"

namespace tcpu::chat_template {
namespace {

bool Contains(const Value& container, const Value& item, size_t offset) {
  if (container.is_string()) {
    if (!item.is_string()) {
      throw TemplateError{
          offset, std::string("'in <string>' needs a string on the left, not ") + item.KindName()};
    }
    return container.string_value().find(item.string_value()) != std::string::npos;
  }
  if (container.is_array()) {
    for (const Value& element : container.array()) {
      if (element.Equals(item)) return true;
    }
    return false;
  }
  if (container.is_object()) return item.is_string() && container.Find(item.string_value());
  throw TemplateError{offset, std::string("'in' needs a string, list or dict on the right, not ") +
                                  container.KindName()};
}

// -1, 0 or 1 for numbers or strings; TemplateError for anything else.
int Order(const Value& left, const Value& right, size_t offset) {
  if (left.is_number() && right.is_number()) {
    if (left.kind() == Value::Kind::kInt && right.kind() == Value::Kind::kInt) {
      return left.int_value() < right.int_value() ? -1 : left.int_value() > right.int_value();
    }
    return left.number_value() < right.number_value() ? -1
                                                      : left.number_value() > right.number_value();
  }
  if (left.is_string() && right.is_string()) {
    const int order = left.string_value().compare(right.string_value());
    return order < 0 ? -1 : order > 0;
  }
  throw TemplateError{offset,
                      std::string("cannot order ") + left.KindName() + " and " + right.KindName()};
}

const Value& Required(const std::string& test, const Arguments& arguments, size_t offset) {
  const Value* argument = arguments.Get(0, "value");
  if (argument == nullptr) throw TemplateError{offset, "test '" + test + "' needs an argument"};
  return *argument;
}

}  // namespace

bool Compare(const std::string& op, const Value& left, const Value& right, size_t offset) {
  if (op == "==") return left.Equals(right);
  if (op == "!=") return !left.Equals(right);
  if (op == "in") return Contains(right, left, offset);
  if (op == "not in") return !Contains(right, left, offset);
  const int order = Order(left, right, offset);
  if (op == "<") return order < 0;
  if (op == ">") return order > 0;
  if (op == "<=") return order <= 0;
  if (op == ">=") return order >= 0;
  throw TemplateError{offset, "unsupported comparison '" + op + "'"};
}

bool ApplyTest(const std::string& name, const Value& input, const Arguments& arguments,
               size_t offset) {
  using Kind = Value::Kind;
  if (name == "defined") return !input.is_undefined();
  if (name == "undefined") return input.is_undefined();
  if (name == "none") return input.is_none();
  if (name == "string") return input.is_string();
  if (name == "number") return input.is_number();
  if (name == "integer") return input.kind() == Kind::kInt;
  if (name == "float") return input.kind() == Kind::kFloat;
  if (name == "boolean") return input.kind() == Kind::kBool;
  if (name == "true") return input.kind() == Kind::kBool && input.bool_value();
  if (name == "false") return input.kind() == Kind::kBool && !input.bool_value();
  if (name == "mapping") return input.is_object();
  if (name == "iterable") return input.is_array() || input.is_string() || input.is_object();
  if (name == "sequence") return input.is_array() || input.is_string() || input.is_object();
  if (name == "odd" || name == "even" || name == "divisibleby") {
    if (input.kind() != Kind::kInt) {
      throw TemplateError{offset, "test '" + name + "' needs an int, not " + input.KindName()};
    }
    int64_t divisor = 2;
    if (name == "divisibleby") {
      const Value& argument = Required(name, arguments, offset);
      if (argument.kind() != Kind::kInt || argument.int_value() == 0) {
        throw TemplateError{offset, "test 'divisibleby' needs a non-zero int"};
      }
      divisor = argument.int_value();
    }
    // Compared with 0 only, so C++'s sign of % does not matter (and -1 cannot overflow).
    const bool divisible = divisor == -1 || input.int_value() % divisor == 0;
    return name == "odd" ? !divisible : divisible;
  }
  static const std::pair<const char*, const char*> kComparisons[] = {
      {"eq", "=="}, {"equalto", "=="}, {"==", "=="}, {"ne", "!="}, {"!=", "!="},
      {"lt", "<"},  {"gt", ">"},       {"le", "<="}, {"ge", ">="}, {"in", "in"}};
  for (const auto& [test, op] : kComparisons) {
    if (name == test) return Compare(op, input, Required(name, arguments, offset), offset);
  }
  throw TemplateError{offset, "unsupported test '" + name + "'"};
}

}  // namespace tcpu::chat_template
