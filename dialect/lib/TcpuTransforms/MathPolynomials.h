// The f32 math functions tcpu-expand-math writes itself rather than take MLIR's approximations:
// exp, exp2, log, sin and cos as polynomials with exact argument reductions. Their accuracy
// against the C library is measured by kernels/triton/math_test.cc and listed in
// dialect/README.md.
#ifndef TCPU_DIALECT_LIB_TCPUTRANSFORMS_MATHPOLYNOMIALS_H_
#define TCPU_DIALECT_LIB_TCPUTRANSFORMS_MATHPOLYNOMIALS_H_

#include "mlir/IR/PatternMatch.h"

namespace mlir::tt::expand_math {

// math.exp, math.exp2, math.log, math.sin and math.cos on f32 (scalar or vector), at a benefit
// above MLIR's approximations of the same ops.
void populateMathPolynomialPatterns(RewritePatternSet& patterns);

}  // namespace mlir::tt::expand_math

#endif  // TCPU_DIALECT_LIB_TCPUTRANSFORMS_MATHPOLYNOMIALS_H_
