// Conversions between f32 and the narrow float formats (the five fp8 types Triton prints, f16,
// bf16) done
// on their bits with integer vector ops: Armv8/9 have no fp8 arithmetic, and no instruction
// rounds f32 to f16/bf16 toward zero, so these are exact, lane-parallel bit manipulations (no
// libcall, no per-element branch). fp8 values are held as i8 (TypeConverter.h).
//
// Narrowing rounds to nearest even (rtne) or toward zero (rtz) and, for fp8, saturates as
// Triton does (PTX `cvt.rn.satfinite`, AMD's software path): a magnitude above the largest
// finite value, infinity included, becomes the largest finite value with its sign, and NaN
// becomes the format's NaN. f16/bf16 keep IEEE behaviour: toward zero a finite overflow is the
// largest finite value and infinity stays infinity. Where the FPU gives the same bits in fewer
// ops it is used (f16 toward zero from FCVTN's nearest value; fp8 subnormals rounded by adding
// a constant whose ulp is the smallest subnormal): every path is exact.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_FLOATBITS_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_FLOATBITS_H_

#include <optional>

#include "mlir/IR/Builders.h"

namespace mlir::tt {

// A narrow binary float format: sign, exponent, `mantissa` explicit fraction bits.
struct NarrowFloatFormat {
  enum class Specials {
    kIeee,            // all-ones exponent: infinity (fraction 0) or NaN (f16, bf16, E5M2)
    kNanAllOnes,      // no infinity; only S.1111.111 is NaN (E4M3FN)
    kNanNegativeZero  // no infinity, no -0; 1000 0000 is the only NaN (the FNUZ types)
  };
  unsigned bits;
  unsigned mantissa;
  int bias;
  Specials specials;
  bool saturates;  // narrowing clamps overflow (and infinity) to the largest finite value

  unsigned exponentBits() const { return bits - 1 - mantissa; }
  uint32_t largestFinite() const;  // the encoding of the largest finite magnitude
  uint32_t infinity() const;       // kIeee only
  uint32_t nan() const;            // the NaN narrowing produces
};

// The format of f16, bf16 or an fp8 type Triton prints (f8E4M3FN, f8E5M2, f8E4M3FNUZ,
// f8E5M2FNUZ, f8E4M3B11FNUZ); nullopt for any other type (MLIR's IEEE-style f8E4M3).
std::optional<NarrowFloatFormat> narrowFloatFormat(Type type);

// True for MLIR's fp8 types (held as i8 after conversion).
bool isFp8(Type type);

// `bits` (iN scalar or vector, N = format.bits) as f32 of the same shape; exact.
Value widenBitsToF32(OpBuilder& b, Location loc, Value bits, const NarrowFloatFormat& format);

// `value` (f32 scalar or vector) rounded to `format`, as iN bits of the same shape.
Value narrowF32ToBits(OpBuilder& b, Location loc, Value value, const NarrowFloatFormat& format,
                      bool toward_zero);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_FLOATBITS_H_
