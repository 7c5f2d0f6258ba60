// tcpu_fused_mlp_bf16 against the composition of the unfused ops it replaces
// (tcpu_gemv_bf16_w8 x 2, tcpu_swiglu_bf16, tcpu_gemv_bf16_w8), bit for bit, at every thread
// count, plus argument checks; with int4 matrices (tcpu_gemv_bf16_w4 in the composition), all
// of them or mixed with int8 ones.
#include "tcpu/fused_mlp.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "runtime/testing/packed_linear.h"
#include "tcpu/cpu.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/status.h"
#include "tcpu/swiglu.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::kPoisonBf16;
using ::tcpu::testing::PackedLinear;
using ::tcpu::testing::RandomBf16;
using ::tcpu::testing::RandomPackedLinear;
using ::tcpu::testing::RandomPackedLinearQ4;

struct Mlp {
  int64_t hidden;
  int64_t intermediate;
  PackedLinear gate, up, down;
};

Mlp RandomMlp(int64_t hidden, int64_t intermediate, uint32_t seed) {
  return {hidden, intermediate, RandomPackedLinear(intermediate, hidden, seed),
          RandomPackedLinear(intermediate, hidden, seed + 1),
          RandomPackedLinear(hidden, intermediate, seed + 2)};
}

// int4 gate and down, int8 up (int4 = 2: all three int4).
Mlp RandomMixedMlp(int64_t hidden, int64_t intermediate, uint32_t seed, int int4) {
  return {hidden, intermediate, RandomPackedLinearQ4(intermediate, hidden, seed),
          int4 == 2 ? RandomPackedLinearQ4(intermediate, hidden, seed + 1)
                    : RandomPackedLinear(intermediate, hidden, seed + 1),
          RandomPackedLinearQ4(hidden, intermediate, seed + 2)};
}

const float* Scales(const PackedLinear& l) { return l.scales.empty() ? nullptr : l.scales.data(); }

int Fused(const Mlp& m, const uint16_t* x, uint16_t* y) {
  return tcpu_fused_mlp_bf16(m.gate.packed.data(), Scales(m.gate), m.up.packed.data(), Scales(m.up),
                             m.down.packed.data(), Scales(m.down), x, y, m.hidden, m.intermediate);
}

// The unfused GEMV of one layer: tcpu_gemv_bf16_w8, or tcpu_gemv_bf16_w4 for int4.
int Gemv(const PackedLinear& l, const uint16_t* x, uint16_t* y) {
  return l.scales.empty() ? tcpu_gemv_bf16_w4(l.packed.data(), x, y, l.n, l.k)
                          : tcpu_gemv_bf16_w8(l.packed.data(), l.scales.data(), x, y, l.n, l.k);
}

// The unfused composition the header promises equality with.
std::vector<uint16_t> Composition(const Mlp& m, const std::vector<uint16_t>& x) {
  std::vector<uint16_t> g(m.intermediate), u(m.intermediate), h(m.intermediate), y(m.hidden);
  EXPECT_EQ(Gemv(m.gate, x.data(), g.data()), TCPU_OK);
  EXPECT_EQ(Gemv(m.up, x.data(), u.data()), TCPU_OK);
  EXPECT_EQ(tcpu_swiglu_bf16(g.data(), u.data(), h.data(), m.intermediate), TCPU_OK);
  EXPECT_EQ(Gemv(m.down, h.data(), y.data()), TCPU_OK);
  return y;
}

TEST(FusedMlpTest, RunsTheExpectedVariant) {
  const char* forced = std::getenv("FUSED_MLP_TEST_EXPECT");
  const std::string expected =
      forced != nullptr ? forced : testing::ExpectedFusedVariant("fused_mlp_bf16");
  const char* variant = tcpu_kernel_variant("fused_mlp_bf16");
  ASSERT_NE(variant, nullptr);
  EXPECT_EQ(variant, expected);
}

TEST(FusedMlpTest, EqualsTheUnfusedCompositionBitForBit) {
  // Tails of every kind. The last is the smallest that splits both the gate/up pair and the
  // down projection into several tasks (each at least 2^18 MACs, gemv_w8a8.cc).
  const int64_t shapes[][2] = {{1, 1},    {1, 7},    {7, 1},    {5, 13},
                               {16, 48},  {33, 100}, {64, 192}, {96, 257}, {320, 832}};
  uint32_t seed = 1;
  for (const auto& shape : shapes) {
    const Mlp m = RandomMlp(shape[0], shape[1], seed += 3);
    const std::vector<uint16_t> x = RandomBf16(m.hidden, seed + 100);
    const std::vector<uint16_t> expected = Composition(m, x);
    for (int threads : testing::kThreadCounts) {
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      std::vector<uint16_t> y(m.hidden + 1, kPoisonBf16);
      ASSERT_EQ(Fused(m, x.data(), y.data()), TCPU_OK) << tcpu_last_error_detail();
      for (int64_t i = 0; i < m.hidden; ++i) {
        ASSERT_EQ(y[i], expected[i]) << "hidden " << m.hidden << ", intermediate "
                                     << m.intermediate << ", threads " << threads << ", i " << i;
      }
      EXPECT_EQ(y[m.hidden], kPoisonBf16) << "wrote past y";
    }
  }
}

TEST(FusedMlpTest, Int4EqualsTheUnfusedCompositionBitForBit) {
  // Partial groups of 32 and tiles of 16, mixed with int8 or not. The last (all int4 only: QEMU
  // time) is about the smallest whose gate/up pair splits into several tasks (q4_gemv.cc: 2^18
  // MACs in all, at least 2^17 per task), 17 units of 4 tiles per matrix so that one task
  // holds the end of gate and the start of up.
  const int64_t shapes[][3] = {{5, 13, 1}, {5, 13, 2}, {33, 100, 1}, {33, 100, 2}, {128, 1040, 2}};
  uint32_t seed = 500;
  for (const auto& shape : shapes) {
    const int int4 = static_cast<int>(shape[2]);
    const Mlp m = RandomMixedMlp(shape[0], shape[1], seed += 3, int4);
    const std::vector<uint16_t> x = RandomBf16(m.hidden, seed + 100);
    const std::vector<uint16_t> expected = Composition(m, x);
    for (int threads : {1, 4}) {
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      std::vector<uint16_t> y(m.hidden + 1, kPoisonBf16);
      ASSERT_EQ(Fused(m, x.data(), y.data()), TCPU_OK) << tcpu_last_error_detail();
      EXPECT_EQ(y.back(), kPoisonBf16) << "wrote past y";
      y.pop_back();
      EXPECT_EQ(y, expected) << "hidden " << m.hidden << ", intermediate " << m.intermediate
                             << ", int4 " << (int4 == 2 ? "all" : "gate and down") << ", threads "
                             << threads;
    }
  }
  const Mlp m = RandomMixedMlp(24, 72, 91, 2);
  const std::vector<uint16_t> zero(m.hidden, 0);
  std::vector<uint16_t> y(m.hidden, kPoisonBf16);
  ASSERT_EQ(Fused(m, zero.data(), y.data()), TCPU_OK);
  EXPECT_EQ(y, zero);
  // An int4 matrix with scales is refused (its scales are packed with it); an int8 one needs
  // them.
  const float scales[72] = {};
  EXPECT_EQ(tcpu_fused_mlp_bf16(m.gate.packed.data(), scales, m.up.packed.data(), nullptr,
                                m.down.packed.data(), nullptr, zero.data(), y.data(), 24, 72),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("(gate): an int4 matrix holds its own"),
            std::string::npos)
      << tcpu_last_error_detail();
}

TEST(FusedMlpTest, OutputMayAliasTheInput) {
  const Mlp m = RandomMlp(40, 120, 77);
  std::vector<uint16_t> x = RandomBf16(m.hidden, 78);
  const std::vector<uint16_t> expected = Composition(m, x);
  ASSERT_EQ(Fused(m, x.data(), x.data()), TCPU_OK) << tcpu_last_error_detail();
  EXPECT_EQ(x, expected);
}

TEST(FusedMlpTest, ZeroInputGivesZeroOutput) {
  const Mlp m = RandomMlp(24, 72, 91);
  const std::vector<uint16_t> x(m.hidden, 0);
  std::vector<uint16_t> y(m.hidden, kPoisonBf16);
  ASSERT_EQ(Fused(m, x.data(), y.data()), TCPU_OK);
  EXPECT_EQ(y, std::vector<uint16_t>(m.hidden, 0));
}

TEST(FusedMlpTest, ScratchSizeCoversTheCallAndRejectsBadSizes) {
  const int64_t bytes = tcpu_fused_mlp_bf16_scratch_size(1536, 4608);
  EXPECT_GE(bytes, 1536 + 4 * 4608);
  EXPECT_EQ(bytes % 64, 0);
  EXPECT_EQ(tcpu_fused_mlp_bf16_scratch_size(0, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_fused_mlp_bf16_scratch_size(8, -1), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_fused_mlp_bf16_scratch_size(8, INT64_MAX / 2), TCPU_ERR_SIZE_OVERFLOW);
}

TEST(FusedMlpTest, RejectsBadArgumentsNamingThem) {
  const Mlp m = RandomMlp(16, 32, 5);
  const std::vector<uint16_t> x = RandomBf16(16, 6);
  std::vector<uint16_t> y(16);
  const void* g = m.gate.packed.data();
  const void* u = m.up.packed.data();
  const void* d = m.down.packed.data();
  const float* gs = m.gate.scales.data();
  const float* us = m.up.scales.data();
  const float* ds = m.down.scales.data();
  EXPECT_EQ(tcpu_fused_mlp_bf16(nullptr, gs, u, us, d, ds, x.data(), y.data(), 16, 32),
            TCPU_ERR_NULL_POINTER);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("packed_gate"), std::string::npos);
  EXPECT_EQ(tcpu_fused_mlp_bf16(g, gs, u, nullptr, d, ds, x.data(), y.data(), 16, 32),
            TCPU_ERR_NULL_POINTER);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("up_scales"), std::string::npos);
  EXPECT_EQ(tcpu_fused_mlp_bf16(g, gs, u, us, d, ds, nullptr, y.data(), 16, 32),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_fused_mlp_bf16(g, gs, u, us, d, ds, x.data(), nullptr, 16, 32),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_fused_mlp_bf16(g, gs, u, us, d, ds, x.data(), y.data(), 0, 32),
            TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_fused_mlp_bf16(g, gs, u, us, d, ds, x.data(), y.data(), 16, -2),
            TCPU_ERR_INVALID_SIZE);
  // gate and down swapped: shapes do not match; the detail says which matrix.
  EXPECT_EQ(tcpu_fused_mlp_bf16(d, gs, u, us, g, ds, x.data(), y.data(), 16, 32),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("(gate)"), std::string::npos)
      << tcpu_last_error_detail();
  // A wrong intermediate size is caught by the packed headers, before anything is read.
  EXPECT_EQ(tcpu_fused_mlp_bf16(g, gs, u, us, d, ds, x.data(), y.data(), 16, 31),
            TCPU_ERR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace tcpu
