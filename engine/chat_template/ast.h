// The syntax tree of a chat template: statements (text, {{ output }}, if, for, set) over
// expressions. Every node keeps the source offset of the construct it came from, so the
// evaluator's errors point at it.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_AST_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_AST_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

struct Expression;
using ExpressionPtr = std::unique_ptr<Expression>;

struct Expression {
  enum class Kind {
    kLiteral,      // literal
    kName,         // name
    kList,         // [items...]
    kTuple,        // (items...): a list that prints as a tuple would, used by `in`
    kDict,         // {items[0]: items[1], ...} (keys and values alternate)
    kAttribute,    // items[0].name
    kIndex,        // items[0][items[1]]
    kSlice,        // items[0][items[1]:items[2]:items[3]] (missing parts are null)
    kCall,         // items[0](items[1...], keywords...)
    kFilter,       // items[0] | name(items[1...], keywords...)
    kTest,         // items[0] is [not] name(items[1...])
    kUnary,        // op items[0]: "not", "-", "+"
    kBinary,       // items[0] op items[1]: arithmetic, comparison, in, not in, ~
    kAnd,          // items[0] and items[1]
    kOr,           // items[0] or items[1]
    kConditional,  // items[0] if items[1] else items[2] (items[2] may be null)
  };

  Kind kind;
  size_t offset;
  int height = 1;        // 1 + the tallest child: the parser bounds it, so recursion stays shallow
  std::string name;      // the name, attribute, filter, test or operator
  bool negated = false;  // `is not`
  Value literal;
  std::vector<ExpressionPtr> items;
  // Keyword arguments of a call or filter: names beside their values.
  std::vector<std::string> keyword_names;
  std::vector<ExpressionPtr> keyword_values;
};

struct Statement;
using Body = std::vector<std::unique_ptr<Statement>>;

struct Statement {
  enum class Kind {
    kText,    // text
    kOutput,  // {{ expression }}
    kIf,      // if conditions[i]: bodies[i] ...; else bodies.back() when it has one more
    kFor,     // for targets in expression [if condition]: bodies[0]; else: bodies[1]
    kSet,     // set targets[0][.attribute] = expression
  };

  Kind kind;
  size_t offset;
  std::string text;
  ExpressionPtr expression;
  ExpressionPtr condition;  // the filter of a `for`
  std::vector<ExpressionPtr> conditions;
  std::vector<Body> bodies;
  std::vector<std::string> targets;  // loop variables; the variable of a `set`
  std::string attribute;             // `set ns.attribute = ...`
};

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_AST_H_
