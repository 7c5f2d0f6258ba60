// Shared helpers of the kernel tests: deterministic random data, poisoned outputs, bf16 and
// fp32 error measured in ulps against a float64 reference, the QEMU variant being run, and
// thread-count sweeps.
#ifndef TCPU_RUNTIME_TESTING_KERNEL_TEST_UTIL_H_
#define TCPU_RUNTIME_TESTING_KERNEL_TEST_UTIL_H_

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace tcpu::testing {

// Uniform int8 in [lo, hi] (default: the whole range, -128 included).
std::vector<int8_t> RandomInt8(int64_t count, uint32_t seed, int lo = -128, int hi = 127);

// bf16 values ~ N(0, stddev) rounded from fp32, never all zero; a few exact zeros and
// values of larger magnitude are mixed in to exercise edge cases.
std::vector<uint16_t> RandomBf16(int64_t count, uint32_t seed, float stddev = 1.0f);

// Uniform floats in [lo, hi), each from 24 random bits: std::uniform_real_distribution would draw
// through std::generate_canonical, whose long double arithmetic is slow under QEMU.
std::vector<float> RandomFloat(int64_t count, uint32_t seed, float lo, float hi);

// fp16 through the compiler's _Float16 (FCVT on aarch64): an oracle independent of tcpu/fp16.h.
uint16_t CompilerF16Bits(float f);      // rounded to nearest, ties to even
float CompilerF16Value(uint16_t bits);  // exact

// An fp32 value's bits and back, to compare floats bit for bit (NaN payloads included).
inline uint32_t F32Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}
inline float F32FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

// A value no kernel produces by accident, to fill outputs before a call.
constexpr int32_t kPoisonI32 = 0x5eadbeef;
constexpr uint16_t kPoisonBf16 = 0x7fa5;  // A NaN payload the kernels never write.

// Error in bf16 ulps of bf16 `actual` against the exact value `expected`: small if
// `actual` is the correctly rounded value (at most 0.5), about 1 for a neighbour, ...
// Infinity/NaN mismatches give a huge distance.
double Bf16UlpError(uint16_t actual, double expected);

// The same for an fp32 `actual` (24 significant bits; the ulp of a subnormal is 2^-149).
double F32UlpError(float actual, double expected);

// TCPU_QEMU_VARIANT ("vl512", "a53", ...) or "" when not run by the QEMU matrix.
std::string QemuVariant();

// The variant name this op is expected to dispatch to in the current QEMU variant, looked
// up in `expectations` ({"vl128", "gemv_i8:sve2"}, ...; key "*" for the default); "" if
// not run by the matrix.
std::string ExpectedVariant(
    std::initializer_list<std::pair<const char*, const char*>> expectations);

// The variant a fused op (named after the W8A8 GEMV kernel it runs) dispatches to in the
// current QEMU variant: "<op>:sve2" with SVE2 from 256 bits, ":dotprod" on nosve, n1 and
// 128-bit SVE (where the dotprod GEMV executes fewer instructions), ":neon" on a53 and a64fx,
// ":ref" off the matrix (the x86-64 host).
std::string ExpectedFusedVariant(const std::string& op);

// Thread counts every multithreaded kernel is checked with.
inline constexpr int kThreadCounts[] = {1, 2, 4};

}  // namespace tcpu::testing

#endif  // TCPU_RUNTIME_TESTING_KERNEL_TEST_UTIL_H_
