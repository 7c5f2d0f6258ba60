// The f32 math functions tcpu-expand-math writes itself rather than take MLIR's approximations:
// exp, exp2, sin and cos as polynomials with exact argument reductions, and log's subnormal
// arguments scaled into the normal range. Their accuracy against the C library is measured by
// kernels/triton/math_test.cc and listed in dialect/README.md.
#ifndef TCPU_DIALECT_LIB_TCPUTRANSFORMS_MATHPOLYNOMIALS_H_
#define TCPU_DIALECT_LIB_TCPUTRANSFORMS_MATHPOLYNOMIALS_H_

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tt::expand_math {

// math.exp, math.exp2, math.sin and math.cos on f32 (scalar or vector), at a benefit above
// MLIR's approximations of the same ops.
void populateMathPolynomialPatterns(RewritePatternSet& patterns);

// Every f32 math.log under `root` takes its argument times 2^23 where that is below the
// smallest normal float, and subtracts 23 ln 2 there: MLIR's approximation reads the exponent
// field as it is, which a subnormal does not have.
void scaleSubnormalLogArguments(Operation* root);

}  // namespace mlir::tt::expand_math

#endif  // TCPU_DIALECT_LIB_TCPUTRANSFORMS_MATHPOLYNOMIALS_H_
