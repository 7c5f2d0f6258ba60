// tcpu-expand-math: transcendental math on vectors becomes polynomial approximations, so the
// backend emits vector code instead of one libm call per element: f32 exp, exp2, log, sin and cos
// our own (MathPolynomials.h), the rest MLIR's (log2, log1p, expm1, tanh, erf, atan, ...); pow
// becomes exp and log. sqrt, fma, abs, floor and the like stay: they are single instructions.
// The approximations clamp with cmpf + select (two instructions, FCMGT + BIT); a clamp to a
// constant is one FMAX/FMIN.
#include "MathPolynomials.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEXPANDMATH
#include "tt/TTToTcpuPasses.h.inc"

namespace expand_math {
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
    APFloat bound(0.0f);
    if (!matchPattern(compare.getRhs(), m_ConstantFloat(&bound)) || bound.isNaN() ||
        bound.isZero()) {
      return failure();
    }
    using P = arith::CmpFPredicate;
    P predicate = compare.getPredicate();
    bool maximum = llvm::is_contained({P::UGE, P::UGT, P::OGE, P::OGT}, predicate);
    bool minimum = llvm::is_contained({P::ULE, P::ULT, P::OLE, P::OLT}, predicate);
    if (!maximum && !minimum) return failure();
    bool ordered = llvm::is_contained({P::OGE, P::OGT, P::OLE, P::OLT}, predicate);
    Value a = compare.getLhs(), c = compare.getRhs();
    Location loc = select.getLoc();
    Value result;
    if (maximum) {
      result = ordered ? rewriter.create<arith::MaxNumFOp>(loc, a, c).getResult()
                       : rewriter.create<arith::MaximumFOp>(loc, a, c).getResult();
    } else {
      result = ordered ? rewriter.create<arith::MinNumFOp>(loc, a, c).getResult()
                       : rewriter.create<arith::MinimumFOp>(loc, a, c).getResult();
    }
    rewriter.replaceOp(select, result);
    return success();
  }
};

struct TcpuExpandMath : impl::TcpuExpandMathBase<TcpuExpandMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialPatterns(patterns);
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
}  // namespace expand_math
}  // namespace mlir::tt
