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
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEXPANDMATH
#include "tt/TTToTcpuPasses.h.inc"

namespace expand_math {
namespace {

// exp on f32, scalar or vector: MLIR's polynomial (Cephes' coefficients on [-ln2/2, ln2/2])
// evaluated for NEON's destructive FMLA, whose addend is overwritten: a Horner step adds a
// coefficient, so each costs a copy of it; Estrin's scheme adds computed values at all but its
// three leaves. exp(x) = 2^k (1 + r + r^2 P(r)), k = roundeven(x log2 e) (FRINTN; the
// +0.5-then-floor form costs a copy of 0.5), r = x - k ln2 in two steps, and the last step
// multiplies by 2^k inside an FMA: 2^k + 2^k (r + r^2 P(r)). Clamping x to [-87.8, 88.8]
// keeps k in [-127, 128], so only its top needs a clamp (2^128 is not a float). NaN stays NaN
// (maximumf/minimumf propagate it); the extremes give 0 and +inf as MLIR's form does.
// Measured (vl128, softmax 64x1024): 27 -> 23 NEON instructions per four lanes (copies 6 -> 3.6).
struct ExpAsEstrinPolynomial : OpRewritePattern<math::ExpOp> {
  ExpAsEstrinPolynomial(MLIRContext* context)
      : OpRewritePattern<math::ExpOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ExpOp exp, PatternRewriter& rewriter) const override {
    Type type = exp.getType();
    if (!getElementTypeOrSelf(type).isF32()) return failure();
    Location loc = exp.getLoc();
    Type int_type = rewriter.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type)) int_type = shaped.clone(int_type);
    // A constant of `of`'s shape (splat for a vector) holding `value`.
    auto constant = [&](Type of, TypedAttr value) -> Value {
      if (auto shaped = dyn_cast<ShapedType>(of)) value = SplatElementsAttr::get(shaped, value);
      return rewriter.create<arith::ConstantOp>(loc, of, value);
    };
    auto f = [&](float value) { return constant(type, rewriter.getF32FloatAttr(value)); };
    auto i = [&](int32_t value) { return constant(int_type, rewriter.getI32IntegerAttr(value)); };
    auto fma = [&](Value a, Value b, Value c) -> Value {
      return rewriter.create<math::FmaOp>(loc, a, b, c);
    };
    auto mul = [&](Value a, Value b) -> Value { return rewriter.create<arith::MulFOp>(loc, a, b); };

    Value x = rewriter.create<arith::MaximumFOp>(loc, exp.getOperand(), f(-87.8f));
    x = rewriter.create<arith::MinimumFOp>(loc, x, f(88.8f));
    Value k = rewriter.create<math::RoundEvenOp>(loc, mul(x, f(1.44269502f)));
    k = rewriter.create<arith::MinimumFOp>(loc, k, f(127.0f));
    Value r = fma(k, f(-0.693359375f), x);
    r = fma(k, f(2.12194442e-4f), r);
    Value r2 = mul(r, r);
    Value p01 = fma(r, f(0.166666657f), f(0.5f));
    Value p23 = fma(r, f(8.33345205e-3f), f(0.0416657962f));
    Value p45 = fma(r, f(1.98756912e-4f), f(1.39819994e-3f));
    Value p03 = fma(r2, p23, p01);
    Value p = fma(mul(r2, r2), p45, p03);
    Value q = fma(p, r2, r);
    Value bits = rewriter.create<arith::FPToSIOp>(loc, int_type, k);
    bits = rewriter.create<arith::AddIOp>(loc, bits, i(127));
    bits = rewriter.create<arith::ShLIOp>(loc, bits, i(23));
    Value scale = rewriter.create<arith::BitcastOp>(loc, type, bits);
    rewriter.replaceOp(exp, fma(q, scale, scale));
    return success();
  }
};

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
    populateExpandExp2FPattern(patterns);
    populateExpandPowFPattern(patterns);
    populateExpandTanPattern(patterns);
    populateMathPolynomialApproximationPatterns(patterns);
    patterns.add<ExpAsEstrinPolynomial, SelectOfCompareAsMinMax>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace expand_math
}  // namespace mlir::tt
