#include "engine/chat_template/parser.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "engine/chat_template/template_error.h"

namespace tcpu::chat_template {
namespace {

// Deeper nesting than this is refused, so a hostile template cannot exhaust the stack.
constexpr int kMaxDepth = 200;

using Kind = Expression::Kind;

class Parser {
 public:
  explicit Parser(const std::vector<Token>& tokens) : tokens_(tokens) {}

  Body ParseTemplate() {
    std::string end;
    Body body = ParseBody({}, &end);
    return body;
  }

 private:
  // Statements up to a `{% keyword` in `ends` (its name is left in *end, the tokens after
  // the keyword not consumed) or the end of input when `ends` is empty.
  Body ParseBody(std::initializer_list<std::string_view> ends, std::string* end) {
    DepthGuard guard(this);
    Body body;
    while (true) {
      const Token& token = Peek();
      switch (token.kind) {
        case TokenKind::kEnd:
          if (ends.size() != 0) {
            Fail(token, "the template ends inside a block: expected '{% " +
                            std::string(*ends.begin()) + " %}'");
          }
          return body;
        case TokenKind::kText: {
          auto statement = NewStatement(Statement::Kind::kText, token);
          statement->text = token.text;
          body.push_back(std::move(statement));
          Next();
          break;
        }
        case TokenKind::kComment:
          Next();
          break;
        case TokenKind::kExpressionOpen: {
          auto statement = NewStatement(Statement::Kind::kOutput, Next());
          statement->expression = ParseExpression(true);
          Expect(TokenKind::kExpressionClose, "'}}'");
          body.push_back(std::move(statement));
          break;
        }
        case TokenKind::kBlockOpen: {
          const Token& keyword = Peek(1);
          if (keyword.kind != TokenKind::kName) Fail(keyword, "expected a statement name");
          for (std::string_view candidate : ends) {
            if (keyword.text == candidate) {
              *end = keyword.text;
              Next();
              Next();
              return body;
            }
          }
          Next();
          body.push_back(ParseStatement());
          break;
        }
        default:
          Fail(token, "unexpected " + Describe(token));
      }
    }
  }

  std::unique_ptr<Statement> ParseStatement() {
    const Token& keyword = Next();
    if (keyword.text == "if") return ParseIf(keyword);
    if (keyword.text == "for") return ParseFor(keyword);
    if (keyword.text == "set") return ParseSet(keyword);
    static constexpr std::string_view kEnds[] = {"elif", "else", "endif", "endfor", "endset"};
    for (std::string_view end : kEnds) {
      if (keyword.text == end) Fail(keyword, "'" + keyword.text + "' without an open block");
    }
    Fail(keyword, "unsupported statement '" + keyword.text + "'");
  }

  std::unique_ptr<Statement> ParseIf(const Token& keyword) {
    auto statement = NewStatement(Statement::Kind::kIf, keyword);
    std::string end = "elif";
    while (end == "elif") {
      statement->conditions.push_back(ParseExpression(true));
      Expect(TokenKind::kBlockClose, "'%}'");
      statement->bodies.push_back(ParseBody({"elif", "else", "endif"}, &end));
    }
    if (end == "else") {
      Expect(TokenKind::kBlockClose, "'%}'");
      statement->bodies.push_back(ParseBody({"endif"}, &end));
    }
    Expect(TokenKind::kBlockClose, "'%}'");
    return statement;
  }

  std::unique_ptr<Statement> ParseFor(const Token& keyword) {
    auto statement = NewStatement(Statement::Kind::kFor, keyword);
    do {
      statement->targets.push_back(ExpectName("a loop variable"));
    } while (Accept(","));
    if (!AcceptName("in")) Fail(Peek(), "expected 'in' after the loop variables");
    statement->expression = ParseExpression(false);
    if (AcceptName("if")) statement->condition = ParseExpression(false);
    if (Peek().kind == TokenKind::kName && Peek().text == "recursive") {
      Fail(Peek(), "unsupported construct 'recursive' loop");
    }
    Expect(TokenKind::kBlockClose, "'%}'");
    std::string end;
    statement->bodies.push_back(ParseBody({"endfor", "else"}, &end));
    if (end == "else") {
      Expect(TokenKind::kBlockClose, "'%}'");
      statement->bodies.push_back(ParseBody({"endfor"}, &end));
    }
    Expect(TokenKind::kBlockClose, "'%}'");
    return statement;
  }

  std::unique_ptr<Statement> ParseSet(const Token& keyword) {
    auto statement = NewStatement(Statement::Kind::kSet, keyword);
    statement->targets.push_back(ExpectName("a variable name"));
    if (Accept(".")) statement->attribute = ExpectName("an attribute name");
    if (Peek().kind == TokenKind::kOperator && Peek().text == ",") {
      Fail(Peek(), "unsupported construct: 'set' of several variables");
    }
    if (Peek().kind == TokenKind::kBlockClose) {
      Fail(keyword, "unsupported construct: block 'set' (with 'endset')");
    }
    if (!Accept("=")) Fail(Peek(), "expected '=' in 'set'");
    statement->expression = ParseExpression(true);
    Expect(TokenKind::kBlockClose, "'%}'");
    return statement;
  }

  // Expressions, lowest precedence first.
  ExpressionPtr ParseExpression(bool with_conditional) {
    DepthGuard guard(this);
    ExpressionPtr value = ParseOr();
    if (!with_conditional || !IsName(Peek(), "if")) return value;
    const Token& keyword = Next();
    auto node = NewExpression(Kind::kConditional, keyword);
    Adopt(node.get(), std::move(value));
    Adopt(node.get(), ParseOr());
    Adopt(node.get(), AcceptName("else") ? ParseExpression(true) : nullptr);
    return node;
  }

  ExpressionPtr ParseOr() {
    ExpressionPtr left = ParseAnd();
    while (IsName(Peek(), "or"))
      left = Binary(Kind::kOr, "or", Next(), std::move(left), ParseAnd());
    return left;
  }

  ExpressionPtr ParseAnd() {
    ExpressionPtr left = ParseNot();
    while (IsName(Peek(), "and")) {
      left = Binary(Kind::kAnd, "and", Next(), std::move(left), ParseNot());
    }
    return left;
  }

  ExpressionPtr ParseNot() {
    if (!IsName(Peek(), "not")) return ParseCompare();
    DepthGuard guard(this);
    const Token& keyword = Next();
    auto node = NewExpression(Kind::kUnary, keyword);
    node->name = "not";
    Adopt(node.get(), ParseNot());
    return node;
  }

  ExpressionPtr ParseCompare() {
    ExpressionPtr left = ParseAdditive();
    while (true) {
      const Token& token = Peek();
      std::string op;
      if (token.kind == TokenKind::kOperator &&
          (token.text == "==" || token.text == "!=" || token.text == "<" || token.text == ">" ||
           token.text == "<=" || token.text == ">=")) {
        op = token.text;
        Next();
      } else if (IsName(token, "in")) {
        op = "in";
        Next();
      } else if (IsName(token, "not") && IsName(Peek(1), "in")) {
        op = "not in";
        Next();
        Next();
      } else {
        return left;
      }
      left = Binary(Kind::kBinary, op, token, std::move(left), ParseAdditive());
    }
  }

  ExpressionPtr ParseAdditive() {
    ExpressionPtr left = ParseConcat();
    while (IsOperator(Peek(), {"+", "-"})) {
      const Token& token = Next();
      left = Binary(Kind::kBinary, token.text, token, std::move(left), ParseConcat());
    }
    return left;
  }

  ExpressionPtr ParseConcat() {
    ExpressionPtr left = ParseMultiplicative();
    while (IsOperator(Peek(), {"~"})) {
      const Token& token = Next();
      left = Binary(Kind::kBinary, "~", token, std::move(left), ParseMultiplicative());
    }
    return left;
  }

  ExpressionPtr ParseMultiplicative() {
    ExpressionPtr left = ParsePower();
    while (IsOperator(Peek(), {"*", "/", "//", "%"})) {
      const Token& token = Next();
      left = Binary(Kind::kBinary, token.text, token, std::move(left), ParsePower());
    }
    return left;
  }

  ExpressionPtr ParsePower() {
    ExpressionPtr left = ParseUnary(true);
    while (IsOperator(Peek(), {"**"})) {
      const Token& token = Next();
      left = Binary(Kind::kBinary, "**", token, std::move(left), ParseUnary(true));
    }
    return left;
  }

  // As Jinja: `-x|f` is `(-x)|f`, and postfix operators bind to the primary first.
  ExpressionPtr ParseUnary(bool with_filters) {
    DepthGuard guard(this);
    ExpressionPtr node;
    if (IsOperator(Peek(), {"-", "+"})) {
      const Token& token = Next();
      node = NewExpression(Kind::kUnary, token);
      node->name = token.text;
      Adopt(node.get(), ParseUnary(false));
    } else {
      node = ParsePrimary();
    }
    node = ParsePostfix(std::move(node));
    return with_filters ? ParseFiltersAndTests(std::move(node)) : std::move(node);
  }

  ExpressionPtr ParsePrimary() {
    const Token& token = Next();
    switch (token.kind) {
      case TokenKind::kName: {
        static const std::pair<std::string_view, Value> kConstants[] = {
            {"true", Value::Bool(true)},   {"True", Value::Bool(true)},
            {"false", Value::Bool(false)}, {"False", Value::Bool(false)},
            {"none", Value::None()},       {"None", Value::None()}};
        for (const auto& [name, value] : kConstants) {
          if (token.text == name) return Literal(token, value);
        }
        auto node = NewExpression(Kind::kName, token);
        node->name = token.text;
        return node;
      }
      case TokenKind::kString: {
        // Adjacent string literals concatenate, as in Python.
        std::string text = token.text;
        while (Peek().kind == TokenKind::kString) text += Next().text;
        return Literal(token, Value::String(std::move(text)));
      }
      case TokenKind::kInteger: {
        errno = 0;
        const long long value = std::strtoll(token.text.c_str(), nullptr, 10);
        if (errno == ERANGE) Fail(token, "integer literal " + token.text + " is out of range");
        return Literal(token, Value::Int(value));
      }
      case TokenKind::kFloat:
        return Literal(token, Value::Float(std::strtod(token.text.c_str(), nullptr)));
      case TokenKind::kOperator:
        if (token.text == "(") return ParseParenthesized(token);
        if (token.text == "[") {
          auto node = NewExpression(Kind::kList, token);
          ParseItems("]", node.get());
          return node;
        }
        if (token.text == "{") return ParseDict(token);
        break;
      default:
        break;
    }
    Fail(token, "expected an expression, found " + Describe(token));
  }

  // `(x)` is x; `()`, `(x,)` and `(x, y)` are tuples.
  ExpressionPtr ParseParenthesized(const Token& open) {
    if (Accept(")")) return NewExpression(Kind::kTuple, open);
    ExpressionPtr first = ParseExpression(true);
    if (Accept(")")) return first;
    if (!Accept(",")) Fail(Peek(), "expected ')' or ',' in parentheses");
    auto node = NewExpression(Kind::kTuple, open);
    Adopt(node.get(), std::move(first));
    if (Accept(")")) return node;
    Adopt(node.get(), ParseExpression(true));
    ParseItems(")", node.get());
    return node;
  }

  ExpressionPtr ParseDict(const Token& open) {
    auto node = NewExpression(Kind::kDict, open);
    while (!Accept("}")) {
      if (!node->items.empty() && !Accept(",")) Fail(Peek(), "expected ',' or '}' in a dict");
      if (Accept("}")) break;  // a trailing comma
      Adopt(node.get(), ParseExpression(true));
      if (!Accept(":")) Fail(Peek(), "expected ':' after a dict key");
      Adopt(node.get(), ParseExpression(true));
    }
    return node;
  }

  // Comma-separated expressions up to `close` (a trailing comma allowed).
  void ParseItems(std::string_view close, Expression* parent) {
    while (!Accept(close)) {
      if (!parent->items.empty() && !Accept(",")) {
        Fail(Peek(), "expected ',' or '" + std::string(close) + "'");
      }
      if (Accept(close)) break;
      Adopt(parent, ParseExpression(true));
    }
  }

  ExpressionPtr ParsePostfix(ExpressionPtr node) {
    while (true) {
      const Token& token = Peek();
      if (IsOperator(token, {"."})) {
        Next();
        const Token& name = Next();
        if (name.kind != TokenKind::kName && name.kind != TokenKind::kInteger) {
          Fail(name, "expected an attribute name after '.', found " + Describe(name));
        }
        auto attribute = NewExpression(Kind::kAttribute, token);
        attribute->name = name.text;
        Adopt(attribute.get(), std::move(node));
        node = std::move(attribute);
      } else if (IsOperator(token, {"["})) {
        Next();
        node = ParseSubscript(token, std::move(node));
      } else if (IsOperator(token, {"("})) {
        Next();
        // Errors of a call point at what is called, not at its parenthesis.
        auto call = NewExpression(Kind::kCall, token);
        call->offset = node->offset;
        Adopt(call.get(), std::move(node));
        ParseArguments(call.get());
        node = std::move(call);
      } else {
        return node;
      }
    }
  }

  ExpressionPtr ParseSubscript(const Token& open, ExpressionPtr object) {
    ExpressionPtr start;
    if (!IsOperator(Peek(), {":"})) {
      start = ParseExpression(true);
      if (Accept("]")) {
        auto node = NewExpression(Kind::kIndex, open);
        Adopt(node.get(), std::move(object));
        Adopt(node.get(), std::move(start));
        return node;
      }
    }
    if (!Accept(":")) Fail(Peek(), "expected ']' or ':' in a subscript");
    auto node = NewExpression(Kind::kSlice, open);
    Adopt(node.get(), std::move(object));
    Adopt(node.get(), std::move(start));
    Adopt(node.get(), IsOperator(Peek(), {":", "]"}) ? nullptr : ParseExpression(true));
    ExpressionPtr step;
    if (Accept(":") && !IsOperator(Peek(), {"]"})) step = ParseExpression(true);
    Adopt(node.get(), std::move(step));
    if (!Accept("]")) Fail(Peek(), "expected ']' to close a slice");
    return node;
  }

  // After '(': positional arguments, then `name=value` keywords, up to ')'.
  void ParseArguments(Expression* call) {
    bool first = true;
    while (!Accept(")")) {
      if (!first && !Accept(",")) Fail(Peek(), "expected ',' or ')' in an argument list");
      first = false;
      if (Accept(")")) break;
      if (Peek().kind == TokenKind::kName && IsOperator(Peek(1), {"="})) {
        call->keyword_names.push_back(Next().text);
        Next();
        Adopt(call, ParseExpression(true), &call->keyword_values);
      } else {
        if (!call->keyword_names.empty()) {
          Fail(Peek(), "a positional argument after a keyword argument");
        }
        Adopt(call, ParseExpression(true));
      }
    }
  }

  ExpressionPtr ParseFiltersAndTests(ExpressionPtr node) {
    while (true) {
      const Token& token = Peek();
      if (IsOperator(token, {"|"})) {
        Next();
        auto filter = NewExpression(Kind::kFilter, token);
        filter->name = ExpectName("a filter name");
        Adopt(filter.get(), std::move(node));
        if (Accept("(")) ParseArguments(filter.get());
        node = std::move(filter);
      } else if (IsName(token, "is")) {
        Next();
        auto test = NewExpression(Kind::kTest, token);
        test->negated = AcceptName("not");
        test->name = ExpectName("a test name");
        Adopt(test.get(), std::move(node));
        if (Accept("(")) {
          ParseArguments(test.get());
        } else if (StartsTestArgument(Peek())) {
          // As Jinja: one argument without parentheses, `x is divisibleby 3`.
          Adopt(test.get(), ParsePostfix(ParsePrimary()));
        }
        node = std::move(test);
      } else {
        return node;
      }
    }
  }

  // Whether `token` starts the parenthesis-free argument of a test (Jinja's rule).
  static bool StartsTestArgument(const Token& token) {
    switch (token.kind) {
      case TokenKind::kName:
        return token.text != "else" && token.text != "or" && token.text != "and";
      case TokenKind::kString:
      case TokenKind::kInteger:
      case TokenKind::kFloat:
        return true;
      case TokenKind::kOperator:
        return token.text == "(" || token.text == "[" || token.text == "{";
      default:
        return false;
    }
  }

  // Helpers over the token stream.
  const Token& Peek(size_t ahead = 0) const {
    const size_t index = std::min(position_ + ahead, tokens_.size() - 1);
    return tokens_[index];
  }

  const Token& Next() {
    const Token& token = Peek();
    if (position_ + 1 < tokens_.size()) ++position_;
    return token;
  }

  static bool IsName(const Token& token, std::string_view name) {
    return token.kind == TokenKind::kName && token.text == name;
  }

  static bool IsOperator(const Token& token, std::initializer_list<std::string_view> ops) {
    if (token.kind != TokenKind::kOperator) return false;
    for (std::string_view op : ops) {
      if (token.text == op) return true;
    }
    return false;
  }

  bool Accept(std::string_view op) {
    if (!IsOperator(Peek(), {op})) return false;
    Next();
    return true;
  }

  bool AcceptName(std::string_view name) {
    if (!IsName(Peek(), name)) return false;
    Next();
    return true;
  }

  void Expect(TokenKind kind, std::string_view what) {
    if (Peek().kind != kind) {
      Fail(Peek(), "expected " + std::string(what) + ", found " + Describe(Peek()));
    }
    Next();
  }

  std::string ExpectName(std::string_view what) {
    const Token& token = Peek();
    if (token.kind != TokenKind::kName) {
      Fail(token, "expected " + std::string(what) + ", found " + Describe(token));
    }
    return Next().text;
  }

  static std::string Describe(const Token& token) {
    switch (token.kind) {
      case TokenKind::kEnd:
        return "the end of the template";
      case TokenKind::kText:
        return "text";
      case TokenKind::kString:
        return "a string";
      default:
        return "'" + token.text + "'";
    }
  }

  [[noreturn]] static void Fail(const Token& token, std::string message) {
    throw TemplateError{token.offset, std::move(message)};
  }

  static std::unique_ptr<Statement> NewStatement(Statement::Kind kind, const Token& token) {
    auto statement = std::make_unique<Statement>();
    statement->kind = kind;
    statement->offset = token.offset;
    return statement;
  }

  static ExpressionPtr NewExpression(Kind kind, const Token& token) {
    auto node = std::make_unique<Expression>();
    node->kind = kind;
    node->offset = token.offset;
    return node;
  }

  // Adds `child` (which may be null: a missing slice bound) to `parent->items`, or to
  // `list` when given, and bounds the tree's height.
  static void Adopt(Expression* parent, ExpressionPtr child,
                    std::vector<ExpressionPtr>* list = nullptr) {
    if (child) {
      parent->height = std::max(parent->height, child->height + 1);
      if (parent->height > kMaxDepth) {
        throw TemplateError{parent->offset, "an expression nested deeper than " +
                                                std::to_string(kMaxDepth) + " levels"};
      }
    }
    (list != nullptr ? list : &parent->items)->push_back(std::move(child));
  }

  static ExpressionPtr Literal(const Token& token, Value value) {
    auto node = NewExpression(Kind::kLiteral, token);
    node->literal = std::move(value);
    return node;
  }

  static ExpressionPtr Binary(Kind kind, std::string op, const Token& token, ExpressionPtr left,
                              ExpressionPtr right) {
    auto node = NewExpression(kind, token);
    node->name = std::move(op);
    Adopt(node.get(), std::move(left));
    Adopt(node.get(), std::move(right));
    return node;
  }

  // Counts nesting on the C++ stack; the limit turns deep input into an error.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* parser) : parser_(parser) {
      if (++parser_->depth_ > kMaxDepth) {
        Fail(parser_->Peek(), "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      }
    }
    ~DepthGuard() { --parser_->depth_; }

   private:
    Parser* parser_;
  };

  const std::vector<Token>& tokens_;
  size_t position_ = 0;
  int depth_ = 0;
};

}  // namespace

Body Parse(const std::vector<Token>& tokens) { return Parser(tokens).ParseTemplate(); }

}  // namespace tcpu::chat_template
