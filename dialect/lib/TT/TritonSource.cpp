// hoistLocationAliases: see tt/TritonSource.h.
#include "tt/TritonSource.h"

#include <cctype>

#include "llvm/ADT/SmallVector.h"

namespace mlir::tt {
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

}  // namespace

std::string hoistLocationAliases(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  std::string aliases;
  for (llvm::StringRef line : lines) {
    if (!IsLocationAlias(line)) continue;
    aliases += line.rtrim("\r").str();
    aliases += ' ';
  }
  if (aliases.empty()) return text.str();
  std::string result = aliases;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) result += '\n';
    if (!IsLocationAlias(lines[i])) result += lines[i].str();
  }
  return result;
}

}  // namespace mlir::tt
