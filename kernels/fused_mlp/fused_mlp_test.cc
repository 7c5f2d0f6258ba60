// tcpu_fused_mlp_bf16 against the composition of the unfused ops it replaces
// (tcpu_gemv_bf16_w8 x 2, tcpu_swiglu_bf16, tcpu_gemv_bf16_w8), bit for bit, at every thread
// count, plus argument checks.
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
#include "tcpu/status.h"
#include "tcpu/swiglu.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::kPoisonBf16;
using ::tcpu::testing::PackedLinear;
using ::tcpu::testing::RandomBf16;
using ::tcpu::testing::RandomPackedLinear;

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

int Fused(const Mlp& m, const uint16_t* x, uint16_t* y) {
  return tcpu_fused_mlp_bf16(m.gate.packed.data(), m.gate.scales.data(), m.up.packed.data(),
                             m.up.scales.data(), m.down.packed.data(), m.down.scales.data(), x,
                             y, m.hidden, m.intermediate);
}

// The unfused composition the header promises equality with.
std::vector<uint16_t> Composition(const Mlp& m, const std::vector<uint16_t>& x) {
  std::vector<uint16_t> g(m.intermediate), u(m.intermediate), h(m.intermediate), y(m.hidden);
  EXPECT_EQ(tcpu_gemv_bf16_w8(m.gate.packed.data(), m.gate.scales.data(), x.data(), g.data(),
                              m.intermediate, m.hidden),
            TCPU_OK);
  EXPECT_EQ(tcpu_gemv_bf16_w8(m.up.packed.data(), m.up.scales.data(), x.data(), u.data(),
                              m.intermediate, m.hidden),
            TCPU_OK);
  EXPECT_EQ(tcpu_swiglu_bf16(g.data(), u.data(), h.data(), m.intermediate), TCPU_OK);
  EXPECT_EQ(tcpu_gemv_bf16_w8(m.down.packed.data(), m.down.scales.data(), h.data(), y.data(),
                              m.hidden, m.intermediate),
            TCPU_OK);
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
