// tcpu-expand-math: transcendental math on vectors becomes polynomial approximations (MLIR's
// own: exp, log, log2, log1p, expm1, tanh, erf, sin, cos, atan, ...), exp2 and pow become exp
// and log, so the backend emits vector code instead of one libm call per element. sqrt, fma,
// abs, floor and the like stay: they are single instructions.
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEXPANDMATH
#include "tt/TTToTcpuPasses.h.inc"

namespace {

struct TcpuExpandMath : impl::TcpuExpandMathBase<TcpuExpandMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandExp2FPattern(patterns);
    populateExpandPowFPattern(patterns);
    populateExpandTanPattern(patterns);
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace mlir::tt
