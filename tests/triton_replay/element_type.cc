#include "tests/triton_replay/element_type.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tcpu::replay {
namespace {

constexpr ScalarType kScalarTypes[] = {
    {"i1", 1, false},   {"i8", 8, false},   {"i16", 16, false},
    {"i32", 32, false}, {"i64", 64, false}, {"f16", 16, true},
    {"bf16", 16, true}, {"f32", 32, true},  {"f64", 64, true},
};

// An 8-bit float: 1 sign bit, `exponent_bits`, the rest mantissa.
struct Fp8Format {
  const char* name;
  int exponent_bits;
  int bias;
  enum class Specials {
    kIeee,
    kFn,
    kFnuz
  } specials;  // e5m2: inf and NaN as IEEE; E4M3FN: only
               // S.1111.111 is NaN; FNUZ: 0x80 is NaN
};

constexpr Fp8Format kFp8Formats[] = {
    {"f8E4M3FN", 4, 7, Fp8Format::Specials::kFn},
    {"f8E5M2", 5, 15, Fp8Format::Specials::kIeee},
    {"f8E4M3FNUZ", 4, 8, Fp8Format::Specials::kFnuz},
    {"f8E5M2FNUZ", 5, 16, Fp8Format::Specials::kFnuz},
    {"f8E4M3B11FNUZ", 4, 11, Fp8Format::Specials::kFnuz},
};

const Fp8Format* FindFp8(const std::string& name) {
  for (const Fp8Format& format : kFp8Formats) {
    if (name == format.name) return &format;
  }
  return nullptr;
}

double DecodeFp8(const Fp8Format& format, uint8_t bits) {
  const int mantissa_bits = 7 - format.exponent_bits;
  const int exponent_mask = (1 << format.exponent_bits) - 1;
  const int exponent = (bits >> mantissa_bits) & exponent_mask;
  const int mantissa = bits & ((1 << mantissa_bits) - 1);
  const double sign = (bits & 0x80) ? -1.0 : 1.0;
  switch (format.specials) {
    case Fp8Format::Specials::kFnuz:
      if (bits == 0x80) return std::numeric_limits<double>::quiet_NaN();
      break;
    case Fp8Format::Specials::kFn:
      if ((bits & 0x7f) == 0x7f) return std::numeric_limits<double>::quiet_NaN();
      break;
    case Fp8Format::Specials::kIeee:
      if (exponent == exponent_mask) {
        return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
      }
      break;
  }
  if (exponent == 0) return sign * std::ldexp(mantissa, 1 - format.bias - mantissa_bits);
  return sign * std::ldexp((1 << mantissa_bits) + mantissa, exponent - format.bias - mantissa_bits);
}

double HalfToDouble(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0x1f) {
    return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::quiet_NaN();
  }
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(0x400 + mantissa, exponent - 25);
}

template <typename T>
T Load(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

bool IsInteger(const std::string& name) {
  return name == "i1" || name == "i8" || name == "i16" || name == "i32" || name == "i64";
}

}  // namespace

const ScalarType* FindScalarType(const std::string& name) {
  for (const ScalarType& type : kScalarTypes) {
    if (name == type.name) return &type;
  }
  return nullptr;
}

std::string ScalarTypeNames() {
  std::string names;
  for (const ScalarType& type : kScalarTypes)
    names += (names.empty() ? "" : " ") + std::string(type.name);
  return names;
}

double FloatFromBits(const ScalarType& type, uint64_t bits) {
  const std::string name = type.name;
  if (name == "f16") return HalfToDouble(static_cast<uint16_t>(bits));
  if (name == "bf16") {
    const uint32_t wide = static_cast<uint32_t>(bits) << 16;
    return Load<float>(reinterpret_cast<const uint8_t*>(&wide));
  }
  if (name == "f32") {
    const uint32_t narrow = static_cast<uint32_t>(bits);
    return Load<float>(reinterpret_cast<const uint8_t*>(&narrow));
  }
  return Load<double>(reinterpret_cast<const uint8_t*>(&bits));
}

ElementType ElementTypeOf(const std::string& name) {
  if (name == "f64") return {name, 8, Comparison::kTolerance, 1e-5, 1e-5};
  if (name == "f32") return {name, 4, Comparison::kTolerance, 1e-4, 1e-4};
  if (name == "f16") return {name, 2, Comparison::kTolerance, 1e-3, 1e-3};
  if (name == "bf16") return {name, 2, Comparison::kTolerance, 1e-2, 1e-2};
  if (FindFp8(name) != nullptr) return {name, 1, Comparison::kFp8Ulp, 0, 0};
  if (name == "i1" || name == "i8") return {name, 1};
  if (name == "i16") return {name, 2};
  if (name == "i32") return {name, 4};
  if (name == "i64") return {name, 8};
  if (name.rfind("!tt.ptr", 0) == 0) return {name, 8};
  return {"byte", 1};
}

double ElementValue(const ElementType& type, const uint8_t* bytes) {
  const std::string& name = type.name;
  if (name == "f64") return Load<double>(bytes);
  if (name == "f32") return Load<float>(bytes);
  if (name == "f16") return HalfToDouble(Load<uint16_t>(bytes));
  if (name == "bf16") return FloatFromBits(*FindScalarType("bf16"), Load<uint16_t>(bytes));
  if (const Fp8Format* format = FindFp8(name)) return DecodeFp8(*format, bytes[0]);
  if (IsInteger(name)) {
    switch (type.size) {
      case 1:
        return static_cast<int8_t>(bytes[0]);
      case 2:
        return Load<int16_t>(bytes);
      case 4:
        return Load<int32_t>(bytes);
      default:
        return static_cast<double>(Load<int64_t>(bytes));
    }
  }
  return type.size == 8 ? static_cast<double>(Load<uint64_t>(bytes)) : bytes[0];
}

bool ElementsMatch(const ElementType& type, const uint8_t* cpu, const uint8_t* gpu, double* error) {
  const double c = ElementValue(type, cpu);
  const double g = ElementValue(type, gpu);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (type.comparison == Comparison::kExact) {
    const bool same = std::memcmp(cpu, gpu, type.size) == 0;
    *error = same ? 0 : std::fabs(c - g);
    return same;
  }
  if (std::isnan(c) || std::isnan(g)) {
    *error = std::isnan(c) && std::isnan(g) ? 0 : kInf;
    return *error == 0;
  }
  if (std::isinf(c) || std::isinf(g)) {
    *error = c == g ? 0 : kInf;
    return *error == 0;
  }
  *error = std::fabs(c - g);
  if (type.comparison == Comparison::kTolerance)
    return *error <= type.atol + type.rtol * std::fabs(g);
  // fp8: neighbours in the sign-magnitude order (+0 and -0 are both 0) are one unit apart.
  auto order = [](uint8_t bits) { return (bits & 0x80) ? -(bits & 0x7f) : (bits & 0x7f); };
  return std::abs(order(cpu[0]) - order(gpu[0])) <= 1;
}

}  // namespace tcpu::replay
