// --help for the SDK's tools: the options the tool registers itself, not the hundreds that the
// LLVM and MLIR libraries it links register before main. Those stay accepted; --help-hidden
// lists them.
#ifndef TCPU_DIALECT_TOOLS_HIDE_LIBRARY_OPTIONS_H_
#define TCPU_DIALECT_TOOLS_HIDE_LIBRARY_OPTIONS_H_

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

namespace tcpu_tools {

// Hides every option registered so far, except --help, --version and those in `keep`.
inline void HideLibraryOptions(const llvm::cl::OptionCategory* keep = nullptr) {
  for (auto& entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option* option = entry.getValue();
    if (option->ArgStr == "help" || option->ArgStr == "version") continue;
    if (keep && llvm::is_contained(option->Categories, keep)) continue;
    if (option->getOptionHiddenFlag() == llvm::cl::NotHidden) {
      option->setHiddenFlag(llvm::cl::Hidden);
    }
  }
}

}  // namespace tcpu_tools

#endif  // TCPU_DIALECT_TOOLS_HIDE_LIBRARY_OPTIONS_H_
