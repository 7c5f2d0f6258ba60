// The int4 group quantizer and the packed format of tcpu/gemv_q4.h against models written here
// from the header's text: exact q and scales, the documented byte layout, and every bad input.
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

int64_t Groups(int64_t k) { return (k + 31) / 32; }

// The documented quantization, one group at a time.
void ModelQuantize(const std::vector<float>& w, int64_t n, int64_t k, std::vector<int8_t>* q,
                   std::vector<float>* scales) {
  q->assign(n * k, 0);
  scales->assign(n * Groups(k), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t g = 0; g < Groups(k); ++g) {
      const int64_t j0 = 32 * g, j1 = std::min<int64_t>(j0 + 32, k);
      float m = 0.0f;
      for (int64_t j = j0; j < j1; ++j) {
        if (std::fabs(w[i * k + j]) > std::fabs(m)) m = w[i * k + j];
      }
      if (m == 0.0f) continue;
      const float scale = m / -8.0f;
      (*scales)[i * Groups(k) + g] = scale;
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
    std::vector<float> scales(n * Groups(k), -1.0f), expected_scales;
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
  float scale = 0.0f;
  ASSERT_EQ(tcpu_quantize_q4_f32(w.data(), 1, 32, q.data(), &scale), TCPU_OK);
  EXPECT_EQ(scale, 1.0f);  // -8 comes first of the two of magnitude 8
  const int8_t expected[] = {0, 2, 2, 0, -2, -2, 7, -8, 7};  // 8 clamps to 7
  for (int j = 0; j < 9; ++j) EXPECT_EQ(q[j], expected[j]) << j;
  // A positive maximum: scale -m/8 < 0 and m -> -8.
  const float pos[] = {4.0f, -2.0f, 1.0f};
  int8_t q3[3];
  ASSERT_EQ(tcpu_quantize_q4_f32(pos, 1, 3, q3, &scale), TCPU_OK);
  EXPECT_EQ(scale, -0.5f);
  EXPECT_EQ(q3[0], -8);
  EXPECT_EQ(q3[1], 4);
  EXPECT_EQ(q3[2], -2);
}

TEST(Q4QuantizeTest, ZeroGroupHasScaleZero) {
  std::vector<float> w(40, 0.0f);
  w[3] = -0.0f;
  w[35] = 1.0f;  // only the second (partial) group is nonzero
  std::vector<int8_t> q(40, 99);
  float scales[2] = {7.0f, 7.0f};
  ASSERT_EQ(tcpu_quantize_q4_f32(w.data(), 1, 40, q.data(), scales), TCPU_OK);
  EXPECT_EQ(scales[0], 0.0f);
  EXPECT_EQ(scales[1], -0.125f);
  for (int j = 0; j < 32; ++j) EXPECT_EQ(q[j], 0);
  EXPECT_EQ(q[35], -8);
}

TEST(Q4QuantizeTest, Bf16EqualsF32OfTheSameValues) {
  const int64_t n = 3, k = 70;
  const std::vector<uint16_t> wb = testing::RandomBf16(n * k, 5);
  std::vector<float> wf(n * k);
  for (int64_t i = 0; i < n * k; ++i) wf[i] = tcpu_bf16_to_f32(wb[i]);
  std::vector<int8_t> qb(n * k), qf(n * k);
  std::vector<float> sb(n * 3), sf(n * 3);
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
  std::vector<float> scales(n * 2, 7.0f);
  EXPECT_EQ(tcpu_quantize_q4_f32(w.data(), n, k, q.data(), scales.data()),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_quantize_q4_f32: w[1][5] = nan is not finite");
  for (int8_t v : q) EXPECT_EQ(v, 99);  // nothing written
  for (float v : scales) EXPECT_EQ(v, 7.0f);
  std::vector<uint16_t> wb(8, 0x3f80);
  wb[6] = 0xff80;  // -inf
  EXPECT_EQ(tcpu_quantize_q4_bf16(wb.data(), 2, 4, q.data(), scales.data()),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_quantize_q4_bf16: w[1][2] = -inf is not finite");
}

TEST(Q4QuantizeTest, BadArguments) {
  float w[4] = {1, 2, 3, 4}, s[1];
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

std::vector<uint8_t> Pack(const std::vector<int8_t>& q, const std::vector<float>& scales, int64_t n,
                          int64_t k) {
  const int64_t size = tcpu_q4_packed_size(n, k);
  EXPECT_GT(size, 0);
  std::vector<uint8_t> packed(size, 0xa5);
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size), TCPU_OK)
      << tcpu_last_error_detail();
  return packed;
}

TEST(Q4PackTest, SizeIsHeaderPlusTilesTimesGroupsTimes320) {
  EXPECT_EQ(tcpu_q4_packed_size(1, 1), 64 + 320);
  EXPECT_EQ(tcpu_q4_packed_size(17, 33), 64 + 2 * 2 * 320);
  EXPECT_EQ(tcpu_q4_packed_size(512, 2048), 64 + 32 * 64 * 320);  // 0.625 bytes per weight
  EXPECT_EQ(tcpu_q4_packed_size(0, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_q4_packed_size(8, -1), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_q4_packed_size(std::numeric_limits<int64_t>::max(), 64), TCPU_ERR_SIZE_OVERFLOW);
}

// Every byte of a matrix with a partial last tile and group against the layout as the header
// documents it.
TEST(Q4PackTest, BytesFollowTheDocumentedLayout) {
  const int64_t n = 37, k = 45, groups = 2, tiles = 3;
  const std::vector<int8_t> q = testing::RandomInt8(n * k, 3, -8, 7);
  std::vector<float> scales(n * groups);
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = 0.25f * static_cast<float>(i) - 3.0f;
  const std::vector<uint8_t> packed = Pack(q, scales, n, k);
  ASSERT_EQ(packed.size(), static_cast<size_t>(64 + tiles * groups * 320));
  EXPECT_EQ(std::memcmp(packed.data(), "TCPUQ4P", 8), 0);
  auto qv = [&](int64_t row, int64_t j) -> int { return row < n && j < k ? q[row * k + j] : 0; };
  for (int64_t t = 0; t < tiles; ++t) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t base = 64 + (t * groups + g) * 320;
      for (int64_t u = 0; u < 4; ++u) {
        for (int64_t quad = 0; quad < 4; ++quad) {
          for (int64_t r = 0; r < 4; ++r) {
            for (int64_t e = 0; e < 4; ++e) {
              const int64_t row = 16 * t + 4 * quad + r, j = 32 * g + 4 * u + e;
              const uint8_t byte = packed[base + 64 * u + 16 * quad + 4 * r + e];
              ASSERT_EQ(byte & 0xf, qv(row, j) & 0xf) << row << " " << j;
              ASSERT_EQ(byte >> 4, qv(row, j + 16) & 0xf) << row << " " << j + 16;
            }
          }
        }
      }
      for (int64_t i = 0; i < 16; ++i) {
        float s;
        std::memcpy(&s, &packed[base + 256 + 4 * i], 4);
        const int64_t row = 16 * t + i;
        EXPECT_EQ(s, row < n ? scales[row * groups + g] : 0.0f) << row;
      }
    }
  }
}

TEST(Q4PackTest, UnpackReturnsWhatWasPacked) {
  const int64_t n = 37, k = 77, groups = 3;
  const std::vector<int8_t> q = testing::RandomInt8(n * k, 4, -8, 7);
  std::vector<float> scales(n * groups);
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = std::ldexp(1.0f, -static_cast<int>(i % 9));
  const std::vector<uint8_t> packed = Pack(q, scales, n, k);
  std::vector<int8_t> q2(n * k, 99);
  std::vector<float> s2(n * groups, -1.0f);
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
  const std::vector<float> scales(n * 2, 0.5f);
  std::vector<uint8_t> packed = Pack(q, scales, n, k);
  const int64_t size = static_cast<int64_t>(packed.size());
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size, n, k), TCPU_OK);
  EXPECT_EQ(tcpu_check_q4_packed(packed.data(), size - 1, n, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_check_q4_packed: 1343 bytes, expected 1344 for n = 20, k = 40");
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
  std::vector<float> scales(n, 1.0f);
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
  scales[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_pack_q4: scales[3][0] = nan is not finite");
  scales[3] = 1.0f;
  EXPECT_EQ(tcpu_pack_q4(q.data(), scales.data(), n, k, packed.data(), size), TCPU_OK);
  EXPECT_STREQ(tcpu_last_error_detail(), "");
}

}  // namespace
}  // namespace tcpu
