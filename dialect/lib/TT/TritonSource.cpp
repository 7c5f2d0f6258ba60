// hoistLocationAliases, spellAssumesGenerically: see tt/TritonSource.h.
#include "tt/TritonSource.h"

#include <cctype>

#include "llvm/ADT/SmallVector.h"

namespace mlir::tt {
namespace triton_source {
namespace {

// `#name = loc(` at the start of a line: a top-level location alias definition.
bool IsLocationAlias(llvm::StringRef line) {
  if (!line.consume_front("#")) return false;
  size_t name = 0;
  while (name < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[name])) || line[name] == '_' ||
          line[name] == '$' || line[name] == '.' || line[name] == '-')) {
    ++name;
  }
  if (name == 0) return false;
  line = line.drop_front(name).ltrim(" \t");
  if (!line.consume_front("=")) return false;
  return line.ltrim(" \t").starts_with("loc(");
}

// A character of a value name or use (`%x`, `%arg0`, `%1#0`, `%row_start_ptr`).
bool IsValueNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-' || c == '#';
}

// Spells `llvm.intr.assume %v : i1` at the start of `rest` generically into `out` and
// returns the length of what it replaced, or 0 (writing nothing) when `rest` is not that.
size_t SpellAssume(llvm::StringRef rest, std::string& out) {
  llvm::StringRef text = rest;
  if (!text.consume_front("llvm.intr.assume")) return 0;
  llvm::StringRef operand = text.ltrim(" \t");
  if (operand.size() == text.size() || !operand.starts_with("%")) return 0;
  size_t name = 1;
  while (name < operand.size() && IsValueNameChar(operand[name])) ++name;
  if (name == 1) return 0;
  llvm::StringRef value = operand.take_front(name);
  llvm::StringRef type = operand.drop_front(name).ltrim(" \t");
  if (!type.consume_front(":")) return 0;
  type = type.ltrim(" \t");
  if (!type.consume_front("i1")) return 0;
  if (!type.empty() && IsValueNameChar(type.front())) return 0;  // i16, ...
  out += "\"llvm.intr.assume\"(";
  out += value.str();
  out += ") : (i1) -> ()";
  return rest.size() - type.size();
}

}  // namespace
}  // namespace triton_source

std::string spellAssumesGenerically(llvm::StringRef text) {
  std::string result;
  result.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // Only where a statement's op name can start: the text's start or after a blank.
    bool op_position =
        i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n';
    size_t replaced =
        op_position && text[i] == 'l' ? triton_source::SpellAssume(text.drop_front(i), result) : 0;
    if (replaced) {
      i += replaced;
    } else {
      result += text[i++];
    }
  }
  return result;
}

std::string normalizeTritonSource(llvm::StringRef text) {
  return spellAssumesGenerically(hoistLocationAliases(text));
}

std::string hoistLocationAliases(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  std::string aliases;
  for (llvm::StringRef line : lines) {
    if (!triton_source::IsLocationAlias(line)) continue;
    aliases += line.rtrim("\r").str();
    aliases += ' ';
  }
  if (aliases.empty()) return text.str();
  std::string result = aliases;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) result += '\n';
    if (!triton_source::IsLocationAlias(lines[i])) result += lines[i].str();
  }
  return result;
}

}  // namespace mlir::tt
