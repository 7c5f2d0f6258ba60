// Reading TTIR text as Triton writes it: the spellings MLIR 19's parser does not take.
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

// Triton 3.3 and later print `llvm.intr.assume %cond : i1` (the custom form of MLIR 20's LLVM
// dialect); MLIR 19's op has only the generic form and rejects it ("has no custom assembly
// form"). Returns `text` with each such statement spelled `"llvm.intr.assume"(%cond) : (i1)
// -> ()` in place: only those lines change, and only in their columns.
std::string spellAssumesGenerically(llvm::StringRef text);

// What tcpu-compile does to a dump before parsing it: both of the above.
std::string normalizeTritonSource(llvm::StringRef text);

}  // namespace mlir::tt

#endif  // TT_TRITONSOURCE_H_
