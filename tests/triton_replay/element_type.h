// The TTIR types a replay meets: scalar arguments (decoded exactly from a record's value or bits)
// and the element types pointer arguments address, with the way a buffer's elements of that
// type are compared (tools/triton_capture/FORMAT.md, "Comparing").
#ifndef TCPU_TESTS_TRITON_REPLAY_ELEMENT_TYPE_H_
#define TCPU_TESTS_TRITON_REPLAY_ELEMENT_TYPE_H_

#include <cstdint>
#include <string>

namespace tcpu::replay {

// i1 i8 i16 i32 i64 f16 bf16 f32 f64: the scalar argument types of a TTIR kernel.
struct ScalarType {
  const char* name;
  int bits;
  bool is_float;
};

// The scalar type named `name`, or nullptr.
const ScalarType* FindScalarType(const std::string& name);
// "i1 i8 ... f64", for error messages.
std::string ScalarTypeNames();
// The value of a float scalar from its IEEE bits (exact: every f16, bf16 and f32 is a double).
double FloatFromBits(const ScalarType& type, uint64_t bits);

// How elements of a buffer are compared.
enum class Comparison {
  kExact,      // integers, bool, pointers, unknown types: the bytes
  kTolerance,  // f16 bf16 f32 f64: |cpu - gpu| <= atol + rtol |gpu|; NaN equals NaN, inf exact
  kFp8Ulp,     // fp8: at most one unit in the last place apart; NaN equals NaN, inf exact
};

struct ElementType {
  std::string name;  // the TTIR element type ("f32", "f8E4M3FN", "!tt.ptr<f16>"), or "byte"
  int size = 1;      // bytes per element
  Comparison comparison = Comparison::kExact;
  double atol = 0;
  double rtol = 0;
};

// The element type a `!tt.ptr<name>` addresses; unknown names compare byte by byte.
ElementType ElementTypeOf(const std::string& name);

// The value of one element at `bytes` (little-endian) as a double, for comparing and reporting:
// integers and floats as their value, fp8 decoded, pointers and bytes as unsigned integers.
double ElementValue(const ElementType& type, const uint8_t* bytes);

// Whether two elements of `type` match (FORMAT.md's tolerances); `error` gets |cpu - gpu|
// (infinity where NaN or inf differ).
bool ElementsMatch(const ElementType& type, const uint8_t* cpu, const uint8_t* gpu, double* error);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_ELEMENT_TYPE_H_
