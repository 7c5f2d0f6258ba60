#include "engine/chat_template/lexer.h"

#include <cstdint>
#include <cstdio>
#include <utility>

#include "engine/chat_template/template_error.h"
#include "engine/chat_template/whitespace.h"

namespace tcpu::chat_template {
namespace {

// The source after Jinja's whitespace options, each byte remembering its original offset.
struct Preprocessed {
  std::string text;
  std::vector<size_t> origin;  // origin[i]: offset of text[i]; origin[size] = source size
};

bool StartsLine(std::string_view text, size_t pos) {
  if (pos == 0) return true;
  const char before = text[pos - 1];
  if (before == '\n' || before == '\r') return true;
  // U+2028 and U+2029 end lines too for the regular expressions this behaviour comes from.
  return pos >= 3 && text.substr(pos - 3, 2) == "\xE2\x80" &&
         (text[pos - 1] == '\xA8' || text[pos - 1] == '\xA9');
}

bool OpensBlockOrComment(std::string_view text, size_t pos) {
  return pos + 1 < text.size() && text[pos] == '{' &&
         (text[pos + 1] == '%' || text[pos + 1] == '#' || text[pos + 1] == '-');
}

// Drops one trailing newline (keep_trailing_newline off), spaces and tabs before a block or
// comment that starts a line (lstrip_blocks), and the newline after `%}`, `#}` or `-}`
// (trim_blocks).
Preprocessed Preprocess(std::string_view source) {
  if (!source.empty() && source.back() == '\n') source.remove_suffix(1);
  std::string lstripped;
  std::vector<size_t> lstripped_origin;
  for (size_t i = 0; i < source.size();) {
    if (StartsLine(source, i)) {
      size_t end = i;
      while (end < source.size() && (source[end] == ' ' || source[end] == '\t')) ++end;
      if (end > i && OpensBlockOrComment(source, end)) i = end;
      if (i >= source.size()) break;
    }
    lstripped.push_back(source[i]);
    lstripped_origin.push_back(i);
    ++i;
  }
  Preprocessed out;
  for (size_t i = 0; i < lstripped.size(); ++i) {
    const bool after_tag_end =
        i >= 2 && lstripped[i - 1] == '}' &&
        (lstripped[i - 2] == '%' || lstripped[i - 2] == '#' || lstripped[i - 2] == '-');
    if (lstripped[i] == '\n' && after_tag_end) continue;
    out.text.push_back(lstripped[i]);
    out.origin.push_back(lstripped_origin[i]);
  }
  out.origin.push_back(source.size());
  return out;
}

bool IsNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(Preprocess(source)), src_(source_.text) {}

  std::vector<Token> Run() {
    while (pos_ < src_.size()) {
      if (!in_tag_) {
        LexText();
        continue;
      }
      LexInsideTag();
    }
    Push(TokenKind::kEnd, "", src_.size());
    return std::move(tokens_);
  }

 private:
  [[noreturn]] void Fail(size_t pos, std::string message) const {
    throw TemplateError{source_.origin[pos], std::move(message)};
  }

  void Push(TokenKind kind, std::string text, size_t pos) {
    tokens_.push_back(Token{kind, std::move(text), source_.origin[pos]});
  }

  bool At(std::string_view what) const { return src_.substr(pos_, what.size()) == what; }

  // Text up to the next `{%`, `{{` or `{#`; then that tag's opening.
  void LexText() {
    const size_t start = pos_;
    while (pos_ < src_.size() &&
           !(src_[pos_] == '{' && pos_ + 1 < src_.size() &&
             (src_[pos_ + 1] == '%' || src_[pos_ + 1] == '{' || src_[pos_ + 1] == '#'))) {
      ++pos_;
    }
    if (pos_ > start) Push(TokenKind::kText, std::string(src_.substr(start, pos_ - start)), start);
    if (pos_ >= src_.size()) return;
    if (At("{#")) {
      LexComment();
      return;
    }
    const bool strip = pos_ + 2 < src_.size() && src_[pos_ + 2] == '-';
    if (strip) StripTrailingWhitespace();
    Push(src_[pos_ + 1] == '%' ? TokenKind::kBlockOpen : TokenKind::kExpressionOpen,
         std::string(src_.substr(pos_, 2)), pos_);
    pos_ += strip ? 3 : 2;
    in_tag_ = true;
    brace_depth_ = 0;
  }

  void LexComment() {
    const size_t start = pos_;
    pos_ += 2;
    if (pos_ < src_.size() && src_[pos_] == '-') {
      StripTrailingWhitespace();
      ++pos_;
    }
    const size_t end = src_.find("#}", pos_);
    if (end == std::string_view::npos) Fail(start, "comment '{#' is never closed with '#}'");
    const bool strip_after = end > pos_ && src_[end - 1] == '-';
    Push(TokenKind::kComment, "", start);
    pos_ = end + 2;
    if (strip_after) SkipLeadingWhitespace();
  }

  void StripTrailingWhitespace() {
    if (tokens_.empty() || tokens_.back().kind != TokenKind::kText) return;
    std::string& text = tokens_.back().text;
    text.resize(TrimWhitespace(text, false, true).size());
    if (text.empty()) tokens_.pop_back();
  }

  void SkipLeadingWhitespace() {
    while (size_t length = WhitespaceAt(src_, pos_)) pos_ += length;
  }

  void LexInsideTag() {
    while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\n' ||
                                  src_[pos_] == '\r' || src_[pos_] == '\f' || src_[pos_] == '\v')) {
      ++pos_;
    }
    if (pos_ >= src_.size()) return;
    for (const auto& [close, kind] :
         {std::pair{"%}", TokenKind::kBlockClose}, std::pair{"}}", TokenKind::kExpressionClose}}) {
      const bool strip = src_[pos_] == '-' && src_.substr(pos_ + 1, 2) == close;
      const bool plain = src_.substr(pos_, 2) == close;
      // Inside a dict literal `}}` closes two dicts, not the expression.
      if (kind == TokenKind::kExpressionClose && brace_depth_ > 0 && !strip) continue;
      if (!strip && !plain) continue;
      Push(kind, close, pos_);
      pos_ += strip ? 3 : 2;
      in_tag_ = false;
      if (strip) SkipLeadingWhitespace();
      return;
    }
    const size_t start = pos_;
    const char c = src_[pos_];
    if (c == '\'' || c == '"') {
      LexString(c);
      return;
    }
    if (IsDigit(c)) {
      while (pos_ < src_.size() && IsDigit(src_[pos_])) ++pos_;
      if (pos_ + 1 < src_.size() && src_[pos_] == '.' && IsDigit(src_[pos_ + 1])) {
        ++pos_;
        while (pos_ < src_.size() && IsDigit(src_[pos_])) ++pos_;
        Push(TokenKind::kFloat, std::string(src_.substr(start, pos_ - start)), start);
      } else {
        Push(TokenKind::kInteger, std::string(src_.substr(start, pos_ - start)), start);
      }
      return;
    }
    if (IsNameByte(c)) {
      while (pos_ < src_.size() && IsNameByte(src_[pos_])) ++pos_;
      Push(TokenKind::kName, std::string(src_.substr(start, pos_ - start)), start);
      return;
    }
    static constexpr std::string_view kTwoByteOperators[] = {"**", "//", "==", "!=", "<=", ">="};
    for (std::string_view op : kTwoByteOperators) {
      if (At(op)) {
        Push(TokenKind::kOperator, std::string(op), start);
        pos_ += 2;
        return;
      }
    }
    if (std::string_view("()[]{},.:|+-~*/%<>=").find(c) != std::string_view::npos) {
      if (c == '{') ++brace_depth_;
      if (c == '}') --brace_depth_;
      Push(TokenKind::kOperator, std::string(1, c), start);
      ++pos_;
      return;
    }
    const unsigned char byte = static_cast<unsigned char>(c);
    char shown[16];
    if (byte >= 0x21 && byte < 0x7F) {
      std::snprintf(shown, sizeof(shown), "'%c'", c);
    } else {
      std::snprintf(shown, sizeof(shown), "byte 0x%02X", byte);
    }
    Fail(start, std::string("unexpected character ") + shown + " inside a tag");
  }

  void LexString(char quote) {
    const size_t start = pos_++;
    std::string value;
    while (true) {
      if (pos_ >= src_.size()) Fail(start, "string literal is never closed");
      const char c = src_[pos_];
      if (c == quote) break;
      if (c != '\\') {
        value.push_back(c);
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= src_.size()) Fail(start, "string literal is never closed");
      const char escaped = src_[pos_ + 1];
      pos_ += 2;
      switch (escaped) {
        case 'n':
          value.push_back('\n');
          break;
        case 't':
          value.push_back('\t');
          break;
        case 'r':
          value.push_back('\r');
          break;
        case 'b':
          value.push_back('\b');
          break;
        case 'f':
          value.push_back('\f');
          break;
        case 'v':
          value.push_back('\v');
          break;
        case '\'':
        case '"':
        case '\\':
          value.push_back(escaped);
          break;
        case 'x':
        case 'u': {
          const size_t digits = escaped == 'x' ? 2 : 4;
          uint32_t code_point = 0;
          for (size_t i = 0; i < digits; ++i) {
            const char h = pos_ + i < src_.size() ? src_[pos_ + i] : '\0';
            const int nibble = IsDigit(h)               ? h - '0'
                               : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                               : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                                        : -1;
            if (nibble < 0) Fail(pos_ - 2, std::string("invalid \\") + escaped + " escape");
            code_point = code_point * 16 + static_cast<uint32_t>(nibble);
          }
          pos_ += digits;
          AppendUtf8(code_point, &value);
          break;
        }
        default:
          Fail(pos_ - 2, std::string("unknown escape '\\") + escaped + "' in a string literal");
      }
    }
    ++pos_;  // the closing quote
    Push(TokenKind::kString, std::move(value), start);
  }

  const Preprocessed source_;
  const std::string_view src_;
  size_t pos_ = 0;
  bool in_tag_ = false;
  int brace_depth_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> Lex(std::string_view source) { return Lexer(source).Run(); }

}  // namespace tcpu::chat_template
