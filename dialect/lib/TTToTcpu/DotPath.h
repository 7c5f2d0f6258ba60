// Which instructions a tt.dot runs on: SMMLA (i8 x i8 -> i32, i8mm), BFMMLA (bf16 x bf16 ->
// f32, bf16; fp8 x fp8 -> f32 on its tiles widened to bf16, which holds every fp8 value), SDOT
// (i8, dotprod), FMLAL outer products (f16 x f16 -> f32, fp16fml) or the generic outer
// products, chosen from the module's #tcpu.target or a `tcpu.hints` dot entry.
// tt-to-tcpu-dot lowers by it; tt-version-masked-loops reads it to tell which K loops keep
// their accumulator in a stack buffer.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_DOTPATH_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_DOTPATH_H_

#include "mlir/Support/LogicalResult.h"
#include "tt/TTOps.h"

namespace mlir::tt {

enum class DotPath { kOuterProducts, kSdot, kSmmla, kBfmmla, kFmlal };

// SMMLA with i8mm and BFMMLA with bf16 (2x2 blocks, MmlaTiles.h), SDOT with dotprod, FMLAL
// with fp16fml (N a multiple of 8), outer products otherwise (and for every dot whose operands
// or shape fit none);
// `tcpu.hints = {dot = ...}` (verified against the target) picks one, and fails when the
// operands do not fit it, with an error on `op` when `diagnose` is set.
FailureOr<DotPath> chooseDotPath(DotOp op, bool diagnose = true);

// True when `op` runs on 2x2 matrix-multiply blocks (SMMLA or BFMMLA) with an accumulator too
// large for the registers, which MmlaTiles keeps in a stack buffer (MmlaTiles.h).
bool accumulatesMmlaInMemory(DotOp op);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_DOTPATH_H_
