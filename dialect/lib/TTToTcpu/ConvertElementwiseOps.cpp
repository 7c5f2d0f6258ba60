// tt-to-tcpu-elementwise: arith and math ops on tensors become the same ops on vectors
// (constants reshaped to vector constants), and tt's elementwise ops their arith/math
// equivalents:
//   clampf            -> maximumf/minimumf (propagateNan = all) or maxnumf/minnumf (none)
//   precise_sqrt/divf -> math.sqrt / arith.divf (IEEE-exact on a CPU)
//   mulhiui           -> widen, multiply, take the high half
//   fp_to_fp          -> extf / truncf (round to nearest even); fp8 (held as i8) and rounding
//                        toward zero through f32 on integer bits (FloatBits.h)
//   bitcast           -> arith.bitcast
//   extern_elementwise-> the math op its libdevice-style symbol names
//   math.fma on f16   -> on a target without fp16: in f32 rounded to odd, then to f16 (below)
// Other f16 arithmetic stays f16: with fp16 the backend computes it on 8-lane f16 vectors
// (FADD/FMUL/FMLA .8h), without it in f32 rounded back to f16 after each op, which gives the
// same numbers (f32 holds 2 x 11 + 2 bits: +, -, *, /, sqrt round once either way).
#include <type_traits>

#include "FloatBits.h"
#include "TypeConverter.h"
#include "tcpu/TcpuAttrs.h"
#include "llvm/ADT/StringSwitch.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUELEMENTWISE
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_elementwise_ops {
namespace {

// Any arith/math op on tensors: the same op on vectors.
struct RetypeOp : ConversionPattern {
  RetypeOp(const TypeConverter& converter, MLIRContext* context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation* op, ArrayRef<Value> operands,
                                ConversionPatternRewriter& rewriter) const override {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (dialect != "arith" && dialect != "math") return failure();
    if (isa<arith::ConstantOp>(op)) return failure();
    auto fp8 = [](Type type) { return isFp8(getElementTypeOrSelf(type)); };
    bool moves_bits = isa<arith::SelectOp, arith::BitcastOp>(op);
    if (!moves_bits && (llvm::any_of(op->getOperandTypes(), fp8) ||
                        llvm::any_of(op->getResultTypes(), fp8))) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op)) return failure();  // FloatConversion's
      return op->emitError() << "arithmetic on fp8 is not supported (Arm has no fp8 arithmetic); "
                                "convert to f16, bf16 or f32 with tt.fp_to_fp first";
    }
    return convertOpTypes(op, operands, *getTypeConverter(), rewriter);
  }
};

struct TensorConstant : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (auto scalar = dyn_cast<FloatAttr>(op.getValue())) {  // an fp8 scalar: its bits
      if (!isFp8(scalar.getType())) return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, type, rewriter.getIntegerAttr(type, scalar.getValue().bitcastToAPInt()));
      return success();
    }
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense) return failure();
    auto vector = cast<VectorType>(type);
    if (dense.getElementType() != vector.getElementType()) {  // fp8 elements as i8
      dense = dense.bitcast(vector.getElementType());
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, vector, dense.reshape(vector));
    return success();
  }
};

template <typename Op>
struct TTPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  Type ResultType(Op op) const {
    return this->getTypeConverter()->convertType(op->getResult(0).getType());
  }
};

struct ClampF : TTPattern<ClampFOp> {
  using TTPattern::TTPattern;
  LogicalResult matchAndRewrite(ClampFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    Value result;
    if (op.getPropagateNan() == PropagateNan::ALL) {
      result = rewriter.create<arith::MaximumFOp>(loc, adaptor.getX(), adaptor.getMin());
      result = rewriter.create<arith::MinimumFOp>(loc, result, adaptor.getMax());
    } else {
      result = rewriter.create<arith::MaxNumFOp>(loc, adaptor.getX(), adaptor.getMin());
      result = rewriter.create<arith::MinNumFOp>(loc, result, adaptor.getMax());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PreciseSqrt : TTPattern<PreciseSqrtOp> {
  using TTPattern::TTPattern;
  LogicalResult matchAndRewrite(PreciseSqrtOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.replaceOpWithNewOp<math::SqrtOp>(op, adaptor.getX());
    return success();
  }
};

struct PreciseDivF : TTPattern<PreciseDivFOp> {
  using TTPattern::TTPattern;
  LogicalResult matchAndRewrite(PreciseDivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, adaptor.getX(), adaptor.getY());
    return success();
  }
};

struct MulhiUI : TTPattern<MulhiUIOp> {
  using TTPattern::TTPattern;
  LogicalResult matchAndRewrite(MulhiUIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    Type type = ResultType(op);
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Type wide_element = rewriter.getIntegerType(2 * width);
    Type wide = isa<VectorType>(type)
                    ? Type(VectorType::get(cast<VectorType>(type).getShape(), wide_element))
                    : wide_element;
    Value x = rewriter.create<arith::ExtUIOp>(loc, wide, adaptor.getX());
    Value y = rewriter.create<arith::ExtUIOp>(loc, wide, adaptor.getY());
    Value product = rewriter.create<arith::MulIOp>(loc, x, y);
    TypedAttr width_attr = rewriter.getIntegerAttr(wide_element, width);
    if (auto shaped = dyn_cast<ShapedType>(wide)) {
      width_attr = DenseElementsAttr::get(shaped, width_attr);
    }
    Value shift = rewriter.create<arith::ConstantOp>(loc, wide, width_attr);
    Value high = rewriter.create<arith::ShRUIOp>(loc, product, shift);
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, high);
    return success();
  }
};

// `source` (converted: fp8 as i8 bits) from float type `from` to `to`, as `result_type`.
// Through f32 whenever fp8 or rounding toward zero is involved (FloatBits.h); f32 holds every
// f16, bf16 and fp8 value exactly, so the one rounding is the last step's.
FailureOr<Value> ConvertFloat(Operation* op, OpBuilder& b, Value source, Type from, Type to,
                              bool toward_zero, Type result_type) {
  Location loc = op->getLoc();
  unsigned from_bits = from.getIntOrFloatBitWidth(), to_bits = to.getIntOrFloatBitWidth();
  if (from == to) return source;
  bool narrows = to_bits <= from_bits;  // f16 <-> bf16 both ways lose bits
  bool needs_bits = isFp8(from) || isFp8(to) || (toward_zero && narrows);
  if (!needs_bits) {
    if (from_bits < to_bits) return b.create<arith::ExtFOp>(loc, result_type, source).getResult();
    if (from_bits > to_bits) {
      return b.create<arith::TruncFOp>(loc, result_type, source).getResult();
    }
    // f16 <-> bf16 through f32.
    Type f32 = b.getF32Type();
    if (auto vector = dyn_cast<VectorType>(result_type)) {
      f32 = VectorType::get(vector.getShape(), b.getF32Type());
    }
    Value wide = b.create<arith::ExtFOp>(loc, f32, source);
    return b.create<arith::TruncFOp>(loc, result_type, wide).getResult();
  }
  if (from.isF64() || to.isF64()) {
    return op->emitError() << "converting " << from << " to " << to
                           << (toward_zero ? " with rounding = rtz" : "")
                           << " is not supported: only f32, f16, bf16 and fp8 meet fp8 or rtz";
  }
  auto shaped = [&](Type element) -> Type {
    if (auto vector = dyn_cast<VectorType>(result_type)) {
      return VectorType::get(vector.getShape(), element);
    }
    return element;
  };
  for (Type type : {from, to}) {
    if (isFp8(type) && !narrowFloatFormat(type)) {
      return op->emitError() << type << " is not an fp8 type Triton prints (f8E4M3FN, f8E5M2, "
                                        "f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ)";
    }
  }
  Value wide = source;
  if (isFp8(from)) {
    wide = widenBitsToF32(b, loc, source, *narrowFloatFormat(from));
  } else if (!from.isF32()) {
    wide = b.create<arith::ExtFOp>(loc, shaped(b.getF32Type()), source);
  }
  if (to.isF32()) return wide;
  if (!isFp8(to) && !toward_zero) {  // f16/bf16, to nearest even: FCVT
    return b.create<arith::TruncFOp>(loc, result_type, wide).getResult();
  }
  Value bits = narrowF32ToBits(b, loc, wide, *narrowFloatFormat(to), toward_zero);
  if (isFp8(to)) return bits;
  return b.create<arith::BitcastOp>(loc, result_type, bits).getResult();
}

// tt.fp_to_fp, and arith.extf / arith.truncf from or to fp8 (which has no LLVM type; as
// tt.fp_to_fp to nearest even): ConvertFloat.
template <typename Op>
struct FloatConversion : TTPattern<Op> {
  using TTPattern<Op>::TTPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    Type to = getElementTypeOrSelf(op.getType());
    bool toward_zero = false;
    if constexpr (std::is_same_v<Op, FpToFpOp>) {
      toward_zero = op.getRounding() && *op.getRounding() == RoundingMode::RTZ;
    } else if (!isFp8(from) && !isFp8(to)) {
      return failure();  // f16/bf16/f32/f64: RetypeOp
    }
    FailureOr<Value> result = ConvertFloat(op, rewriter, adaptor.getOperands()[0], from, to,
                                           toward_zero, this->ResultType(op));
    if (failed(result)) return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct Bitcast : TTPattern<BitcastOp> {
  using TTPattern::TTPattern;
  LogicalResult matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (isPointerLike(op.getType()) || isPointerLike(op.getSrc().getType())) {
      return op.emitError() << "bitcast between a pointer and " << op.getType()
                            << " is not supported; use tt.ptr_to_int / tt.int_to_ptr";
    }
    if (adaptor.getSrc().getType() == ResultType(op)) {  // fp8 <-> i8 or fp8: the same bits
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, ResultType(op), adaptor.getSrc());
    return success();
  }
};

// f16 fma(x, y, z) on a target without fp16, rounded once as FMLA .8h / Triton's f16 fma:
// x * y is exact in f32 and the sum's rounding error is exact by TwoSum, so the sum rounded
// to odd in f32 (the neighbour with an odd significand when the rounding was inexact) is
// computed exactly; 24 >= 11 + 2 bits, so rounding that to f16 is the one correct rounding.
// (The backend's own f32 FMA then f16 rounding would round twice.)
struct F16FmaThroughF32 : OpConversionPattern<math::FmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(math::FmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF16() ||
        tcpu::targetHasFeature(tcpu::getEnclosingTarget(op), "fp16")) {
      return failure();
    }
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    auto like = [&](Type element) -> Type {
      if (auto vector = dyn_cast<VectorType>(type)) {
        return VectorType::get(vector.getShape(), element);
      }
      return element;
    };
    Type f32 = like(rewriter.getF32Type()), i32 = like(rewriter.getI32Type());
    auto constant = [&](Type of, Attribute scalar) -> Value {
      if (auto vector = dyn_cast<VectorType>(of)) {
        return rewriter.create<arith::ConstantOp>(loc, DenseElementsAttr::get(vector, scalar));
      }
      return rewriter.create<arith::ConstantOp>(loc, cast<TypedAttr>(scalar));
    };
    auto widen = [&](Value v) { return rewriter.create<arith::ExtFOp>(loc, f32, v).getResult(); };
    Value x = widen(adaptor.getA()), y = widen(adaptor.getB()), z = widen(adaptor.getC());
    Value product = rewriter.create<arith::MulFOp>(loc, x, y);  // exact
    Value sum = rewriter.create<arith::AddFOp>(loc, product, z);
    // TwoSum: error = (product + z) - sum exactly (NaN when an operand is infinite or NaN).
    Value z_part = rewriter.create<arith::SubFOp>(loc, sum, product);
    Value product_part = rewriter.create<arith::SubFOp>(loc, sum, z_part);
    Value error = rewriter.create<arith::AddFOp>(
        loc, rewriter.create<arith::SubFOp>(loc, product, product_part),
        rewriter.create<arith::SubFOp>(loc, z, z_part));
    Value inexact = rewriter.create<arith::CmpFOp>(loc, arith::CmpFPredicate::ONE, error,
                                                   constant(f32, rewriter.getF32FloatAttr(0)));
    Value bits = rewriter.create<arith::BitcastOp>(loc, i32, sum);
    Value one = constant(i32, rewriter.getI32IntegerAttr(1));
    Value zero = constant(i32, rewriter.getI32IntegerAttr(0));
    Value even = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, rewriter.create<arith::AndIOp>(loc, bits, one), zero);
    // The other neighbour lies away from zero when the error has the sum's sign (the sum is
    // never zero when inexact: both terms are multiples of 2^-48).
    Value error_bits = rewriter.create<arith::BitcastOp>(loc, i32, error);
    Value same_sign = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::sge, rewriter.create<arith::XOrIOp>(loc, bits, error_bits),
        zero);
    Value step = rewriter.create<arith::SelectOp>(loc, same_sign, one,
                                                  constant(i32, rewriter.getI32IntegerAttr(-1)));
    Value odd = rewriter.create<arith::AddIOp>(loc, bits, step);
    Value to_odd = rewriter.create<arith::AndIOp>(loc, inexact, even);
    Value rounded = rewriter.create<arith::SelectOp>(loc, to_odd, odd, bits);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(
        op, type, rewriter.create<arith::BitcastOp>(loc, f32, rounded));
    return success();
  }
};

// The math function a libdevice-style symbol names: `__nv_expf`, `__nv_exp`, `expf`,
// `__ocml_exp_f32` all name "exp".
StringRef MathName(StringRef symbol) {
  static constexpr llvm::StringLiteral kNames[] = {
      "exp",  "exp2", "expm1", "log",   "log2",  "log10", "log1p", "sqrt", "rsqrt",
      "tanh", "erf",  "sin",   "cos",   "tan",   "atan",  "abs",   "fabs", "floor",
      "ceil", "trunc", "round", "rint", "nearbyint", "pow", "atan2", "fmax", "fmin",
      "fmod", "fma"};
  auto known = [](StringRef name) { return llvm::is_contained(kNames, name); };
  symbol.consume_front("__nv_");
  symbol.consume_front("__ocml_");
  if (symbol.consume_back("_f32") || symbol.consume_back("_f64") || known(symbol)) return symbol;
  if (symbol.ends_with("f") && known(symbol.drop_back(1))) return symbol.drop_back(1);
  return symbol;
}

// The float test a libdevice-style symbol names (`__nv_isinff`, `__nv_isnand`,
// `__nv_finitef`, `__nv_isfinited`, `__nv_signbitf`, `__ocml_isinf_f32`), or "".
StringRef ClassName(StringRef symbol) {
  symbol.consume_front("__nv_");
  symbol.consume_front("__ocml_");
  for (StringRef test : {"isinf", "isnan", "isfinite", "finite", "signbit"}) {
    if (symbol == test || symbol == (test + "f").str() || symbol == (test + "d").str() ||
        symbol == (test + "_f32").str() || symbol == (test + "_f64").str()) {
      return test == "finite" ? "isfinite" : test;
    }
  }
  return "";
}

// `test`(x) for a float x as an integer 0 or 1 of the result's type: libdevice's tests
// return int32 (`libdevice.isinf`, which Inductor's logcumsumexp calls).
Value ClassifyFloat(OpBuilder& b, Location loc, StringRef test, Value x, Type result) {
  auto element = cast<FloatType>(getElementTypeOrSelf(x.getType()));
  auto infinity = [&]() {
    return createScalarOrSplatConstant(b, loc, x.getType(),
                                       APFloat::getInf(element.getFloatSemantics()));
  };
  Value bit;
  if (test == "isnan") {
    bit = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, x, x);
  } else if (test == "isinf") {
    bit = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, b.create<math::AbsFOp>(loc, x),
                                  infinity());
  } else if (test == "isfinite") {
    bit = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, b.create<math::AbsFOp>(loc, x),
                                  infinity());
  } else {  // signbit: the top bit, for -0.0 and negative NaNs too
    Type integer = b.getIntegerType(element.getWidth());
    if (auto vector = dyn_cast<VectorType>(x.getType())) integer = vector.clone(integer);
    Value bits = b.create<arith::BitcastOp>(loc, integer, x);
    bit = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, bits,
                                  createScalarOrSplatConstant(b, loc, integer, 0));
  }
  if (getElementTypeOrSelf(result).isInteger(1)) return bit;
  return b.create<arith::ExtUIOp>(loc, result, bit);
}

struct ExternElementwise : TTPattern<ExternElementwiseOp> {
  using TTPattern::TTPattern;
  LogicalResult matchAndRewrite(ExternElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Type type = ResultType(op);
    ValueRange args = adaptor.getSrcs();
    StringRef name = MathName(op.getSymbol());
    if (StringRef test = ClassName(op.getSymbol()); !test.empty()) {
      if (args.size() != 1 || !isa<FloatType>(getElementTypeOrSelf(op.getSrcs()[0].getType())) ||
          !isa<IntegerType>(getElementTypeOrSelf(op.getType()))) {
        return op.emitError() << "tt.extern_elementwise symbol '" << op.getSymbol()
                              << "' needs one floating-point operand and an integer result, got ("
                              << op.getSrcs().getTypes() << ") -> " << op.getType();
      }
      rewriter.replaceOp(op, ClassifyFloat(rewriter, op.getLoc(), test, args[0], type));
      return success();
    }
    // Every function below is a float function on one type: integer calls (`__nv_abs`) or
    // mixed types would build invalid math ops, so refuse them by name here.
    bool same_float_type =
        isa<FloatType>(getElementTypeOrSelf(op.getType())) &&
        llvm::all_of(op.getSrcs().getTypes(), [&](Type arg) { return arg == op.getType(); });
    if (!same_float_type) {
      return op.emitError() << "tt.extern_elementwise symbol '" << op.getSymbol()
                            << "' needs operands and result of one floating-point type, got ("
                            << op.getSrcs().getTypes() << ") -> " << op.getType();
    }
    auto unary = [&](auto tag) -> LogicalResult {
      using MathOp = decltype(tag);
      if (args.size() != 1) return failure();
      rewriter.replaceOpWithNewOp<MathOp>(op, type, args[0]);
      return success();
    };
    auto binary = [&](auto tag) -> LogicalResult {
      using MathOp = decltype(tag);
      if (args.size() != 2) return failure();
      rewriter.replaceOpWithNewOp<MathOp>(op, type, args[0], args[1]);
      return success();
    };
    LogicalResult done = failure();
    if (name == "exp") done = unary(math::ExpOp());
    else if (name == "exp2") done = unary(math::Exp2Op());
    else if (name == "expm1") done = unary(math::ExpM1Op());
    else if (name == "log") done = unary(math::LogOp());
    else if (name == "log2") done = unary(math::Log2Op());
    else if (name == "log10") done = unary(math::Log10Op());
    else if (name == "log1p") done = unary(math::Log1pOp());
    else if (name == "sqrt") done = unary(math::SqrtOp());
    else if (name == "rsqrt") done = unary(math::RsqrtOp());
    else if (name == "tanh") done = unary(math::TanhOp());
    else if (name == "erf") done = unary(math::ErfOp());
    else if (name == "sin") done = unary(math::SinOp());
    else if (name == "cos") done = unary(math::CosOp());
    else if (name == "tan") done = unary(math::TanOp());
    else if (name == "atan") done = unary(math::AtanOp());
    else if (name == "abs" || name == "fabs") done = unary(math::AbsFOp());
    else if (name == "floor") done = unary(math::FloorOp());
    else if (name == "ceil") done = unary(math::CeilOp());
    else if (name == "trunc") done = unary(math::TruncOp());
    else if (name == "round") done = unary(math::RoundOp());
    else if (name == "rint" || name == "nearbyint") done = unary(math::RoundEvenOp());
    else if (name == "pow") done = binary(math::PowFOp());
    else if (name == "atan2") done = binary(math::Atan2Op());
    else if (name == "fmax") done = binary(arith::MaxNumFOp());
    else if (name == "fmin") done = binary(arith::MinNumFOp());
    else if (name == "fmod") done = binary(arith::RemFOp());
    else if (name == "fma" && args.size() == 3) {
      rewriter.replaceOpWithNewOp<math::FmaOp>(op, args[0], args[1], args[2]);
      done = success();
    }
    if (failed(done)) {
      return op.emitError() << "tt.extern_elementwise symbol '" << op.getSymbol()
                            << "' with " << args.size()
                            << " operands has no CPU equivalent (known: exp, exp2, expm1, log, "
                               "log2, log10, log1p, sqrt, rsqrt, tanh, erf, sin, cos, tan, atan, "
                               "fabs, floor, ceil, trunc, round, rint, pow, atan2, fmax, fmin, "
                               "fmod, fma with libdevice prefixes and f suffixes; isinf, "
                               "isnan, isfinite, signbit returning an integer)";
    }
    return success();
  }
};

struct TTToTcpuElementwise : impl::TTToTcpuElementwiseBase<TTToTcpuElementwise> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&converter](Operation* op) { return hasLegalTypes(op, converter); });
    target.addIllegalOp<ClampFOp, PreciseSqrtOp, PreciseDivFOp, MulhiUIOp, FpToFpOp,
                        ExternElementwiseOp>();
    // Scalar f16 FMAs too: the backend would round them twice as well.
    bool fp16 = tcpu::targetHasFeature(tcpu::getEnclosingTarget(getOperation()), "fp16");
    target.addDynamicallyLegalOp<math::FmaOp>([&converter, fp16](math::FmaOp op) {
      return hasLegalTypes(op, converter) &&
             (fp16 || !getElementTypeOrSelf(op.getType()).isF16());
    });
    target.addDynamicallyLegalOp<BitcastOp>([](BitcastOp op) {
      return isPointerLike(op.getType()) && isPointerLike(op.getSrc().getType());
    });
    RewritePatternSet patterns(context);
    patterns.add<RetypeOp, TensorConstant, ClampF, PreciseSqrt, PreciseDivF, MulhiUI,
                 FloatConversion<FpToFpOp>, Bitcast, ExternElementwise>(converter, context);
    patterns.add<FloatConversion<arith::ExtFOp>, FloatConversion<arith::TruncFOp>,
                 F16FmaThroughF32>(converter, context, /*benefit=*/2);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_elementwise_ops
}  // namespace mlir::tt
