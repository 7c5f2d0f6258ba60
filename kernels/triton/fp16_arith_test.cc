// f16 arithmetic as Triton computes it (fp16_arith.ttir): every op rounds its result to f16.
// The kernel is compiled twice, for the Armv8-A baseline (the backend computes +, -, * in f32
// and rounds after each op; an FMA goes through f32 rounded to odd) and for FEAT_FP16 (FADD,
// FMUL, FMLA on .8h vectors); the launcher runs the fp16 object where the CPU has fp16. Both
// must give exactly the numbers of a reference that rounds once per op: x + y, x - y, x * y,
// fma(x, y, z) (one rounding of the exact x * y + z), maxnum, minnum, 0 - |x|,
// where(x < y, z, y), and the chain (x * y + z) * y - x of four roundings. Inputs: ordinary
// values of every exponent, ties of rounding, subnormals, ±0, ±inf, NaN, overflow to inf; 1 and
// 4 threads, ragged n; nothing written past n.
#include "kernels/triton/fp16_arith.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/fp16.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int kPlanes = 9;
constexpr const char *kPlaneNames[kPlanes] = {"x + y",   "x - y",  "x * y",
                                              "fma",     "maxnum", "minnum",
                                              "0 - |x|", "where",  "(x * y + z) * y - x"};
constexpr uint16_t kPoison = 0x7bff - 7;

float F(uint16_t h) { return tcpu_f16_to_f32(h); }

// Rounds once to f16. Exact for the +, -, * of two f16 values done in float (f32 holds 2 x 11
// + 2 bits, so the float rounding then the f16 one is one correct rounding).
uint16_t R(float x) { return tcpu_f32_to_f16(x); }

// The f16 nearest to v (ties to even), for a v that double rounding through float could miss:
// float's nearest f16 is v's nearest or one of its two neighbours.
uint16_t NearestF16(long double v) {
  if (std::isnan(v) || std::isinf(v)) return R(static_cast<float>(v));
  const uint16_t guess = R(static_cast<float>(v));
  if ((guess & 0x7fff) >= 0x7c00) {  // infinity unless v is below 65520 (the float rounded up)
    return std::fabs(v) >= 65520.0L ? guess : static_cast<uint16_t>((guess & 0x8000) | 0x7bff);
  }
  uint16_t best = guess;
  long double best_distance = std::fabs(static_cast<long double>(F(guess)) - v);
  // Neighbours in value order: one step of the magnitude, or across zero.
  for (int step : {-1, 1}) {
    int magnitude = guess & 0x7fff;
    const bool negative = (guess & 0x8000) != 0;
    int signed_code = negative ? -magnitude : magnitude;
    signed_code += step;
    const uint16_t candidate =
        static_cast<uint16_t>(signed_code < 0 ? (0x8000 | -signed_code) : signed_code);
    if ((candidate & 0x7fff) >= 0x7c00) continue;
    const long double distance = std::fabs(static_cast<long double>(F(candidate)) - v);
    if (distance < best_distance || (distance == best_distance && (candidate & 1) == 0)) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

// fma(x, y, z) rounded once: x * y + z is exact in binary128 (aarch64's long double: 113 bits;
// the exact value spans at most 80).
uint16_t Fma(uint16_t x, uint16_t y, uint16_t z) {
  const long double exact = static_cast<long double>(F(x)) * F(y) + F(z);
  if (!std::isfinite(F(x)) || !std::isfinite(F(y)) || !std::isfinite(F(z))) {
    return R(std::fma(F(x), F(y), F(z)));  // inf or NaN: no rounding involved
  }
  return NearestF16(exact);
}

uint16_t Reference(int plane, uint16_t x, uint16_t y, uint16_t z) {
  switch (plane) {
    case 0:
      return R(F(x) + F(y));
    case 1:
      return R(F(x) - F(y));
    case 2:
      return R(F(x) * F(y));
    case 3:
      return Fma(x, y, z);
    case 4:
      return R(std::fmax(F(x), F(y)));
    case 5:
      return R(std::fmin(F(x), F(y)));
    case 6:
      return R(0.0f - std::fabs(F(x)));
    case 7:
      return F(x) < F(y) ? z : y;
    default: {
      const uint16_t product = R(F(x) * F(y));
      const uint16_t sum = R(F(product) + F(z));
      const uint16_t scaled = R(F(sum) * F(y));
      return R(F(scaled) - F(x));
    }
  }
}

bool Same(int plane, uint16_t got, uint16_t want) {
  if (std::isnan(F(want))) return std::isnan(F(got));
  // maxnum/minnum of +0 and -0 may return either zero.
  if ((plane == 4 || plane == 5) && F(want) == 0.0f) return F(got) == 0.0f;
  return got == want;
}

// Deterministic inputs: a pseudo-random mix of every exponent and sign, with special values and
// the operands of rounding ties and overflow every few lanes.
std::vector<uint16_t> Inputs(int n, uint32_t seed) {
  static constexpr uint16_t kSpecial[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001,
                                          0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00,
                                          0xbc00, 0x3800, 0x3c01, 0x5bff, 0x1400, 0x6800};
  std::vector<uint16_t> values(static_cast<size_t>(n));
  uint32_t state = seed;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    const uint32_t r = state >> 8;
    if (i % 7 == 3) {
      values[i] = kSpecial[r % (sizeof(kSpecial) / sizeof(kSpecial[0]))];
    } else if (i % 3 == 0) {
      // Exponents 2^-6..2^6: sums and products near each other, where roundings meet ties.
      values[i] =
          static_cast<uint16_t>(((r >> 16) & 0x8000) | ((9 + (r >> 10) % 13) << 10) | (r & 0x3ff));
    } else {
      values[i] = static_cast<uint16_t>(r & 0xffff);
      if ((values[i] & 0x7c00) == 0x7c00) values[i] &= 0xbfff;  // keep NaN/inf to the specials
    }
  }
  return values;
}

TEST(TritonFp16ArithTest, EveryOpRoundsOnceToF16) {
  for (int threads : {1, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int n : {1, 255, 256, 3001}) {
      const std::vector<uint16_t> x = Inputs(n, 1), y = Inputs(n, 2), z = Inputs(n, 3);
      constexpr int kPad = 9;
      // Plane p at out + p * n, poison past the last plane.
      std::vector<uint16_t> out(static_cast<size_t>(kPlanes) * n + kPad, kPoison);
      const int32_t grid = (n + 255) / 256;
      ASSERT_EQ(tcpu_launch_fp16_arith_kernel(
                    const_cast<uint16_t *>(x.data()), const_cast<uint16_t *>(y.data()),
                    const_cast<uint16_t *>(z.data()), out.data(), n, grid, 1, 1),
                TCPU_OK);
      int failures = 0;
      for (int plane = 0; plane < kPlanes; ++plane) {
        for (int i = 0; i < n && failures < 20; ++i) {
          const uint16_t got = out[static_cast<size_t>(plane) * n + i];
          const uint16_t want = Reference(plane, x[i], y[i], z[i]);
          if (!Same(plane, got, want)) {
            ++failures;
            ADD_FAILURE() << kPlaneNames[plane] << " at " << i << " of " << n << " (threads "
                          << threads << "): x=" << F(x[i]) << " y=" << F(y[i]) << " z=" << F(z[i])
                          << " got " << F(got) << " (0x" << std::hex << got << ") want " << F(want)
                          << " (0x" << want << ")" << std::dec;
          }
        }
      }
      for (int i = kPlanes * n; i < kPlanes * n + kPad; ++i) {
        ASSERT_EQ(out[i], kPoison) << "wrote past the last plane at " << i;
      }
    }
  }
}

// The launcher runs the fp16 object wherever the QEMU variant's CPU has FEAT_FP16
// (TCPU_EXPECT_FEATURES, set by the matrix), the baseline elsewhere (a53).
TEST(TritonFp16ArithTest, RunsFp16WhereTheCpuHasIt) {
  const char *features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const bool fp16 = (std::string(",") + features + ",").find(",fp16,") != std::string::npos;
  EXPECT_EQ(tcpu_variant_fp16_arith_kernel(),
            std::string("fp16_arith_kernel:") + (fp16 ? "fp16" : "baseline"));
}

}  // namespace
