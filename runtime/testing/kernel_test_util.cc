#include "runtime/testing/kernel_test_util.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "tcpu/bf16.h"

namespace tcpu::testing {

std::vector<int8_t> RandomInt8(int64_t count, uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int8_t> out(count);
  for (auto& v : out) v = static_cast<int8_t>(dist(rng));
  if (count > 0 && lo < 0 && hi > 0) out[0] = static_cast<int8_t>(lo);  // An extreme.
  return out;
}

// Normal values by the Box-Muller transform of 24-bit uniforms, not std::normal_distribution:
// that draws through std::generate_canonical, whose long double arithmetic (software binary128
// on AArch64) costs about 25 us of emulated time per value under QEMU.
std::vector<uint16_t> RandomBf16(int64_t count, uint32_t seed, float stddev) {
  std::mt19937 rng(seed);
  // In (0, 1]: never 0, whose log is -inf.
  auto uniform = [&rng] { return static_cast<float>((rng() >> 8) + 1) * 0x1p-24f; };
  auto edge_cases = [](int64_t i, float v) {
    if (i % 97 == 13) return 0.0f;
    if (i % 101 == 7) return v * 16.0f;
    return v;
  };
  constexpr float kTwoPi = 6.28318530717958647692f;
  std::vector<uint16_t> out(count);
  for (int64_t i = 0; i < count; i += 2) {
    const float radius = stddev * std::sqrt(-2.0f * std::log(uniform()));
    const float angle = kTwoPi * uniform();
    out[i] = tcpu_f32_to_bf16(edge_cases(i, radius * std::cos(angle)));
    if (i + 1 < count) out[i + 1] = tcpu_f32_to_bf16(edge_cases(i + 1, radius * std::sin(angle)));
  }
  if (count > 0) out[count - 1] = tcpu_f32_to_bf16(stddev * 0.75f);  // Never all zero.
  return out;
}

std::vector<float> RandomFloat(int64_t count, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::vector<float> out(count);
  for (float& v : out) v = lo + (hi - lo) * static_cast<float>(rng() >> 8) * 0x1p-24f;
  return out;
}

uint16_t CompilerF16Bits(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof(bits));
  return bits;
}

float CompilerF16Value(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof(h));
  return static_cast<float>(h);
}

double Bf16UlpError(uint16_t actual, double expected) {
  const float a = tcpu_bf16_to_f32(actual);
  if (std::isnan(a) || std::isnan(expected)) {
    return std::isnan(a) && std::isnan(expected) ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(a) || std::isinf(expected)) {
    return a == expected ? 0.0 : std::numeric_limits<double>::infinity();
  }
  // One bf16 ulp at the magnitude of the expected value (8 significant bits).
  const double mag = std::fabs(expected);
  int exponent = 0;
  std::frexp(mag == 0.0 ? std::ldexp(1.0, -126) : mag, &exponent);
  const double ulp = std::ldexp(1.0, std::max(exponent - 8, -133));
  return std::fabs(static_cast<double>(a) - expected) / ulp;
}

double F32UlpError(float actual, double expected) {
  if (std::isnan(actual) || std::isnan(expected)) {
    return std::isnan(actual) && std::isnan(expected) ? 0.0
                                                      : std::numeric_limits<double>::infinity();
  }
  if (std::isinf(actual) || std::isinf(expected)) {
    return actual == expected ? 0.0 : std::numeric_limits<double>::infinity();
  }
  const double mag = std::fabs(expected);
  int exponent = 0;
  std::frexp(mag == 0.0 ? std::ldexp(1.0, -126) : mag, &exponent);
  const double ulp = std::ldexp(1.0, std::max(exponent - 24, -149));
  return std::fabs(static_cast<double>(actual) - expected) / ulp;
}

std::string QemuVariant() {
  const char* v = std::getenv("TCPU_QEMU_VARIANT");
  return v ? v : "";
}

std::string ExpectedVariant(
    std::initializer_list<std::pair<const char*, const char*>> expectations) {
  const std::string variant = QemuVariant();
  if (variant.empty()) return "";
  const char* fallback = "";
  for (const auto& [key, value] : expectations) {
    if (variant == key) return value;
    if (std::strcmp(key, "*") == 0) fallback = value;
  }
  return fallback;
}

std::string ExpectedFusedVariant(const std::string& op) {
  const std::string gemv = ExpectedVariant({{"nosve", "dotprod"},
                                            {"n1", "dotprod"},
                                            {"vl128", "dotprod"},
                                            {"a53", "neon"},
                                            {"a64fx", "neon"},
                                            {"*", "sve2"}});
  return op + ":" + (gemv.empty() ? "ref" : gemv);
}

}  // namespace tcpu::testing
