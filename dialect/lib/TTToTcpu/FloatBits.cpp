// Narrow float conversions on bits (FloatBits.h).
#include "FloatBits.h"

#include <cmath>
#include <limits>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tt {

uint32_t NarrowFloatFormat::largestFinite() const {
  uint32_t magnitude_mask = (1u << (bits - 1)) - 1;
  switch (specials) {
    case Specials::kIeee:
      return infinity() - 1;
    case Specials::kNanAllOnes:
      return magnitude_mask - 1;
    case Specials::kNanNegativeZero:
      return magnitude_mask;
  }
  return 0;
}

uint32_t NarrowFloatFormat::infinity() const { return ((1u << exponentBits()) - 1) << mantissa; }

uint32_t NarrowFloatFormat::nan() const {
  switch (specials) {
    case Specials::kIeee:
      return infinity() | (1u << (mantissa - 1));  // the quiet NaN
    case Specials::kNanAllOnes:
      return (1u << (bits - 1)) - 1;
    case Specials::kNanNegativeZero:
      return 1u << (bits - 1);
  }
  return 0;
}

std::optional<NarrowFloatFormat> narrowFloatFormat(Type type) {
  using S = NarrowFloatFormat::Specials;
  if (type.isF16()) return NarrowFloatFormat{16, 10, 15, S::kIeee, false};
  if (type.isBF16()) return NarrowFloatFormat{16, 7, 127, S::kIeee, false};
  if (type.isFloat8E5M2()) return NarrowFloatFormat{8, 2, 15, S::kIeee, true};
  if (type.isFloat8E4M3FN()) return NarrowFloatFormat{8, 3, 7, S::kNanAllOnes, true};
  if (type.isFloat8E5M2FNUZ()) return NarrowFloatFormat{8, 2, 16, S::kNanNegativeZero, true};
  if (type.isFloat8E4M3FNUZ()) return NarrowFloatFormat{8, 3, 8, S::kNanNegativeZero, true};
  if (type.isFloat8E4M3B11FNUZ()) return NarrowFloatFormat{8, 3, 11, S::kNanNegativeZero, true};
  return std::nullopt;
}

bool isFp8(Type type) { return isa<FloatType>(type) && type.getIntOrFloatBitWidth() == 8; }

namespace float_bits {
namespace {

// `element` in the shape of `like` (scalar or vector).
Type Shaped(Type like, Type element) {
  if (auto vector = dyn_cast<VectorType>(like)) return VectorType::get(vector.getShape(), element);
  return element;
}

// Builds the integer and float ops of one conversion on values of one shape.
struct LaneOps {
  OpBuilder& b;
  Location loc;
  Type i32;
  Type f32;

  LaneOps(OpBuilder& builder, Location location, Type like)
      : b(builder),
        loc(location),
        i32(Shaped(like, builder.getI32Type())),
        f32(Shaped(like, builder.getF32Type())) {}

  Value Constant(Type type, TypedAttr scalar) {
    if (auto shaped = dyn_cast<ShapedType>(type)) {
      return b.create<arith::ConstantOp>(loc, type, DenseElementsAttr::get(shaped, scalar));
    }
    return b.create<arith::ConstantOp>(loc, type, scalar);
  }
  Value Int(int64_t value) {
    return Constant(i32, b.getIntegerAttr(b.getI32Type(), static_cast<int32_t>(value)));
  }
  Value Float(float value) { return Constant(f32, b.getF32FloatAttr(value)); }
  Value And(Value x, int64_t mask) { return b.create<arith::AndIOp>(loc, x, Int(mask)); }
  Value Or(Value x, Value y) { return b.create<arith::OrIOp>(loc, x, y); }
  Value Add(Value x, Value y) { return b.create<arith::AddIOp>(loc, x, y); }
  Value Sub(Value x, Value y) { return b.create<arith::SubIOp>(loc, x, y); }
  Value Shl(Value x, Value amount) { return b.create<arith::ShLIOp>(loc, x, amount); }
  Value Shr(Value x, Value amount) { return b.create<arith::ShRUIOp>(loc, x, amount); }
  Value Cmp(arith::CmpIPredicate predicate, Value x, Value y) {
    return b.create<arith::CmpIOp>(loc, predicate, x, y);
  }
  Value Select(Value condition, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, condition, x, y);
  }
  Value ToFloat(Value bits) { return b.create<arith::BitcastOp>(loc, f32, bits); }
  Value ToBits(Value value) { return b.create<arith::BitcastOp>(loc, i32, value); }
};

}  // namespace
}  // namespace float_bits

Value widenBitsToF32(OpBuilder& b, Location loc, Value bits, const NarrowFloatFormat& format) {
  using float_bits::LaneOps;
  using P = arith::CmpIPredicate;
  using S = NarrowFloatFormat::Specials;
  LaneOps ops(b, loc, bits.getType());
  unsigned n = format.bits, m = format.mantissa;
  if (n == 8 && m == 2 && format.bias == 15 && format.specials == S::kIeee) {
    // e5m2 is the upper byte of an f16 (infinities and NaNs included): a shift and FCVTL.
    Type i16 = float_bits::Shaped(bits.getType(), b.getI16Type());
    Value wide = b.create<arith::ExtUIOp>(loc, i16, bits);
    Value eight = ops.Constant(i16, b.getI16IntegerAttr(8));
    Value half = b.create<arith::BitcastOp>(loc, float_bits::Shaped(i16, b.getF16Type()),
                                            b.create<arith::ShLIOp>(loc, wide, eight));
    return b.create<arith::ExtFOp>(loc, ops.f32, half);
  }
  if (n == 8 && format.exponentBits() == 4) {
    // An f16 holds a 4-bit-exponent format's fields as they are, subnormals included, with
    // bias 15: FCVTL and one exact multiply by 2^(15 - bias) give the value (the product is a
    // normal f32, so flush-to-zero modes cannot change it). Only the specials need selects.
    Type i16 = float_bits::Shaped(bits.getType(), b.getI16Type());
    auto int16 = [&](int64_t value) { return ops.Constant(i16, b.getI16IntegerAttr(value)); };
    Value x = b.create<arith::ExtUIOp>(loc, i16, bits);
    Value magnitude = b.create<arith::AndIOp>(loc, x, int16(0x7f));
    Value sign =
        b.create<arith::ShLIOp>(loc, b.create<arith::AndIOp>(loc, x, int16(0x80)), int16(8));
    Value fields =
        b.create<arith::OrIOp>(loc, b.create<arith::ShLIOp>(loc, magnitude, int16(10 - m)), sign);
    Value half = b.create<arith::BitcastOp>(loc, float_bits::Shaped(i16, b.getF16Type()), fields);
    Value value = b.create<arith::MulFOp>(loc, b.create<arith::ExtFOp>(loc, ops.f32, half),
                                          ops.Float(std::ldexp(1.0f, 15 - format.bias)));
    auto equals = [&](Value v, int64_t constant) { return ops.Cmp(P::eq, v, int16(constant)); };
    Value nan = ops.Float(std::nanf(""));
    switch (format.specials) {
      case S::kIeee: {
        Value infinity = ops.Select(ops.Cmp(P::ne, sign, int16(0)),
                                    ops.Float(-std::numeric_limits<float>::infinity()),
                                    ops.Float(std::numeric_limits<float>::infinity()));
        Value special = ops.Cmp(P::uge, magnitude, int16(format.infinity()));
        value = ops.Select(special, ops.Select(equals(magnitude, format.infinity()), infinity, nan),
                           value);
        break;
      }
      case S::kNanAllOnes:
        value = ops.Select(equals(magnitude, format.nan()), nan, value);
        break;
      case S::kNanNegativeZero:
        value = ops.Select(equals(x, format.nan()), nan, value);
        break;
    }
    return value;
  }
  Value x = b.create<arith::ExtUIOp>(loc, ops.i32, bits);
  Value sign = ops.Shl(ops.And(x, 1u << (n - 1)), ops.Int(32 - n));
  Value magnitude = ops.And(x, (1u << (n - 1)) - 1);
  Value exponent = ops.Shr(magnitude, ops.Int(m));
  // A normal number keeps its fraction, its exponent rebiased from `bias` to 127.
  Value normal = ops.Add(ops.Shl(magnitude, ops.Int(23 - m)), ops.Int((127 - format.bias) << 23));
  // A subnormal is fraction x 2^(1 - bias - m): exact in f32 (at most m bits, a power of two).
  Value fraction = b.create<arith::UIToFPOp>(loc, ops.f32, ops.And(magnitude, (1u << m) - 1));
  Value subnormal = ops.ToBits(
      b.create<arith::MulFOp>(loc, fraction, ops.Float(std::ldexp(1.0f, 1 - format.bias - m))));
  Value value = ops.Select(ops.Cmp(P::eq, exponent, ops.Int(0)), subnormal, normal);
  value = ops.Or(value, sign);
  Value nan = ops.Int(0x7fc00000);
  switch (format.specials) {
    case S::kIeee: {
      Value special = ops.Cmp(P::eq, exponent, ops.Int((1u << format.exponentBits()) - 1));
      Value is_infinity = ops.Cmp(P::eq, magnitude, ops.Int(format.infinity()));
      Value infinity = ops.Or(ops.Int(0x7f800000), sign);
      value = ops.Select(special, ops.Select(is_infinity, infinity, ops.Or(nan, sign)), value);
      break;
    }
    case S::kNanAllOnes:
      value =
          ops.Select(ops.Cmp(P::eq, magnitude, ops.Int(format.nan())), ops.Or(nan, sign), value);
      break;
    case S::kNanNegativeZero:
      value = ops.Select(ops.Cmp(P::eq, x, ops.Int(format.nan())), nan, value);
      break;
  }
  return ops.ToFloat(value);
}

namespace float_bits {
namespace {

// f32 -> f16 or bf16 toward zero, the NaN as narrowF32ToBits makes it, in a handful of ops
// rather than its integer rounding: bf16 is the upper half of the f32's bits (the same exponent
// range: no overflow, subnormals truncate alike); f16 is FCVTN's nearest value stepped one
// encoding toward zero where its magnitude exceeds the input's (encodings of one sign order as
// their magnitudes; a finite overflow to infinity steps to the largest finite value, as rtz
// requires, and an infinite input is not beyond itself). half_narrow's f16 rtz: about 25
// integer ops per four lanes -> 8.
Value NarrowF32ToHalfTowardZero(OpBuilder& b, Location loc, Value value,
                                const NarrowFloatFormat& format) {
  LaneOps ops(b, loc, value.getType());
  Type i16 = Shaped(value.getType(), b.getI16Type());
  Value nan = ops.Constant(i16, b.getI16IntegerAttr(static_cast<int16_t>(format.nan())));
  Value is_nan = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, value, value);
  Value bits;
  if (format.mantissa == 7) {  // bf16
    bits = b.create<arith::TruncIOp>(loc, i16, ops.Shr(ops.ToBits(value), ops.Int(16)));
  } else {  // f16
    Value nearest = b.create<arith::TruncFOp>(loc, Shaped(value.getType(), b.getF16Type()), value);
    Value back = b.create<arith::ExtFOp>(loc, ops.f32, nearest);
    Value beyond = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT,
                                           b.create<math::AbsFOp>(loc, back),
                                           b.create<math::AbsFOp>(loc, value));
    bits = b.create<arith::SubIOp>(loc, b.create<arith::BitcastOp>(loc, i16, nearest),
                                   b.create<arith::ExtUIOp>(loc, i16, beyond));
  }
  return b.create<arith::SelectOp>(loc, is_nan, nan, bits);
}

// f32 -> a saturating fp8 format with a negative zero (E4M3FN, E5M2), exactly as the generic
// path rounds, in fewer ops: a result the format holds as a normal number rounds the f32's bits
// in one integer addition (toward zero: none) and a shift, the exponent rebiased by a
// subtraction; below the smallest normal the magnitude is added to 1.5 * 2^(23 + e), e the
// exponent of the format's smallest subnormal, whose ulp is that subnormal: the FPU rounds to
// nearest even and the sum's low bits are the count of subnormals (toward zero: a multiply by
// 2^-e, exact, and FCVTZU). Overflow, infinity included, saturates to the largest finite value.
// e4m3fn_narrow (both roundings): about 30 ops per four lanes each -> under 20.
Value NarrowF32ToSaturatingFp8(OpBuilder& b, Location loc, Value value,
                               const NarrowFloatFormat& format, bool toward_zero) {
  using P = arith::CmpIPredicate;
  LaneOps ops(b, loc, value.getType());
  const int m = static_cast<int>(format.mantissa);
  const int smallest_normal = 1 - format.bias;  // its exponent
  const int smallest_subnormal = smallest_normal - m;
  Value x = ops.ToBits(value);
  Value a = ops.And(x, 0x7fffffff);
  Value magnitude = ops.ToFloat(a);
  // Normal: the f32 bits rounded at the format's last mantissa bit, then rebiased.
  Value rounded = a;
  if (!toward_zero) {
    Value odd = ops.And(ops.Shr(a, ops.Int(23 - m)), 1);
    rounded = ops.Add(ops.Add(a, ops.Int((1 << (22 - m)) - 1)), odd);
  }
  Value normal = ops.Sub(ops.Shr(rounded, ops.Int(23 - m)),
                         ops.Int(static_cast<int64_t>(127 - format.bias) << m));
  // Subnormal (or zero): the count of the smallest subnormal.
  Value subnormal;
  if (toward_zero) {
    Value scaled = b.create<arith::MulFOp>(loc, magnitude,
                                           ops.Float(std::ldexp(1.0f, -smallest_subnormal)));
    subnormal = b.create<arith::FPToUIOp>(loc, ops.i32, scaled);
  } else {
    const float shifter = std::ldexp(1.5f, 23 + smallest_subnormal);
    Value sum = b.create<arith::AddFOp>(loc, magnitude, ops.Float(shifter));
    subnormal = ops.Sub(ops.ToBits(sum), ops.ToBits(ops.Float(shifter)));
  }
  const int64_t normal_bits = static_cast<int64_t>(127 + smallest_normal) << 23;
  Value result = ops.Select(ops.Cmp(P::ult, a, ops.Int(normal_bits)), subnormal, normal);
  result = b.create<arith::MinUIOp>(loc, result, ops.Int(format.largestFinite()));
  result = ops.Or(result, ops.Shr(ops.And(x, 0x80000000u), ops.Int(24)));
  Value is_nan = ops.Cmp(P::ugt, a, ops.Int(0x7f800000));
  result = ops.Select(is_nan, ops.Int(format.nan()), result);
  return b.create<arith::TruncIOp>(loc, Shaped(value.getType(), b.getI8Type()), result);
}

}  // namespace
}  // namespace float_bits

Value narrowF32ToBits(OpBuilder& b, Location loc, Value value, const NarrowFloatFormat& format,
                      bool toward_zero) {
  using float_bits::LaneOps;
  using P = arith::CmpIPredicate;
  if (toward_zero && format.bits == 16 && format.specials == NarrowFloatFormat::Specials::kIeee &&
      !format.saturates) {
    return float_bits::NarrowF32ToHalfTowardZero(b, loc, value, format);
  }
  if (format.bits == 8 && format.saturates &&
      format.specials != NarrowFloatFormat::Specials::kNanNegativeZero) {
    return float_bits::NarrowF32ToSaturatingFp8(b, loc, value, format, toward_zero);
  }
  LaneOps ops(b, loc, value.getType());
  unsigned n = format.bits, m = format.mantissa;
  int bias = format.bias;
  Value x = ops.ToBits(value);
  Value sign = ops.And(x, 0x80000000u);
  Value a = ops.And(x, 0x7fffffff);
  Value is_nan = ops.Cmp(P::ugt, a, ops.Int(0x7f800000));
  Value is_infinity = ops.Cmp(P::eq, a, ops.Int(0x7f800000));
  // f32's biased exponent, 1 for its subnormals (whose fraction has no implicit bit).
  Value exponent = b.create<arith::MaxUIOp>(loc, ops.Shr(a, ops.Int(23)), ops.Int(1));
  Value implicit =
      ops.Select(ops.Cmp(P::ugt, a, ops.Int(0x007fffff)), ops.Int(0x00800000), ops.Int(0));
  Value significand = ops.Or(ops.And(a, 0x007fffff), implicit);
  // Below the format's smallest normal exponent the significand is shifted further right (a
  // subnormal result); a shift of 31 leaves 0 from any 24-bit significand, also when rounding.
  Value below = b.create<arith::MaxSIOp>(loc, ops.Sub(ops.Int(128 - bias), exponent), ops.Int(0));
  Value shift = b.create<arith::MinUIOp>(loc, ops.Add(below, ops.Int(23 - m)), ops.Int(31));
  // At or above it, the f32 bits rebiased to the format's exponent are the result shifted left.
  Value rebiased = ops.Sub(a, ops.Int(static_cast<int64_t>(127 - bias) << 23));
  Value source = ops.Select(ops.Cmp(P::eq, below, ops.Int(0)), rebiased, significand);
  Value result = ops.Shr(source, shift);
  if (!toward_zero) {
    Value one = ops.Int(1);
    Value rest = b.create<arith::AndIOp>(loc, source, ops.Sub(ops.Shl(one, shift), one));
    Value half = ops.Shl(one, ops.Sub(shift, one));
    Value odd = ops.Cmp(P::ne, ops.And(result, 1), ops.Int(0));
    Value up =
        b.create<arith::OrIOp>(loc, ops.Cmp(P::ugt, rest, half),
                               b.create<arith::AndIOp>(loc, ops.Cmp(P::eq, rest, half), odd));
    result = ops.Add(result, b.create<arith::ExtUIOp>(loc, ops.i32, up));
  }
  // Overflow: the largest finite value when saturating or rounding toward zero, else infinity
  // (IEEE); an infinite input stays infinite unless the format saturates.
  bool to_largest = format.saturates || toward_zero;
  result = b.create<arith::MinUIOp>(
      loc, result, ops.Int(to_largest ? format.largestFinite() : format.infinity()));
  if (!format.saturates) result = ops.Select(is_infinity, ops.Int(format.infinity()), result);
  Value signed_result = ops.Or(result, ops.Shr(sign, ops.Int(32 - n)));
  if (format.specials == NarrowFloatFormat::Specials::kNanNegativeZero) {
    // No -0: the sign bit over a zero magnitude would be the NaN.
    signed_result = ops.Select(ops.Cmp(P::eq, result, ops.Int(0)), result, signed_result);
  }
  result = ops.Select(is_nan, ops.Int(format.nan()), signed_result);
  return b.create<arith::TruncIOp>(loc, float_bits::Shaped(value.getType(), b.getIntegerType(n)),
                                   result);
}

}  // namespace mlir::tt
