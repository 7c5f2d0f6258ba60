#include "engine/chat_template/evaluator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/chat_template/arguments.h"
#include "engine/chat_template/filters.h"
#include "engine/chat_template/methods.h"
#include "engine/chat_template/sequence.h"
#include "engine/chat_template/template_error.h"
#include "engine/chat_template/value_predicates.h"

namespace tcpu::chat_template {
namespace {

using ExprKind = Expression::Kind;

[[noreturn]] void Fail(size_t offset, std::string message) {
  throw TemplateError{offset, std::move(message)};
}

// Python's floor division and modulo on ints; false on division by zero or overflow.
bool FloorDivide(int64_t a, int64_t b, int64_t* quotient, int64_t* remainder) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return false;
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) {
    --q;
    r += b;
  }
  *quotient = q;
  *remainder = r;
  return true;
}

class Evaluator {
 public:
  Evaluator(const Object& variables, const EvaluationLimits& limits) : limits_(limits) {
    scopes_.emplace_back();
    for (const auto& [name, value] : variables) scopes_.back()[name] = value;
  }

  std::string Run(const Body& program) {
    Execute(program);
    return std::move(output_);
  }

 private:
  void Tick(size_t offset, int64_t steps = 1) {
    steps_ += steps;
    if (steps_ > limits_.max_steps) {
      Fail(offset, "the template runs longer than " + std::to_string(limits_.max_steps) + " steps");
    }
  }

  void Emit(std::string_view text, size_t offset) {
    if (text.size() > limits_.max_output_bytes - output_.size()) {
      Fail(offset, "the output exceeds " + std::to_string(limits_.max_output_bytes) + " bytes");
    }
    output_.append(text);
  }

  void Execute(const Body& body) {
    for (const auto& statement : body) ExecuteStatement(*statement);
  }

  void ExecuteStatement(const Statement& statement) {
    Tick(statement.offset);
    switch (statement.kind) {
      case Statement::Kind::kText:
        Emit(statement.text, statement.offset);
        return;
      case Statement::Kind::kOutput:
        Emit(Eval(*statement.expression).ToString(), statement.offset);
        return;
      case Statement::Kind::kIf:
        for (size_t i = 0; i < statement.conditions.size(); ++i) {
          if (Eval(*statement.conditions[i]).Truthy()) {
            Execute(statement.bodies[i]);
            return;
          }
        }
        if (statement.bodies.size() > statement.conditions.size()) {
          Execute(statement.bodies.back());
        }
        return;
      case Statement::Kind::kFor:
        ExecuteFor(statement);
        return;
      case Statement::Kind::kSet:
        ExecuteSet(statement);
        return;
    }
  }

  void ExecuteFor(const Statement& statement) {
    const Array all = Iterate(Eval(*statement.expression), statement.expression->offset);
    scopes_.emplace_back();
    // The loop's own scope lives for the whole loop (so does a `set` inside it).
    struct ScopeGuard {
      std::vector<std::unordered_map<std::string, Value>>* scopes;
      ~ScopeGuard() { scopes->pop_back(); }
    } guard{&scopes_};
    Array items;
    for (const Value& item : all) {
      Tick(statement.offset);
      if (statement.condition) {
        Bind(statement, item);
        if (!Eval(*statement.condition).Truthy()) continue;
      }
      items.push_back(item);
    }
    const int64_t length = static_cast<int64_t>(items.size());
    for (int64_t i = 0; i < length; ++i) {
      Tick(statement.offset);
      const size_t index = static_cast<size_t>(i);
      scopes_.back()["loop"] = Value::NewObject({
          {"index", Value::Int(i + 1)},
          {"index0", Value::Int(i)},
          {"revindex", Value::Int(length - i)},
          {"revindex0", Value::Int(length - i - 1)},
          {"first", Value::Bool(i == 0)},
          {"last", Value::Bool(i == length - 1)},
          {"length", Value::Int(length)},
          {"previtem", i > 0 ? items[index - 1] : Value()},
          {"nextitem", i + 1 < length ? items[index + 1] : Value()},
      });
      Bind(statement, items[index]);
      Execute(statement.bodies[0]);
    }
    if (items.empty() && statement.bodies.size() > 1) Execute(statement.bodies[1]);
  }

  // Binds the loop variables to `item` (unpacking a list when there are several).
  void Bind(const Statement& statement, const Value& item) {
    auto& scope = scopes_.back();
    if (statement.targets.size() == 1) {
      scope[statement.targets[0]] = item;
      return;
    }
    if (!item.is_array() || item.array().size() != statement.targets.size()) {
      Fail(statement.offset, "cannot unpack a " + std::string(item.KindName()) + " into " +
                                 std::to_string(statement.targets.size()) + " loop variables");
    }
    for (size_t i = 0; i < statement.targets.size(); ++i) {
      scope[statement.targets[i]] = item.array()[i];
    }
  }

  void ExecuteSet(const Statement& statement) {
    Value value = Eval(*statement.expression);
    const std::string& name = statement.targets[0];
    if (statement.attribute.empty()) {
      scopes_.back()[name] = std::move(value);
      return;
    }
    const Value target = Lookup(name);
    if (!target.is_namespace()) {
      Fail(statement.offset, "cannot set attribute '" + statement.attribute + "' of '" + name +
                                 "', a " + target.KindName() + " (only a namespace has them)");
    }
    try {
      target.Set(statement.attribute, std::move(value));
    } catch (TemplateError& error) {
      error.offset = statement.offset;
      throw;
    }
  }

  Value Lookup(const std::string& name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      const auto found = scope->find(name);
      if (found != scope->end()) return found->second;
    }
    return Value();
  }

  bool IsDefined(const std::string& name) const {
    for (const auto& scope : scopes_) {
      if (scope.count(name) != 0) return true;
    }
    return false;
  }

  // Evaluates `expression`, giving errors raised inside value operations its offset.
  Value Eval(const Expression& expression) {
    try {
      return EvalUnchecked(expression);
    } catch (TemplateError& error) {
      if (error.offset == kUnknownOffset) error.offset = expression.offset;
      throw;
    }
  }

  Value EvalUnchecked(const Expression& e) {
    switch (e.kind) {
      case ExprKind::kLiteral:
        return e.literal;
      case ExprKind::kName:
        return Lookup(e.name);
      case ExprKind::kList:
      case ExprKind::kTuple: {
        Array items;
        for (const auto& item : e.items) items.push_back(Eval(*item));
        return Value::NewArray(std::move(items));
      }
      case ExprKind::kDict: {
        Object entries;
        for (size_t i = 0; i + 1 < e.items.size(); i += 2) {
          const Value key = Eval(*e.items[i]);
          if (!key.is_string()) {
            Fail(e.items[i]->offset,
                 std::string("dict keys must be strings, not ") + key.KindName());
          }
          entries.emplace_back(key.string_value(), Eval(*e.items[i + 1]));
        }
        return Value::NewObject(std::move(entries));
      }
      case ExprKind::kAttribute:
        return Attribute(Eval(*e.items[0]), e.name, e.offset);
      case ExprKind::kIndex:
        return Index(Eval(*e.items[0]), Eval(*e.items[1]), e.offset);
      case ExprKind::kSlice: {
        const Value object = Eval(*e.items[0]);
        return Slice(object, SliceBound(e.items[1].get()), SliceBound(e.items[2].get()),
                     SliceBound(e.items[3].get()), e.offset);
      }
      case ExprKind::kCall:
        return Call(e);
      case ExprKind::kFilter:
        return ApplyFilter(e.name, Eval(*e.items[0]), EvalArguments(e), e.offset);
      case ExprKind::kTest:
        return Value::Bool(ApplyTest(e.name, Eval(*e.items[0]), EvalArguments(e), e.offset) !=
                           e.negated);
      case ExprKind::kUnary:
        return Unary(e);
      case ExprKind::kBinary:
        return Binary(e.name, Eval(*e.items[0]), Eval(*e.items[1]), e.offset);
      case ExprKind::kAnd: {
        Value left = Eval(*e.items[0]);
        return left.Truthy() ? Eval(*e.items[1]) : left;
      }
      case ExprKind::kOr: {
        Value left = Eval(*e.items[0]);
        return left.Truthy() ? left : Eval(*e.items[1]);
      }
      case ExprKind::kConditional:
        if (Eval(*e.items[1]).Truthy()) return Eval(*e.items[0]);
        return e.items[2] ? Eval(*e.items[2]) : Value();
    }
    Fail(e.offset, "unknown expression");
  }

  std::optional<int64_t> SliceBound(const Expression* bound) {
    if (bound == nullptr) return std::nullopt;
    const Value value = Eval(*bound);
    if (value.is_none()) return std::nullopt;
    if (value.kind() != Value::Kind::kInt) {
      Fail(bound->offset, std::string("slice bounds must be ints, not ") + value.KindName());
    }
    return value.int_value();
  }

  // `object.name`: a dict's entry, else (for `x.0`) an item; undefined when missing.
  static Value Attribute(const Value& object, const std::string& name, size_t offset) {
    if (object.is_undefined() || object.is_none()) {
      Fail(offset, "cannot read attribute '" + name + "' of " +
                       (object.is_none() ? "none" : "an undefined value"));
    }
    if (object.is_object()) {
      const Value* found = object.Find(name);
      return found != nullptr ? *found : Value();
    }
    if ((object.is_array() || object.is_string()) && !name.empty() && name[0] >= '0' &&
        name[0] <= '9') {
      return Index(object, Value::Int(std::strtoll(name.c_str(), nullptr, 10)), offset);
    }
    return Value();
  }

  Arguments EvalArguments(const Expression& e) {
    Arguments arguments;
    // items[0] is the callee or the filtered value.
    for (size_t i = 1; i < e.items.size(); ++i) arguments.positional.push_back(Eval(*e.items[i]));
    for (size_t i = 0; i < e.keyword_names.size(); ++i) {
      arguments.keywords.emplace_back(e.keyword_names[i], Eval(*e.keyword_values[i]));
    }
    return arguments;
  }

  Value Call(const Expression& e) {
    const Expression& callee = *e.items[0];
    if (callee.kind == ExprKind::kAttribute) {
      const Value receiver = Eval(*callee.items[0]);
      if (HasMethod(receiver, callee.name)) {
        return CallMethod(receiver, callee.name, EvalArguments(e), e.offset);
      }
      Fail(e.offset,
           std::string("a ") + receiver.KindName() + " has no method '" + callee.name + "'");
    }
    if (callee.kind != ExprKind::kName || IsDefined(callee.name)) {
      Fail(e.offset, "only functions and methods can be called");
    }
    const Arguments arguments = EvalArguments(e);
    if (callee.name == "raise_exception") {
      const Value* message = arguments.Get(0, "message");
      Fail(e.offset, "raise_exception: " + (message != nullptr ? message->ToString() : ""));
    }
    if (callee.name == "namespace") {
      if (!arguments.positional.empty()) {
        Fail(e.offset, "namespace() takes keyword arguments only");
      }
      Object entries(arguments.keywords.begin(), arguments.keywords.end());
      return Value::NewNamespace(std::move(entries));
    }
    if (callee.name == "range") return Range(arguments, e.offset);
    Fail(e.offset, "unsupported function '" + callee.name + "'");
  }

  Value Range(const Arguments& arguments, size_t offset) {
    const size_t count = arguments.positional.size();
    if (count < 1 || count > 3 || !arguments.keywords.empty()) {
      Fail(offset, "range() takes 1 to 3 int arguments");
    }
    int64_t bounds[3] = {0, 0, 1};
    for (size_t i = 0; i < count; ++i) {
      if (arguments.positional[i].kind() != Value::Kind::kInt) {
        Fail(offset, "range() takes 1 to 3 int arguments");
      }
    }
    if (count == 1) {
      bounds[1] = arguments.positional[0].int_value();
    } else {
      for (size_t i = 0; i < count; ++i) bounds[i] = arguments.positional[i].int_value();
    }
    const int64_t start = bounds[0], stop = bounds[1], step = bounds[2];
    if (step == 0) Fail(offset, "range() step must not be zero");
    Array items;
    for (int64_t i = start; step > 0 ? i < stop : i > stop;) {
      Tick(offset);
      items.push_back(Value::Int(i));
      if (__builtin_add_overflow(i, step, &i)) break;
    }
    return Value::NewArray(std::move(items));
  }

  Value Unary(const Expression& e) {
    const Value operand = Eval(*e.items[0]);
    if (e.name == "not") return Value::Bool(!operand.Truthy());
    if (operand.kind() == Value::Kind::kInt) {
      if (e.name == "+") return operand;
      if (operand.int_value() == INT64_MIN) Fail(e.offset, "integer overflow");
      return Value::Int(-operand.int_value());
    }
    if (operand.kind() == Value::Kind::kFloat) {
      return Value::Float(e.name == "+" ? operand.number_value() : -operand.number_value());
    }
    Fail(e.offset, "unary '" + e.name + "' needs a number, not " + operand.KindName());
  }

  Value Binary(const std::string& op, const Value& left, const Value& right, size_t offset) {
    if (op == "~") return CheckedString(left.ToString() + right.ToString(), offset);
    if (op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=" ||
        op == "in" || op == "not in") {
      return Value::Bool(Compare(op, left, right, offset));
    }
    if (op == "+") {
      if (left.is_string() && right.is_string()) {
        if (right.string_value().size() > kMaxValueSize - left.string_value().size()) {
          Fail(offset, "a string over the size limit");
        }
        return Value::String(left.string_value() + right.string_value());
      }
      if (left.is_array() && right.is_array()) {
        if (right.array().size() > kMaxValueSize - left.array().size()) {
          Fail(offset, "a list over the size limit");
        }
        Array items = left.array();
        items.insert(items.end(), right.array().begin(), right.array().end());
        return Value::NewArray(std::move(items));
      }
    }
    if (op == "*" &&
        (left.is_string() || left.is_array() || right.is_string() || right.is_array())) {
      return Repeat(left.is_string() || left.is_array() ? left : right,
                    left.is_string() || left.is_array() ? right : left, offset);
    }
    if (!left.is_number() || !right.is_number()) {
      Fail(offset, "unsupported operand types for '" + op + "': " + left.KindName() + " and " +
                       right.KindName());
    }
    if (left.kind() == Value::Kind::kInt && right.kind() == Value::Kind::kInt && op != "/") {
      return IntegerArithmetic(op, left.int_value(), right.int_value(), offset);
    }
    const double a = left.number_value(), b = right.number_value();
    if (op == "+") return Value::Float(a + b);
    if (op == "-") return Value::Float(a - b);
    if (op == "*") return Value::Float(a * b);
    if (op == "**") return Value::Float(std::pow(a, b));
    if (b == 0) Fail(offset, "division by zero");
    if (op == "/") return Value::Float(a / b);
    const double quotient = std::floor(a / b);
    if (op == "//") return Value::Float(quotient);
    return Value::Float(a - quotient * b);  // %
  }

  static Value IntegerArithmetic(const std::string& op, int64_t a, int64_t b, size_t offset) {
    int64_t result = 0;
    bool overflow = false;
    if (op == "+") {
      overflow = __builtin_add_overflow(a, b, &result);
    } else if (op == "-") {
      overflow = __builtin_sub_overflow(a, b, &result);
    } else if (op == "*") {
      overflow = __builtin_mul_overflow(a, b, &result);
    } else if (op == "**") {
      if (b < 0) return Value::Float(std::pow(static_cast<double>(a), static_cast<double>(b)));
      // 0, 1 and -1 never overflow; any other base does within 64 multiplications.
      if (a == 0 || a == 1) return Value::Int(b == 0 ? 1 : a);
      if (a == -1) return Value::Int(b % 2 == 0 ? 1 : -1);
      result = 1;
      for (int64_t i = 0; i < b && !overflow; ++i) {
        overflow = __builtin_mul_overflow(result, a, &result);
      }
    } else {  // "//" and "%"
      int64_t quotient = 0, remainder = 0;
      if (!FloorDivide(a, b, &quotient, &remainder)) {
        Fail(offset, b == 0 ? "division by zero" : "integer overflow");
      }
      return Value::Int(op == "//" ? quotient : remainder);
    }
    if (overflow) Fail(offset, "integer overflow in '" + op + "'");
    return Value::Int(result);
  }

  Value Repeat(const Value& sequence, const Value& times, size_t offset) {
    if (times.kind() != Value::Kind::kInt) {
      Fail(offset, std::string("can only repeat a sequence an int number of times, not ") +
                       times.KindName());
    }
    const int64_t count = std::max<int64_t>(times.int_value(), 0);
    const size_t unit =
        sequence.is_string() ? sequence.string_value().size() : sequence.array().size();
    if (unit != 0 && static_cast<uint64_t>(count) > kMaxValueSize / unit) {
      Fail(offset, "a repeated sequence over the size limit");
    }
    if (sequence.is_string()) {
      std::string text;
      for (int64_t i = 0; i < count; ++i) text += sequence.string_value();
      return Value::String(std::move(text));
    }
    Array items;
    for (int64_t i = 0; i < count && unit != 0; ++i) {
      items.insert(items.end(), sequence.array().begin(), sequence.array().end());
    }
    return Value::NewArray(std::move(items));
  }

  static Value CheckedString(std::string text, size_t offset) {
    if (text.size() > kMaxValueSize) Fail(offset, "a string over the size limit");
    return Value::String(std::move(text));
  }

  const EvaluationLimits limits_;
  std::vector<std::unordered_map<std::string, Value>> scopes_;
  std::string output_;
  int64_t steps_ = 0;
};

}  // namespace

std::string Evaluate(const Body& program, const Object& variables, const EvaluationLimits& limits) {
  return Evaluator(variables, limits).Run(program);
}

}  // namespace tcpu::chat_template
