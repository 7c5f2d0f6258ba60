// tcpu-expand-math: transcendental math on vectors becomes polynomial approximations (MLIR's
// own: exp, log, log2, log1p, expm1, tanh, erf, sin, cos, atan, ...), exp2 and pow become exp
// and log, so the backend emits vector code instead of one libm call per element. sqrt, fma,
// abs, floor and the like stay: they are single instructions. The approximations clamp with
// cmpf + select (two instructions, FCMGT + BIT); a clamp to a constant is one FMAX/FMIN.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEXPANDMATH
#include "tt/TTToTcpuPasses.h.inc"

namespace {

// select(cmpf(P, a, C), a, C) with C a constant neither NaN nor zero is a maximum or minimum of
// a and C, NaN handling included: unordered predicates pick a when it is NaN, as
// arith.maximumf / minimumf propagate it (FMAX/FMIN); ordered ones pick C, as maxnumf /
// minnumf do (FMAXNM/FMINNM). Where a equals C either pick is the same value (C is not a zero,
// whose sign would matter).
struct SelectOfCompareAsMinMax : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select, PatternRewriter& rewriter) const override {
    auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
    if (!compare || compare.getLhs() != select.getTrueValue() ||
        compare.getRhs() != select.getFalseValue()) {
      return failure();
    }
    FloatAttr bound;
    Value constant = compare.getRhs();
    if (!matchPattern(constant, m_Constant(&bound))) {
      SplatElementsAttr splat;
      if (!matchPattern(constant, m_Constant(&splat))) return failure();
      bound = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>());
      if (!bound) return failure();
    }
    if (bound.getValue().isNaN() || bound.getValue().isZero()) return failure();
    Value a = compare.getLhs();
    switch (compare.getPredicate()) {
      case arith::CmpFPredicate::UGE:
      case arith::CmpFPredicate::UGT:
        rewriter.replaceOpWithNewOp<arith::MaximumFOp>(select, a, constant);
        return success();
      case arith::CmpFPredicate::ULE:
      case arith::CmpFPredicate::ULT:
        rewriter.replaceOpWithNewOp<arith::MinimumFOp>(select, a, constant);
        return success();
      case arith::CmpFPredicate::OGE:
      case arith::CmpFPredicate::OGT:
        rewriter.replaceOpWithNewOp<arith::MaxNumFOp>(select, a, constant);
        return success();
      case arith::CmpFPredicate::OLE:
      case arith::CmpFPredicate::OLT:
        rewriter.replaceOpWithNewOp<arith::MinNumFOp>(select, a, constant);
        return success();
      default:
        return failure();
    }
  }
};

struct TcpuExpandMath : impl::TcpuExpandMathBase<TcpuExpandMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandExp2FPattern(patterns);
    populateExpandPowFPattern(patterns);
    populateExpandTanPattern(patterns);
    populateMathPolynomialApproximationPatterns(patterns);
    patterns.add<SelectOfCompareAsMinMax>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace mlir::tt
