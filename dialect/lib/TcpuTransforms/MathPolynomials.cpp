// exp, exp2, log, sin and cos on f32 as polynomials (MathPolynomials.h).
// Each is written for NEON's destructive FMLA, whose addend is overwritten: a Horner step adds a
// coefficient, so each costs a copy of it; Estrin's scheme adds computed values at all but its
// leaves. New constants are hexadecimal floats, the values the code computes with.
#include "MathPolynomials.h"

#include <limits>
#include <type_traits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tt::expand_math {
namespace {

// Builds f32 arithmetic of one shape (scalar or vector) at one location.
class F32Builder {
 public:
  F32Builder(PatternRewriter& rewriter, Location loc, Type type)
      : b_(rewriter), loc_(loc), type_(type), int_type_(b_.getI32Type()) {
    if (auto shaped = dyn_cast<ShapedType>(type)) int_type_ = shaped.clone(int_type_);
  }

  Value f(float value) { return constant(type_, b_.getF32FloatAttr(value)); }
  Value i(int32_t value) { return constant(int_type_, b_.getI32IntegerAttr(value)); }
  Value fma(Value a, Value b, Value c) { return b_.create<math::FmaOp>(loc_, a, b, c); }
  Value mul(Value a, Value b) { return b_.create<arith::MulFOp>(loc_, a, b); }
  Value sub(Value a, Value b) { return b_.create<arith::SubFOp>(loc_, a, b); }
  Value max(Value a, Value b) { return b_.create<arith::MaximumFOp>(loc_, a, b); }
  Value min(Value a, Value b) { return b_.create<arith::MinimumFOp>(loc_, a, b); }
  Value roundEven(Value a) { return b_.create<math::RoundEvenOp>(loc_, a); }
  // A float holding an integer as i32 (FCVTZS).
  Value toInt(Value a) { return b_.create<arith::FPToSIOp>(loc_, int_type_, a); }
  Value shl(Value a, int32_t bits) { return b_.create<arith::ShLIOp>(loc_, a, i(bits)); }
  Value addi(Value a, Value b) { return b_.create<arith::AddIOp>(loc_, a, b); }
  Value xori(Value a, Value b) { return b_.create<arith::XOrIOp>(loc_, a, b); }
  Value subi(Value a, Value b) { return b_.create<arith::SubIOp>(loc_, a, b); }
  Value andi(Value a, Value b) { return b_.create<arith::AndIOp>(loc_, a, b); }
  Value shrsi(Value a, int32_t bits) { return b_.create<arith::ShRSIOp>(loc_, a, i(bits)); }
  Value toFloat(Value a) { return b_.create<arith::SIToFPOp>(loc_, type_, a); }
  Value compare(arith::CmpFPredicate predicate, Value a, Value b) {
    return b_.create<arith::CmpFOp>(loc_, predicate, a, b);
  }
  Value select(Value condition, Value a, Value b) {
    return b_.create<arith::SelectOp>(loc_, condition, a, b);
  }
  Value asInt(Value a) { return b_.create<arith::BitcastOp>(loc_, int_type_, a); }
  Value asFloat(Value a) { return b_.create<arith::BitcastOp>(loc_, type_, a); }

 private:
  // A constant of `of`'s shape (splat for a vector) holding `value`.
  Value constant(Type of, TypedAttr value) {
    if (auto shaped = dyn_cast<ShapedType>(of)) value = SplatElementsAttr::get(shaped, value);
    return b_.create<arith::ConstantOp>(loc_, of, value);
  }

  PatternRewriter& b_;
  Location loc_;
  Type type_, int_type_;
};

// 2^k e^r for an integer-valued k in [-127, 127] and r in [-ln2/2, ln2/2] (beyond it near the
// top of the range, where k stops at 127): e^r = 1 + r + r^2 P(r) by Cephes' coefficients in
// Estrin's scheme, and 2^k enters through the last step's FMA: 2^k + 2^k (r + r^2 P(r)). k = -127
// gives 0 (a subnormal result flushed).
Value ScaledExpPolynomial(F32Builder& b, Value k, Value r) {
  Value r2 = b.mul(r, r);
  Value p01 = b.fma(r, b.f(0.166666657f), b.f(0.5f));
  Value p23 = b.fma(r, b.f(8.33345205e-3f), b.f(0.0416657962f));
  Value p45 = b.fma(r, b.f(1.98756912e-4f), b.f(1.39819994e-3f));
  Value p03 = b.fma(r2, p23, p01);
  Value p = b.fma(b.mul(r2, r2), p45, p03);
  Value q = b.fma(p, r2, r);
  Value scale = b.asFloat(b.shl(b.addi(b.toInt(k), b.i(127)), 23));
  return b.fma(q, scale, scale);
}

// exp(x) = 2^k e^r, k = roundeven(x log2 e) (FRINTN; the +0.5-then-floor form costs a copy of
// 0.5), r = x - k ln2 in two steps (ln2's high part has 9 bits: k times it is exact). Clamping x
// to [-87.8, 88.8] keeps k in [-127, 128], so only its top needs a clamp (2^128 is not a
// float). NaN stays NaN (maximumf/minimumf propagate it); the extremes give 0 and +inf.
// Measured (vl128, softmax 64x1024): 27 -> 23 NEON instructions per four lanes (copies 6 -> 3.6).
struct ExpAsPolynomial : OpRewritePattern<math::ExpOp> {
  ExpAsPolynomial(MLIRContext* context) : OpRewritePattern<math::ExpOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ExpOp exp, PatternRewriter& rewriter) const override {
    if (!getElementTypeOrSelf(exp.getType()).isF32()) return failure();
    F32Builder b(rewriter, exp.getLoc(), exp.getType());
    Value x = b.min(b.max(exp.getOperand(), b.f(-87.8f)), b.f(88.8f));
    Value k = b.min(b.roundEven(b.mul(x, b.f(1.44269502f))), b.f(127.0f));
    Value r = b.fma(k, b.f(-0.693359375f), x);
    r = b.fma(k, b.f(2.12194442e-4f), r);
    rewriter.replaceOp(exp, ScaledExpPolynomial(b, k, r));
    return success();
  }
};

// exp2(x) = 2^k e^r with k = roundeven(x) and r = (x - k) ln 2: x - k is exact, so the only
// rounding before the polynomial is r's, relative 2^-24 of |r| <= 0.35 (MLIR's form, exp(x ln 2),
// rounds x ln 2 and is off by up to |x| ln2 / 2 ulp: 62 ulp measured near x = -123). x is
// clamped to [-127, 128.5]: k = -127 gives 0 (results below 2^-126 may flush); from 127.5 k
// stops at 127 and r runs to ln 2 (x = 128 gives the largest float), x >= 128.25 gives +inf.
struct Exp2AsPolynomial : OpRewritePattern<math::Exp2Op> {
  Exp2AsPolynomial(MLIRContext* context)
      : OpRewritePattern<math::Exp2Op>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::Exp2Op exp2, PatternRewriter& rewriter) const override {
    if (!getElementTypeOrSelf(exp2.getType()).isF32()) return failure();
    F32Builder b(rewriter, exp2.getLoc(), exp2.getType());
    Value x = b.min(b.max(exp2.getOperand(), b.f(-127.0f)), b.f(128.5f));
    Value k = b.min(b.roundEven(x), b.f(127.0f));
    Value r = b.mul(b.sub(x, k), b.f(0x1.62e430p-1f));
    rewriter.replaceOp(exp2, ScaledExpPolynomial(b, k, r));
    return success();
  }
};

// sin and cos through one odd polynomial on [-pi/2, pi/2]: x = n pi + r, with n an integer for
// sin (sin x = (-1)^n sin r) and an integer minus 1/2 for cos (n = m - 1/2, cos x = (-1)^m
// sin r). r = x - n pi in three FMAs against pi split into three floats (pi to 72 bits): the
// first is exact (x and n pi's high part agree to their last bits), so r keeps its relative
// accuracy even where x is near a multiple of pi. sin r = r + r^3 P(r^2), P of degree 4 fitted
// (Chebyshev) to sin on [0, 1.7] (r runs a little past pi/2 where x / pi rounds): 0.51 ulp
// before rounding. The sign is m's low bit moved to bit 31 and XORed in. Accurate for
// |x| <= 2^20; past that the result is a number in [-1, 1], not sin x. NaN and infinities give
// NaN.
template <typename Op>
struct SinCosAsPolynomial : OpRewritePattern<Op> {
  static constexpr bool kCos = std::is_same_v<Op, math::CosOp>;

  SinCosAsPolynomial(MLIRContext* context) : OpRewritePattern<Op>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(Op op, PatternRewriter& rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32()) return failure();
    F32Builder b(rewriter, op.getLoc(), op.getType());
    Value x = op.getOperand();
    Value inv_pi = b.f(0x1.45f306p-2f);
    // m = roundeven(x / pi) for sin, roundeven(x / pi + 1/2) for cos; n = m - 1/2 for cos.
    Value m = kCos ? b.roundEven(b.fma(x, inv_pi, b.f(0.5f))) : b.roundEven(b.mul(x, inv_pi));
    Value n = kCos ? b.sub(m, b.f(0.5f)) : m;
    Value r = b.fma(n, b.f(-0x1.921fb6p+1f), x);
    r = b.fma(n, b.f(0x1.777a5cp-24f), r);
    r = b.fma(n, b.f(0x1.ee59dap-49f), r);
    // Where the quotient is exact, |r| < 1.7 (m may round to a neighbour of x / pi's nearest
    // integer by up to 0.02 of a step below 2^20); past that, this keeps the result in [-1, 1].
    r = b.min(b.max(r, b.f(-1.7f)), b.f(1.7f));
    Value r2 = b.mul(r, r);
    // P(t) = c0 + c1 t + c2 t^2 + c3 t^3 + c4 t^4, in Estrin's scheme.
    Value p01 = b.fma(r2, b.f(0x1.11110ep-7f), b.f(-0x1.555556p-3f));
    Value p23 = b.fma(r2, b.f(0x1.717c58p-19f), b.f(-0x1.a0186ep-13f));
    Value r4 = b.mul(r2, r2);
    Value p = b.fma(r4, b.fma(r4, b.f(-0x1.9ae5f0p-26f), p23), p01);
    Value sin_r = b.fma(b.mul(r2, r), p, r);
    Value sign = b.shl(b.toInt(m), 31);
    rewriter.replaceOp(op, b.asFloat(b.xori(b.asInt(sin_r), sign)));
    return success();
  }
};

// log(x) = k ln2 + log1p(f), x = 2^k (1 + f) with 1 + f in [2/3, 4/3), read from the bits:
// subtracting the bits of 2/3 puts the exponent's boundary at 2/3, so k is the difference
// shifted right (arithmetic) and 1 + f its low 23 bits plus 2/3's. f in [-1/3, 1/3):
// log1p(f) = f + f^2 (f Q(f) - 1/2), Q of degree 7 fitted (Chebyshev) on that interval: 0.30
// ulp before rounding; one FMA adds k ln2. A subnormal x is scaled by 2^23 first (k less 23).
// 0 gives -inf, negatives and NaN give NaN, +inf gives +inf. MLIR's form (Cephes' polynomial,
// its special values in three selects) took 47 instructions per four lanes and read a
// subnormal's exponent field as it is.
struct LogAsPolynomial : OpRewritePattern<math::LogOp> {
  LogAsPolynomial(MLIRContext* context) : OpRewritePattern<math::LogOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::LogOp log, PatternRewriter& rewriter) const override {
    if (!getElementTypeOrSelf(log.getType()).isF32()) return failure();
    using P = arith::CmpFPredicate;
    F32Builder b(rewriter, log.getLoc(), log.getType());
    Value x = log.getOperand();
    Value subnormal = b.compare(P::OLT, x, b.f(0x1p-126f));
    Value scaled = b.select(subnormal, b.mul(x, b.f(0x1p+23f)), x);
    Value u = b.subi(b.asInt(scaled), b.i(0x3f2aaaab));
    Value mantissa = b.addi(b.andi(u, b.i(0x007fffff)), b.i(0x3f2aaaab));
    Value f = b.sub(b.asFloat(mantissa), b.f(1.0f));
    Value k = b.sub(b.toFloat(b.shrsi(u, 23)), b.select(subnormal, b.f(23.0f), b.f(0.0f)));
    Value f2 = b.mul(f, f);
    Value q01 = b.fma(f, b.f(-0x1.fffff0p-3f), b.f(0x1.55554cp-2f));
    Value q23 = b.fma(f, b.f(-0x1.55678cp-3f), b.f(0x1.99ad6cp-3f));
    Value q45 = b.fma(f, b.f(-0x1.f9b330p-4f), b.f(0x1.21249ap-3f));
    Value q67 = b.fma(f, b.f(-0x1.f0a9eep-4f), b.f(0x1.12f598p-3f));
    Value q03 = b.fma(f2, q23, q01);
    Value q47 = b.fma(f2, q67, q45);
    Value q = b.fma(b.mul(f2, f2), q47, q03);
    Value y = b.fma(f2, b.fma(f, q, b.f(-0.5f)), f);
    y = b.fma(k, b.f(0x1.62e430p-1f), y);
    const float inf = std::numeric_limits<float>::infinity();
    Value special =
        b.select(b.compare(P::OEQ, x, b.f(0.0f)), b.f(-inf),
                 b.f(std::numeric_limits<float>::quiet_NaN()));
    y = b.select(b.compare(P::OGT, x, b.f(0.0f)), y, special);
    y = b.select(b.compare(P::OEQ, x, b.f(inf)), b.f(inf), y);
    rewriter.replaceOp(log, y);
    return success();
  }
};

}  // namespace

void populateMathPolynomialPatterns(RewritePatternSet& patterns) {
  patterns.add<ExpAsPolynomial, Exp2AsPolynomial, LogAsPolynomial, SinCosAsPolynomial<math::SinOp>,
               SinCosAsPolynomial<math::CosOp>>(patterns.getContext());
}

}  // namespace mlir::tt::expand_math
