// Which instructions an int8 tt.dot (i8 x i8 -> i32) runs on: SMMLA (i8mm), SDOT (dotprod) or
// the generic outer products, chosen from the module's #tcpu.target or a `tcpu.hints` dot
// entry. tt-to-tcpu-dot lowers by it; tt-version-masked-loops reads it to tell which K loops
// keep their accumulator in a stack buffer.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_INT8DOTPATH_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_INT8DOTPATH_H_

#include "mlir/Support/LogicalResult.h"
#include "tt/TTOps.h"

namespace mlir::tt {

enum class Int8Path { kOuterProducts, kSdot, kSmmla };

// SMMLA with i8mm, SDOT with dotprod, outer products otherwise (and for every dot that is not
// 2-D int8); `tcpu.hints = {dot = ...}` (verified against the target) picks one, and fails
// when the tile shape does not fit it, with an error on `op` when `diagnose` is set.
FailureOr<Int8Path> chooseInt8Path(DotOp op, bool diagnose = true);

// True when `op` runs on SMMLA with an accumulator too large for the registers, which
// SmmlaTiles keeps in a stack buffer (SmmlaTiles.h).
bool accumulatesSmmlaInMemory(DotOp op);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_INT8DOTPATH_H_
