// Reading TTIR text as Triton writes it.
#ifndef TT_TRITONSOURCE_H_
#define TT_TRITONSOURCE_H_

#include <string>

#include "llvm/ADT/StringRef.h"

namespace mlir::tt {

// Triton prints its location aliases (`#loc12 = loc("k.py":93:35)`) after the module and
// uses them inside other locations before their definition, e.g. a reduce region's block
// argument `%a: f32 loc(callsite(#loc1 at #loc12))`. MLIR 19's parser resolves an alias
// defined later only as a whole location (`loc(#loc12)`), so such dumps fail with
// "undefined symbol alias id". Returns `text` with every top-level location alias
// definition moved, in order, to the start of the first line and its own line left empty:
// every alias is defined before its first use and diagnostics keep their line numbers.
std::string hoistLocationAliases(llvm::StringRef text);

}  // namespace mlir::tt

#endif  // TT_TRITONSOURCE_H_
