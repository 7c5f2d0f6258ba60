// The int4 group quantizer and the packed format of tcpu/gemv_q4.h against models written here
// from the header's text (fp16 through the compiler's _Float16): exact q and scales, the
// documented byte layout, GGUF Q4_0 blocks packed as they are, and every bad input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/bf16.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/status.h"

namespace tcpu {
namespace {

using ::tcpu::testing::CompilerF16Bits;
using ::tcpu::testing::CompilerF16Value;

int64_t Groups(int64_t k) { return (k + 31) / 32; }

// The documented quantization, one group at a time.
void ModelQuantize(const std::vector<float>& w, int64_t n, int64_t k, std::vector<int8_t>* q,
                   std::vector<uint16_t>* scales) {
  q->assign(n * k, 0);
  scales->assign(n * Groups(k), 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t g = 0; g < Groups(k); ++g) {
      const int64_t j0 = 32 * g, j1 = std::min<int64_t>(j0 + 32, k);
      float m = 0.0f;
      for (int64_t j = j0; j < j1; ++j) {
        if (std::fabs(w[i * k + j]) > std::fabs(m)) m = w[i * k + j];
      }
      const float scale = CompilerF16Value(CompilerF16Bits(m / -8.0f));
      if (scale == 0.0f) continue;
      (*scales)[i * Groups(k) + g] = CompilerF16Bits(scale);
      for (int64_t j = j0; j < j1; ++j) {
        const float r = std::nearbyint(w[i * k + j] / scale);
        (*q)[i * k + j] = static_cast<int8_t>(std::min(7.0f, std::max(-8.0f, r)));
      }
    }
  }
}

std::vector<float> RandomWeights(int64_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 0.05f);
  std::vector<float> w(count);
  for (int64_t i = 0; i < count; ++i) w[i] = (i % 53 == 11) ? 0.0f : dist(rng);
  return w;
}

TEST(Q4QuantizeTest, MatchesModelWithPartialGroups) {
  for (const auto& [n, k] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {1, 31}, {2, 32}, {3, 33}, {5, 64}, {7, 100}, {4, 1536}}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", k = " + std::to_string(k));
    const std::vector<float> w = RandomWeights(n * k, static_cast<uint32_t>(n * 1000 + k));
    std::vector<int8_t> q(n * k, 99), expected_q;
    std::vector<uint16_t> scales(n * Groups(k), 0xffff), expected_scales;
    ASSERT_EQ(tcpu_quantize_q4_f32(w.data(), n, k, q.data(), scales.data()), TCPU_OK)
        << tcpu_last_error_detail();
    ModelQuantize(w, n, k, &expected_q, &expected_scales);
    EXPECT_EQ(q, expected_q);
    EXPECT_EQ(scales, expected_scales);
  }
}

TEST(Q4QuantizeTest, LargestMagnitudeMapsToMinusEightAndTiesRoundToEven) {
  // m = -8 gives scale 1, so the values themselves are rounded: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.
  std::vector<float> w(32, 0.0f);
  const float head[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 7.4f, -8.0f, 8.0f};
  std::copy(std::begin(head), std::end(head), w.begin());
  std::vector<int8_t> q(32);
  uint16_t scale = 0;
  ASSERT_EQ(tcpu_quantize_q4_f32(w.data(), 1, 32, q.data(), &scale), TCPU_OK);
  EXPECT_EQ(scale, 0x3c00);  // 1.0: -8 comes first of the two of magnitude 8
  const int8_t expected[] = {0, 2, 2, 0, -2, -2, 7, -8, 7};  // 8 clamps to 7
  for (int j = 0; j < 9; ++j) EXPECT_EQ(q[j], expected[j]) << j;
  // A positive maximum: scale -m/8 < 0 and m -> -8.
  const float pos[] = {4.0f, -2.0f, 1.0f};
  int8_t q3[3];
  ASSERT_EQ(tcpu_quantize_q4_f32(pos, 1, 3, q3, &scale), TCPU_OK);
  EXPECT_EQ(scale, 0xb800);  // -0.5
  EXPECT_EQ(q3[0], -8);
  EXPECT_EQ(q3[1], 4);
  EXPECT_EQ(q3[2], -2);
}

// m / -8 = 1 + 2^-12 rounds to the fp16 1.0, and 2.5005 is rounded against that: 3, where the
// unrounded scale would give 2.
TEST(Q4QuantizeTest, RoundsAgainstTheFp16Scale) {
  const float w[] = {-8.001953125f, 2.5005f};
  int8_t q[2];
  uint16_t scale = 0;
  ASSERT_EQ(tcpu_quantize_q4_f32(w, 1, 2, q, &scale), TCPU_OK);
  EXPECT_EQ(scale, 0x3c00);
  EXPECT_EQ(q[0], -8);
  EXPECT_EQ(q[1], 3);
  EXPECT_EQ(std::nearbyint(w[1] / (w[0] / -8.0f)), 2.0f);  // what the fp32 scale would give
}

// The ends of fp16: the largest scale, subnormal scales, scales that round to zero, and a
// group whose scale would be infinite (refused, naming it).
TEST(Q4QuantizeTest, ScalesAtTheEndsOfFp16) {
  int8_t q[2];
  uint16_t scale = 0;
  const float largest[] = {8.0f * 65504.0f, 65504.0f};
  ASSERT_EQ(tcpu_quantize_q4_f32(largest, 1, 2, q, &scale), TCPU_OK);
  EXPECT_EQ(scale, 0xfbff);  // -65504
  EXPECT_EQ(q[0], -8);
  EXPECT_EQ(q[1], -1);
  const float subnormal[] = {0x1p-21f, -0x1p-22f};  // scale -2^-24, the smallest subnormal
  ASSERT_EQ(tcpu_quantize_q4_f32(subnormal, 1, 2, q, &scale), TCPU_OK);
  EXPECT_EQ(scale, 0x8001);
  EXPECT_EQ(q[0], -8);
  EXPECT_EQ(q[1], 4);
  const float tiny[] = {0x1p-22f, 0x1p-23f};  // scale -2^-25: a tie, rounds to zero
  ASSERT_EQ(tcpu_quantize_q4_f32(tiny, 1, 2, q, &scale), TCPU_OK);
  EXPECT_EQ(scale, 0);
  EXPECT_EQ(q[0], 0);
  EXPECT_EQ(q[1], 0);
  std::vector<float> huge(40, 1.0f);
  huge[37] = -8.0f * 65520.0f;  // m / -8 = 65520 rounds to fp16 infinity
  std::vector<int8_t> q40(40, 99);
  uint16_t scales[2] = {7, 7};
  EXPECT_EQ(tcpu_quantize_q4_f32(huge.data(), 1, 40, q40.data(), scales),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_quantize_q4_f32: w[0][32..39] has a weight of magnitude 524160: its scale "
               "(that / 8) exceeds fp16's largest, 65504");
  EXPECT_EQ(q40[0], 99);  // nothing written
  EXPECT_EQ(scales[0], 7);
}

TEST(Q4QuantizeTest, ZeroGroupHasScaleZero) {
  std::vector<float> w(40, 0.0f);
  w[3] = -0.0f;
  w[35] = 1.0f;  // only the second (partial) group is nonzero
  std::vector<int8_t> q(40, 99);
  uint16_t scales[2] = {7, 7};
  ASSERT_EQ(tcpu_quantize_q4_f32(w.data(), 1, 40, q.data(), scales), TCPU_OK);
  EXPECT_EQ(scales[0], 0);       // +0
  EXPECT_EQ(scales[1], 0xb000);  // -0.125
  for (int j = 0; j < 32; ++j) EXPECT_EQ(q[j], 0);
  EXPECT_EQ(q[35], -8);
}

TEST(Q4QuantizeTest, Bf16EqualsF32OfTheSameValues) {
  const int64_t n = 3, k = 70;
  const std::vector<uint16_t> wb = testing::RandomBf16(n * k, 5);
  std::vector<float> wf(n * k);
  for (int64_t i = 0; i < n * k; ++i) wf[i] = tcpu_bf16_to_f32(wb[i]);
  std::vector<int8_t> qb(n * k), qf(n * k);
  std::vector<uint16_t> sb(n * 3), sf(n * 3);
  ASSERT_EQ(tcpu_quantize_q4_bf16(wb.data(), n, k, qb.data(), sb.data()), TCPU_OK);
  ASSERT_EQ(tcpu_quantize_q4_f32(wf.data(), n, k, qf.data(), sf.data()), TCPU_OK);
  EXPECT_EQ(qb, qf);
  EXPECT_EQ(sb, sf);
}

TEST(Q4QuantizeTest, NonFiniteWeightIsRefusedNamingTheFirst) {
  const int64_t n = 3, k = 40;
  std::vector<float> w = RandomWeights(n * k, 9);
  w[2 * k + 0] = INFINITY;
  w[1 * k + 5] = std::numeric_limits<float>::quiet_NaN();
  std::vector<int8_t> q(n * k, 99);
  std::vector<uint16_t> scales(n * 2, 7);
  EXPECT_EQ(tcpu_quantize_q4_f32(w.data(), n, k, q.data(), scales.data()),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_quantize_q4_f32: w[1][5] = nan is not finite");
  for (int8_t v : q) EXPECT_EQ(v, 99);  // nothing written
  for (uint16_t v : scales) EXPECT_EQ(v, 7);
  std::vector<uint16_t> wb(8, 0x3f80);
  wb[6] = 0xff80;  // -inf
  EXPECT_EQ(tcpu_quantize_q4_bf16(wb.data(), 2, 4, q.data(), scales.data()),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_quantize_q4_bf16: w[1][2] = -inf is not finite");
}

TEST(Q4QuantizeTest, BadArguments) {
  float w[4] = {1, 2, 3, 4};
  uint16_t s[1];
  int8_t q[4];
  EXPECT_EQ(tcpu_quantize_q4_f32(nullptr, 1, 4, q, s), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_quantize_q4_f32(w, 1, 4, nullptr, s), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_quantize_q4_f32(w, 1, 4, q, nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_quantize_q4_f32: scales is NULL");
  EXPECT_EQ(tcpu_quantize_q4_f32(w, 0, 4, q, s), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_quantize_q4_f32(w, 1, -4, q, s), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_quantize_q4_f32(w, int64_t{1} << 40, int64_t{1} << 40, q, s),
            TCPU_ERR_SIZE_OVERFLOW);
  EXPECT_EQ(tcpu_q4_groups(0), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_q4_groups(33), 2);
}

// --- Packing ---

std::vector<uint8_t> Pack(const std::vector<int8_t>& q, const std::vector<uint16_t>& scales,
                          int64_t n, int64_t k) {
  const int64_t size = tcpu_q4_packed_size(n, k);
  EXPECT_GT(size, 0);
  std::vector<uint8_t> packed(size, 0xa5);
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size), TCPU_OK)
      << tcpu_last_error_detail();
  return packed;
}

TEST(Q4PackTest, SizeIsHeaderPlusTilesTimesGroupsTimes288) {
  EXPECT_EQ(tcpu_q4_packed_size(1, 1), 64 + 288);
  EXPECT_EQ(tcpu_q4_packed_size(17, 33), 64 + 2 * 2 * 288);
  EXPECT_EQ(tcpu_q4_packed_size(512, 2048), 64 + 32 * 64 * 288);  // 0.5625 bytes per weight
  EXPECT_EQ(tcpu_q4_packed_size(0, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_q4_packed_size(8, -1), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_q4_packed_size(std::numeric_limits<int64_t>::max(), 64), TCPU_ERR_SIZE_OVERFLOW);
}

// Every byte of a matrix with a partial last tile and group against the layout as the header
// documents it.
TEST(Q4PackTest, BytesFollowTheDocumentedLayout) {
  const int64_t n = 37, k = 45, groups = 2, tiles = 3;
  const std::vector<int8_t> q = testing::RandomInt8(n * k, 3, -8, 7);
  std::vector<uint16_t> scales(n * groups);
  for (size_t i = 0; i < scales.size(); ++i) {
    scales[i] = CompilerF16Bits(0.25f * static_cast<float>(i) - 3.0f);
  }
  const std::vector<uint8_t> packed = Pack(q, scales, n, k);
  ASSERT_EQ(packed.size(), static_cast<size_t>(64 + tiles * groups * 288));
  EXPECT_EQ(std::memcmp(packed.data(), "TCPUQ4P", 8), 0);
  auto qv = [&](int64_t row, int64_t j) -> int { return row < n && j < k ? q[row * k + j] : 0; };
  for (int64_t t = 0; t < tiles; ++t) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t base = 64 + (t * groups + g) * 288;
      // Unit u, slot s: pairs 4 * (s % 2) + j (rows p and p + 8) at k = 4u + e (+ 16 from
      // slot 2 on); row p's q high (two's complement), row p + 8's q + 8 low.
      for (int64_t u = 0; u < 4; ++u) {
        for (int64_t slot = 0; slot < 4; ++slot) {
          for (int64_t j = 0; j < 4; ++j) {
            for (int64_t e = 0; e < 4; ++e) {
              const int64_t p = 4 * (slot % 2) + j, row = 16 * t + p;
              const int64_t col = 32 * g + 16 * (slot / 2) + 4 * u + e;
              const uint8_t byte = packed[base + 64 * u + 16 * slot + 4 * j + e];
              ASSERT_EQ(byte >> 4, qv(row, col) & 0xf) << row << " " << col;
              ASSERT_EQ(byte & 0xf, qv(row + 8, col) + 8) << row + 8 << " " << col;
            }
          }
        }
      }
      for (int64_t i = 0; i < 16; ++i) {
        uint16_t s;
        std::memcpy(&s, &packed[base + 256 + 2 * i], 2);
        const int64_t row = 16 * t + i;
        EXPECT_EQ(s, row < n ? scales[row * groups + g] : 0) << row;
      }
    }
  }
}

TEST(Q4PackTest, UnpackReturnsWhatWasPacked) {
  const int64_t n = 37, k = 77, groups = 3;
  const std::vector<int8_t> q = testing::RandomInt8(n * k, 4, -8, 7);
  std::vector<uint16_t> scales(n * groups);
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = static_cast<uint16_t>(i * 997 % 0x7c00);
  const std::vector<uint8_t> packed = Pack(q, scales, n, k);
  std::vector<int8_t> q2(n * k, 99);
  std::vector<uint16_t> s2(n * groups, 0xffff);
  ASSERT_EQ(tcpu_unpack_q4(packed.data(), n, k, q2.data(), s2.data()), TCPU_OK);
  EXPECT_EQ(q2, q);
  EXPECT_EQ(s2, scales);
  EXPECT_EQ(tcpu_unpack_q4(packed.data(), n, k + 1, q2.data(), s2.data()),
            TCPU_ERR_INVALID_ARGUMENT);
}

// The check a loader runs on packed bytes from a file: the header and the size, nothing else.
TEST(Q4PackTest, CheckAcceptsExactlyAPackingOfThisShape) {
  const int64_t n = 20, k = 40;
  const std::vector<int8_t> q = testing::RandomInt8(n * k, 5, -8, 7);
  const std::vector<uint16_t> scales(n * 2, 0x3800);  // 0.5
  std::vector<uint8_t> packed = Pack(q, scales, n, k);
  const int64_t size = static_cast<int64_t>(packed.size());
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size, n, k), TCPU_OK);
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size - 1, n, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_check_q4_packed: 1215 bytes, expected 1216 for n = 20, k = 40");
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size, n - 1, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("holds n = 20, k = 40"), std::string::npos);
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size, 0, k), TCPU_ERR_INVALID_SIZE);
  packed[8] ^= 1;  // the version
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size, n, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("is not a tcpu_pack_q4 buffer"),
            std::string::npos);
}

TEST(Q4PackTest, BadArguments) {
  const int64_t n = 4, k = 32;
  std::vector<int8_t> q(n * k, 1);
  std::vector<uint16_t> scales(n, 0x3c00);
  const int64_t size = tcpu_q4_packed_size(n, k);
  std::vector<uint8_t> packed(size);
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size - 1),
            TCPU_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(tcpu_pack_q4(nullptr, scales.data(), n, k, packed.data(), size), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_pack_q4(q.data(), nullptr, n, k, packed.data(), size), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, nullptr, size), TCPU_ERR_NULL_POINTER);
  q[2 * k + 9] = 8;
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_pack_q4: q[2][9] = 8, expected -8..7");
  q[2 * k + 9] = -9;
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  q[2 * k + 9] = -8;
  scales[3] = 0x7e00;  // NaN
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q4: scales[3][0] = 0x7e00 is not a finite fp16");
  scales[3] = 0xfc00;  // -inf
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  scales[3] = 0x3c00;
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size), TCPU_OK);
  EXPECT_STREQ(tcpu_last_error_detail(), "");
}

// --- GGUF Q4_0 blocks ---

// n rows of k / 32 random Q4_0 blocks (finite d of every kind, nibbles 0..15), and the q and
// scales they hold by ggml's definition: value i < 16 is byte i's low nibble minus 8, value
// 16 + i its high nibble minus 8.
struct Q4_0Matrix {
  std::vector<uint8_t> blocks;
  std::vector<int8_t> q;
  std::vector<uint16_t> scales;
};

Q4_0Matrix RandomQ4_0(int64_t n, int64_t k, uint32_t seed) {
  std::mt19937 rng(seed);
  const int64_t groups = k / 32;
  Q4_0Matrix m;
  m.q.resize(n * k);
  m.scales.resize(n * groups);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t g = 0; g < groups; ++g) {
      const uint16_t d = static_cast<uint16_t>(rng() % 0x7c00) | (rng() % 2 != 0 ? 0x8000 : 0);
      m.scales[i * groups + g] = d;
      m.blocks.push_back(static_cast<uint8_t>(d & 0xff));
      m.blocks.push_back(static_cast<uint8_t>(d >> 8));
      for (int64_t b = 0; b < 16; ++b) {
        const uint8_t byte = static_cast<uint8_t>(rng());
        m.blocks.push_back(byte);
        m.q[i * k + 32 * g + b] = static_cast<int8_t>((byte & 0xf) - 8);
        m.q[i * k + 32 * g + 16 + b] = static_cast<int8_t>((byte >> 4) - 8);
      }
    }
  }
  return m;
}

// The blocks packed as they are equal tcpu_pack_q4 of the numbers they hold, byte for byte,
// with a partial last tile.
TEST(Q4PackFromQ4_0Test, EqualsPackingTheNumbersTheBlocksHold) {
  for (const auto& [n, k] :
       std::vector<std::pair<int64_t, int64_t>>{{1, 32}, {16, 64}, {37, 96}, {64, 256}}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", k = " + std::to_string(k));
    const Q4_0Matrix m = RandomQ4_0(n, k, static_cast<uint32_t>(n + k));
    const std::vector<uint8_t> expected = Pack(m.q, m.scales, n, k);
    const int64_t size = tcpu_q4_packed_size(n, k);
    std::vector<uint8_t> packed(size, 0x5a);
    ASSERT_EQ(tcpu_pack_q4_from_q4_0(m.blocks.data(), static_cast<int64_t>(m.blocks.size()), n, k,
                                     packed.data(), size),
              TCPU_OK)
        << tcpu_last_error_detail();
    EXPECT_EQ(packed, expected);
  }
}

TEST(Q4PackFromQ4_0Test, BadArguments) {
  const int64_t n = 3, k = 64;
  Q4_0Matrix m = RandomQ4_0(n, k, 8);
  const int64_t bytes = static_cast<int64_t>(m.blocks.size());
  const int64_t size = tcpu_q4_packed_size(n, k);
  std::vector<uint8_t> packed(size);
  EXPECT_EQ(tcpu_pack_q4_from_q4_0(nullptr, bytes, n, k, packed.data(), size),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_pack_q4_from_q4_0(m.blocks.data(), bytes, n, k, nullptr, size),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_pack_q4_from_q4_0(m.blocks.data(), bytes, n, 40, packed.data(), size),
            TCPU_ERR_INVALID_SIZE);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q4_from_q4_0: k = 40 is not a multiple of the Q4_0 block, 32");
  EXPECT_EQ(tcpu_pack_q4_from_q4_0(m.blocks.data(), bytes - 1, n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q4_from_q4_0: blocks_bytes = 107, expected 108 (3 rows of 2 blocks of "
               "18 bytes)");
  EXPECT_EQ(tcpu_pack_q4_from_q4_0(m.blocks.data(), bytes, n, k, packed.data(), size - 1),
            TCPU_ERR_BUFFER_TOO_SMALL);
  m.blocks[3 * 18] = 0x00;  // row 1, block 1: d = 0x7c00, infinity
  m.blocks[3 * 18 + 1] = 0x7c;
  EXPECT_EQ(tcpu_pack_q4_from_q4_0(m.blocks.data(), bytes, n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q4_from_q4_0: row 1, block 1: d = 0x7c00 is not a finite fp16");
}

}  // namespace
}  // namespace tcpu
