// fp8 storage in Triton kernels (fp8_cast.ttir, fp8_scale.ttir, matmul_fp8.ttir) against a
// reference written from the formats' definitions (sign, exponent, fraction, bias, which codes
// are NaN/infinity): every fp8 code widened to f32/f16/bf16; f32 narrowed to every fp8 format,
// to nearest even and toward zero, on edge values (halfway cases and their neighbours,
// subnormals, largest finite, overflow, infinity, NaN, +-0) and pseudo-random values; f32 to
// f16/bf16 both ways; all 65536 f16 and bf16 codes narrowed to fp8 and to bf16. fp8 saturates
// as Triton does (overflow and infinity become the largest finite value; NaN stays NaN);
// f16/bf16 keep IEEE overflow. A NaN result may be any NaN code.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/fp8_cast.h"
#include "kernels/triton/fp8_scale.h"
#include "kernels/triton/matmul_fp8.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

enum class Specials { kIeee, kNanAllOnes, kNanNegativeZero };

struct Format {
  const char* name;
  int bits;
  int mantissa;
  int bias;
  Specials specials;
  bool saturates;

  uint32_t SignBit() const { return 1u << (bits - 1); }
  int ExponentBits() const { return bits - 1 - mantissa; }
};

constexpr Format kE4M3FN{"e4m3fn", 8, 3, 7, Specials::kNanAllOnes, true};
constexpr Format kE5M2{"e5m2", 8, 2, 15, Specials::kIeee, true};
constexpr Format kE4M3FNUZ{"e4m3fnuz", 8, 3, 8, Specials::kNanNegativeZero, true};
constexpr Format kE5M2FNUZ{"e5m2fnuz", 8, 2, 16, Specials::kNanNegativeZero, true};
constexpr Format kE4M3B11FNUZ{"e4m3b11fnuz", 8, 3, 11, Specials::kNanNegativeZero, true};
constexpr Format kF16{"f16", 16, 10, 15, Specials::kIeee, false};
constexpr Format kBF16{"bf16", 16, 7, 127, Specials::kIeee, false};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The value `code` stands for.
double Decode(const Format& f, uint32_t code) {
  const bool negative = (code & f.SignBit()) != 0;
  const uint32_t magnitude = code & (f.SignBit() - 1);
  const uint32_t exponent = magnitude >> f.mantissa;
  const uint32_t fraction = magnitude & ((1u << f.mantissa) - 1);
  if (f.specials == Specials::kNanNegativeZero && code == f.SignBit()) return std::nan("");
  if (f.specials == Specials::kNanAllOnes && magnitude == f.SignBit() - 1) return std::nan("");
  if (f.specials == Specials::kIeee && exponent == (1u << f.ExponentBits()) - 1) {
    if (fraction != 0) return std::nan("");
    return negative ? -kInfinity : kInfinity;
  }
  const double value = exponent == 0 ? std::ldexp(fraction, 1 - f.bias - f.mantissa)
                                     : std::ldexp(fraction + (1u << f.mantissa),
                                                  static_cast<int>(exponent) - f.bias - f.mantissa);
  return negative ? -value : value;
}

// Searched once per format (by name): Encode asks for every value, and f16's search walks
// over a thousand codes, which made the references most of the test's time under QEMU.
uint32_t LargestFinite(const Format& f) {
  static std::map<std::string, uint32_t> found;
  auto [it, inserted] = found.try_emplace(f.name, 0);
  if (inserted) {
    uint32_t code = f.SignBit() - 1;
    while (!std::isfinite(Decode(f, code))) --code;
    it->second = code;
  }
  return it->second;
}

// `x` rounded to the format: the nearest code (ties to the even code) or the one toward zero.
uint32_t Encode(const Format& f, double x, bool toward_zero) {
  if (std::isnan(x)) {
    return f.specials == Specials::kNanNegativeZero ? f.SignBit() : f.SignBit() - 1;
  }
  const uint32_t sign = std::signbit(x) ? f.SignBit() : 0;
  const double ax = std::fabs(x);
  const uint32_t largest = LargestFinite(f);
  const uint32_t infinity = largest + 1;  // kIeee only
  uint32_t code;
  if (std::isinf(ax)) {
    code = f.saturates ? largest : infinity;
  } else {
    // The largest finite magnitude not above ax (codes are ordered like their magnitudes).
    uint32_t lo = 0, hi = largest;
    while (lo < hi) {
      const uint32_t mid = (lo + hi + 1) / 2;
      if (Decode(f, mid) <= ax) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    code = lo;
    if (!toward_zero) {
      const double below = Decode(f, code);
      const double above = code < largest
                               ? Decode(f, code + 1)
                               : below + (below - Decode(f, code - 1));  // the next step up
      if (ax - below > above - ax || (ax - below == above - ax && (code & 1) != 0)) ++code;
      if (code > largest) code = f.saturates ? largest : infinity;
    }
  }
  if (code == 0 && f.specials == Specials::kNanNegativeZero) return 0;
  return code | sign;
}

bool IsNanCode(const Format& f, uint32_t code) { return std::isnan(Decode(f, code)); }

double F32(float x) { return static_cast<double>(x); }

float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

// `expected` (a code of `f`) against what the kernel wrote.
void ExpectCode(const Format& f, uint32_t expected, uint32_t got, const char* what, double input) {
  if (IsNanCode(f, expected)) {
    EXPECT_TRUE(IsNanCode(f, got)) << what << " " << f.name << " of " << input << ": got 0x"
                                   << std::hex << got << ", want a NaN";
  } else {
    EXPECT_EQ(got, expected) << what << " " << f.name << " of " << input << std::hex << " (bits 0x"
                             << got << " want 0x" << expected << ")";
  }
}

int32_t Grid(size_t n, int32_t block) { return static_cast<int32_t>((n + block - 1) / block); }

// Inputs that exercise every rounding case of `f`: each finite value, the halfway points
// between neighbours and the floats just beside them, overflow, infinities, NaN, zeros, and
// pseudo-random floats across `f`'s range. `stride` > 1 visits every stride-th code only
// (and the largest).
std::vector<float> NarrowingInputs(const Format& f, uint32_t stride = 1) {
  std::vector<float> inputs;
  const uint32_t largest = LargestFinite(f);
  for (uint32_t code = 0; code <= largest;
       code = code == largest ? code + 1 : std::min(code + stride, largest)) {
    const double value = Decode(f, code);
    const double next = code < largest ? Decode(f, code + 1) : 2 * value - Decode(f, code - 1);
    const float half = static_cast<float>((value + next) / 2);
    for (float x : {static_cast<float>(value), half, std::nextafter(half, 0.0f),
                    std::nextafter(half, std::numeric_limits<float>::infinity())}) {
      inputs.push_back(x);
      inputs.push_back(-x);
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {inf, -inf, std::nanf(""), -std::nanf(""), 0.0f, -0.0f,
                  std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(), 1e30f, -3e9f, 1e-30f}) {
    inputs.push_back(x);
  }
  uint32_t state = 12345;
  const int min_exponent = 1 - f.bias - f.mantissa - 2;
  const int max_exponent = static_cast<int>(std::ilogb(Decode(f, largest))) + 2;
  for (int i = 0; i < 2048; ++i) {
    state = state * 1664525u + 1013904223u;
    const int exponent =
        min_exponent + static_cast<int>(state >> 8) % (max_exponent - min_exponent);
    const float mantissa = 1.0f + static_cast<float>(state & 0xff) / 256.0f +
                           static_cast<float>(state >> 24) / 65536.0f;
    inputs.push_back(std::ldexp((state & 1) ? -mantissa : mantissa, exponent));
  }
  return inputs;
}

struct Fp8Kernels {
  const Format& format;
  int (*widen)(void*, void*, void*, void*, void*, int32_t, int32_t, int32_t, int32_t);
  int (*narrow)(void*, void*, void*, int32_t, int32_t, int32_t, int32_t);
};

const Fp8Kernels kFp8Kernels[] = {
    {kE4M3FN, tcpu_launch_e4m3fn_widen, tcpu_launch_e4m3fn_narrow},
    {kE5M2, tcpu_launch_e5m2_widen, tcpu_launch_e5m2_narrow},
    {kE4M3FNUZ, tcpu_launch_e4m3fnuz_widen, tcpu_launch_e4m3fnuz_narrow},
    {kE5M2FNUZ, tcpu_launch_e5m2fnuz_widen, tcpu_launch_e5m2fnuz_narrow},
    {kE4M3B11FNUZ, tcpu_launch_e4m3b11fnuz_widen, tcpu_launch_e4m3b11fnuz_narrow},
};

constexpr int32_t kCastBlock = 64;
constexpr size_t kGuard = 16;

TEST(TritonFp8Test, EveryCodeWidensExactly) {
  for (const Fp8Kernels& k : kFp8Kernels) {
    std::vector<uint8_t> codes(256), bytes(256 + kGuard, 0xAB);
    for (int i = 0; i < 256; ++i) codes[i] = static_cast<uint8_t>(i);
    std::vector<float> f32(256 + kGuard, -7.0f);
    std::vector<uint16_t> f16(256 + kGuard, 0xBEEF), bf16(256 + kGuard, 0xBEEF);
    ASSERT_EQ(k.widen(codes.data(), f32.data(), f16.data(), bf16.data(), bytes.data(), 256,
                      Grid(256, kCastBlock), 1, 1),
              TCPU_OK);
    for (uint32_t code = 0; code < 256; ++code) {
      const double want = Decode(k.format, code);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(f32[code])) << k.format.name << " 0x" << std::hex << code;
        EXPECT_TRUE(IsNanCode(kF16, f16[code])) << k.format.name << " 0x" << std::hex << code;
        EXPECT_TRUE(IsNanCode(kBF16, bf16[code])) << k.format.name << " 0x" << std::hex << code;
      } else {
        EXPECT_EQ(F32(f32[code]), want) << k.format.name << " 0x" << std::hex << code;
        EXPECT_EQ(std::signbit(f32[code]), std::signbit(want)) << k.format.name << " " << code;
        EXPECT_EQ(Decode(kF16, f16[code]), want) << k.format.name << " 0x" << std::hex << code;
        EXPECT_EQ(Decode(kBF16, bf16[code]), want) << k.format.name << " 0x" << std::hex << code;
      }
      EXPECT_EQ(bytes[code], code) << "tt.bitcast to i8 keeps the bits";
    }
    for (size_t i = 256; i < 256 + kGuard; ++i) {
      ASSERT_EQ(f32[i], -7.0f) << "wrote past n";
      ASSERT_EQ(bytes[i], 0xAB) << "wrote past n";
    }
  }
}

TEST(TritonFp8Test, F32NarrowsToNearestEvenAndTowardZeroSaturating) {
  for (const Fp8Kernels& k : kFp8Kernels) {
    const std::vector<float> x = NarrowingInputs(k.format);
    std::vector<uint8_t> rtne(x.size() + kGuard, 0xAB), rtz(x.size() + kGuard, 0xAB);
    ASSERT_EQ(k.narrow(const_cast<float*>(x.data()), rtne.data(), rtz.data(),
                       static_cast<int32_t>(x.size()), Grid(x.size(), kCastBlock), 1, 1),
              TCPU_OK);
    for (size_t i = 0; i < x.size(); ++i) {
      ExpectCode(k.format, Encode(k.format, x[i], false), rtne[i], "rtne", x[i]);
      ExpectCode(k.format, Encode(k.format, x[i], true), rtz[i], "rtz", x[i]);
    }
    for (size_t i = x.size(); i < x.size() + kGuard; ++i) {
      ASSERT_EQ(rtne[i], 0xAB) << "wrote past n";
      ASSERT_EQ(rtz[i], 0xAB) << "wrote past n";
    }
  }
}

TEST(TritonFp8Test, F32NarrowsToHalfAndBf16BothWays) {
  std::vector<float> x = NarrowingInputs(kF16, 61);
  const std::vector<float> brain = NarrowingInputs(kBF16, 61);
  x.insert(x.end(), brain.begin(), brain.end());
  for (uint32_t bits : {0x477fefffu, 0x477ff000u, 0x477ff001u, 0x7f7fffffu, 0x33000000u,
                        0x33000001u, 0x00400000u, 0x80000001u, 0x7f800001u}) {
    x.push_back(FromBits(bits));  // f16 max +- half an ulp, bf16 overflow, subnormal halves
  }
  const size_t n = x.size();
  std::vector<uint16_t> h_rtne(n), h_rtz(n), b_rtne(n), b_rtz(n);
  ASSERT_EQ(
      tcpu_launch_half_narrow(x.data(), h_rtne.data(), h_rtz.data(), b_rtne.data(), b_rtz.data(),
                              static_cast<int32_t>(n), Grid(n, kCastBlock), 1, 1),
      TCPU_OK);
  for (size_t i = 0; i < n; ++i) {
    ExpectCode(kF16, Encode(kF16, x[i], false), h_rtne[i], "rtne", x[i]);
    ExpectCode(kF16, Encode(kF16, x[i], true), h_rtz[i], "rtz", x[i]);
    ExpectCode(kBF16, Encode(kBF16, x[i], false), b_rtne[i], "rtne", x[i]);
    ExpectCode(kBF16, Encode(kBF16, x[i], true), b_rtz[i], "rtz", x[i]);
  }
}

TEST(TritonFp8Test, EveryHalfAndBf16CodeNarrows) {
  constexpr size_t n = 65536;
  std::vector<uint16_t> h(n), bf(n), bf_from_h(n);
  std::vector<uint8_t> e4m3(n), e5m2(n), e5m2_from_e4m3(n);
  for (size_t i = 0; i < n; ++i) {
    h[i] = static_cast<uint16_t>(i);
    bf[i] = static_cast<uint16_t>(i * 40503u);  // an odd multiplier: every code once
  }
  ASSERT_EQ(tcpu_launch_narrow_from_16(h.data(), bf.data(), e4m3.data(), e5m2.data(),
                                       e5m2_from_e4m3.data(), bf_from_h.data(),
                                       static_cast<int32_t>(n), Grid(n, kCastBlock), 1, 1),
            TCPU_OK);
  for (size_t i = 0; i < n; ++i) {
    const double half = Decode(kF16, h[i]), brain = Decode(kBF16, bf[i]);
    ExpectCode(kE4M3FN, Encode(kE4M3FN, half, false), e4m3[i], "f16 rtne", half);
    ExpectCode(kE5M2, Encode(kE5M2, brain, true), e5m2[i], "bf16 rtz", brain);
    ExpectCode(kBF16, Encode(kBF16, half, true), bf_from_h[i], "f16 rtz", half);
    const double e4 = Decode(kE4M3FN, e4m3[i]);
    ExpectCode(kE5M2, Encode(kE5M2, e4, false), e5m2_from_e4m3[i], "e4m3fn rtne", e4);
  }
}

TEST(TritonFp8Test, ScaleKernelRoundsOnceFromF32) {
  for (int threads : {1, 3}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (float scale : {1.0f, 0.0625f, 300.0f, -2.5f}) {
      constexpr size_t n = 1000;
      std::vector<uint8_t> x(n), y8(n + kGuard, 0xAB);
      std::vector<uint16_t> y16(n + kGuard, 0xBEEF);
      for (size_t i = 0; i < n; ++i) x[i] = static_cast<uint8_t>(i * 7);
      ASSERT_EQ(tcpu_launch_fp8_scale_kernel(x.data(), scale, y8.data(), y16.data(),
                                             static_cast<int32_t>(n), Grid(n, 256), 1, 1),
                TCPU_OK);
      for (size_t i = 0; i < n; ++i) {
        const float product = static_cast<float>(Decode(kE4M3FN, x[i])) * scale;
        ExpectCode(kE5M2, Encode(kE5M2, product, false), y8[i], "scaled", product);
        ExpectCode(kF16, Encode(kF16, product, false), y16[i], "scaled", product);
      }
      for (size_t i = n; i < n + kGuard; ++i) {
        ASSERT_EQ(y8[i], 0xAB) << "wrote past n";
        ASSERT_EQ(y16[i], 0xBEEF) << "wrote past n";
      }
    }
  }
}

// matmul_fp8.ttir: e4m3fn A x e5m2 B accumulated in f32 (each fp8 value exact in f32), C as
// f16: within one f16 rounding of the float64 sum plus f32 accumulation error.
TEST(TritonFp8Test, MatmulAccumulatesInF32) {
  struct Shape {
    int32_t m, n, k;
  };
  constexpr int32_t kPad = 3;
  for (int threads : {1, 2}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (const Shape& s :
         {Shape{1, 1, 1}, Shape{16, 32, 32}, Shape{37, 45, 70}, Shape{5, 70, 33}}) {
      const int32_t lda = s.k + kPad, ldb = s.n + kPad, ldc = s.n + kPad;
      std::vector<uint8_t> a(static_cast<size_t>(s.m) * lda), b(static_cast<size_t>(s.k) * ldb);
      for (size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<uint8_t>(Encode(kE4M3FN, std::sin(0.7 * i) * 4.0, false));
      }
      for (size_t i = 0; i < b.size(); ++i) {
        b[i] = static_cast<uint8_t>(Encode(kE5M2, std::cos(0.3 * i) * 2.0, false));
      }
      std::vector<uint16_t> c(static_cast<size_t>(s.m) * ldc, 0xBEEF);
      const int32_t grid = ((s.m + 15) / 16) * ((s.n + 31) / 32);
      ASSERT_EQ(tcpu_launch_matmul_kernel_fp8(a.data(), b.data(), c.data(), s.m, s.n, s.k, lda, ldb,
                                              ldc, grid, 1, 1),
                TCPU_OK);
      for (int32_t i = 0; i < s.m; ++i) {
        for (int32_t j = 0; j < ldc; ++j) {
          const uint16_t got = c[static_cast<size_t>(i) * ldc + j];
          if (j >= s.n) {
            ASSERT_EQ(got, 0xBEEF) << "wrote C padding at " << i << "," << j;
            continue;
          }
          double sum = 0.0, magnitude = 0.0;
          for (int32_t p = 0; p < s.k; ++p) {
            const double term = Decode(kE4M3FN, a[static_cast<size_t>(i) * lda + p]) *
                                Decode(kE5M2, b[static_cast<size_t>(p) * ldb + j]);
            sum += term;
            magnitude += std::fabs(term);
          }
          ASSERT_NEAR(Decode(kF16, got), sum, std::fabs(sum) / 2048.0 + 1e-6 * magnitude)
              << s.m << "x" << s.n << "x" << s.k << " at " << i << "," << j;
        }
      }
    }
  }
}

}  // namespace
