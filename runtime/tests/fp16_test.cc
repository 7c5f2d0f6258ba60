// tcpu/fp16.h against the compiler's _Float16 conversions (FCVT on aarch64, the compiler
// runtime on the host): every fp16 value widened, and fp32 -> fp16 on every fp16 value, its
// fp32 neighbours, every midpoint between two fp16 values with its neighbours (the ties), and
// a stride through all 2^32 fp32 bit patterns.
#include "tcpu/fp16.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"

namespace {

float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint32_t Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

// NaNs compare as "both NaN" (payloads need not match the compiler's); the rest bit for bit.
void ExpectNarrowed(float f) {
  const uint16_t got = tcpu_f32_to_f16(f), want = tcpu::testing::CompilerF16Bits(f);
  if (std::isnan(f)) {
    EXPECT_TRUE((got & 0x7c00) == 0x7c00 && (got & 0x3ff) != 0) << std::hex << Bits(f);
    EXPECT_NE(got & 0x200, 0) << "a NaN stays quiet: " << std::hex << Bits(f);
  } else {
    ASSERT_EQ(got, want) << "fp32 bits 0x" << std::hex << Bits(f);
  }
}

TEST(Fp16Test, WidensEveryValueExactly) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const uint16_t bits = static_cast<uint16_t>(h);
    const float want = tcpu::testing::CompilerF16Value(bits), got = tcpu_f16_to_f32(bits);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << h;
    } else {
      ASSERT_EQ(Bits(got), Bits(want)) << "fp16 bits 0x" << std::hex << h;
    }
  }
}

TEST(Fp16Test, NarrowsValuesTiesAndNeighbours) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    if ((h & 0x7c00) == 0x7c00) continue;  // infinities and NaNs: below
    const float v = tcpu_f16_to_f32(static_cast<uint16_t>(h));
    ExpectNarrowed(v);
    ExpectNarrowed(FromBits(Bits(v) + 1));
    if ((h & 0x7fff) != 0) ExpectNarrowed(FromBits(Bits(v) - 1));
    // The midpoint to the next fp16 of larger magnitude (exact in fp32), and its neighbours.
    const float next = tcpu_f16_to_f32(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((static_cast<double>(v) + next) / 2);
    ExpectNarrowed(mid);
    ExpectNarrowed(FromBits(Bits(mid) + 1));
    ExpectNarrowed(FromBits(Bits(mid) - 1));
  }
}

TEST(Fp16Test, NarrowsAStrideThroughAllFloats) {
  for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 4099) {
    ExpectNarrowed(FromBits(static_cast<uint32_t>(bits)));
  }
}

TEST(Fp16Test, NamedCases) {
  EXPECT_EQ(tcpu_f32_to_f16(1.0f), 0x3c00);
  EXPECT_EQ(tcpu_f32_to_f16(-2.0f), 0xc000);
  EXPECT_EQ(tcpu_f32_to_f16(65504.0f), 0x7bff);
  EXPECT_EQ(tcpu_f32_to_f16(65519.996f), 0x7bff);  // below the tie with 65536: down
  EXPECT_EQ(tcpu_f32_to_f16(65520.0f), 0x7c00);    // the tie: to even, infinity
  EXPECT_EQ(tcpu_f32_to_f16(0x1p-24f), 0x0001);    // the smallest subnormal
  EXPECT_EQ(tcpu_f32_to_f16(0x1p-25f), 0x0000);    // half of it: ties to even, zero
  EXPECT_EQ(tcpu_f32_to_f16(0x1.8p-24f), 0x0002);  // 1.5 units: to even, 2
  EXPECT_EQ(tcpu_f32_to_f16(-0.0f), 0x8000);
  EXPECT_EQ(tcpu_f32_to_f16(INFINITY), 0x7c00);
  EXPECT_EQ(tcpu_f16_to_f32(0x3555), 0x1.554p-2f);
  EXPECT_TRUE(std::isnan(tcpu_f16_to_f32(0x7c01)));
}

}  // namespace
