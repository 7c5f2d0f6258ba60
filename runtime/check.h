// Argument checking for the C ABI entry points: each failed check records a detail
// message naming the function, the argument and the expected value, then returns the
// status. Usage inside `int tcpu_x(...)`:
//   TCPU_CHECK_NOT_NULL("tcpu_gemv_i8", x);
//   TCPU_CHECK_POSITIVE("tcpu_gemv_i8", k);
#ifndef TCPU_RUNTIME_CHECK_H_
#define TCPU_RUNTIME_CHECK_H_

#include <cstdint>
#include <cstdio>

#include "tcpu/status.h"

namespace tcpu {

// Records a printf-style detail for tcpu_last_error_detail() and returns `status`.
int Fail(int status, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Clears the detail: entry points call it on success paths via TCPU_OK_RETURN.
int Succeed();

// Runs `check(context)`, a validation that names `context` (a C string) in the error it
// reports, and formats `context` printf-style only if the check fails: it runs once with an
// empty context and, on failure, again with the formatted one (so a check must not change
// anything it did not fully compute). For validation that runs on every call, such as a decode
// step checking each layer's matrices, where formatting every name cost more than the checks.
template <typename Check, typename... Args>
int CheckNamed(const Check& check, const char* format, Args... args) {
  const int status = check("");
  if (status == TCPU_OK) return status;
  char context[192];
  std::snprintf(context, sizeof(context), format, args...);
  return check(static_cast<const char*>(context));
}

// a * b into *out; false if it overflows int64 (operands must be non-negative).
inline bool CheckedMul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

}  // namespace tcpu

#define TCPU_CHECK_NOT_NULL(fn, ptr)                                              \
  do {                                                                            \
    if ((ptr) == nullptr)                                                         \
      return ::tcpu::Fail(TCPU_ERR_NULL_POINTER, "%s: %s is NULL", fn, #ptr);     \
  } while (0)

#define TCPU_CHECK_POSITIVE(fn, value)                                            \
  do {                                                                            \
    if ((value) <= 0)                                                             \
      return ::tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: %s = %lld, expected > 0", fn, \
                          #value, static_cast<long long>(value));                 \
  } while (0)

// Sets *out = a * b or returns TCPU_ERR_SIZE_OVERFLOW naming both operands.
#define TCPU_CHECK_MUL(fn, a, b, out)                                                   \
  do {                                                                                  \
    if (!::tcpu::CheckedMul((a), (b), (out)))                                           \
      return ::tcpu::Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: %s * %s = %lld * %lld overflows int64", \
                          fn, #a, #b, static_cast<long long>(a), static_cast<long long>(b)); \
  } while (0)

#endif  // TCPU_RUNTIME_CHECK_H_
