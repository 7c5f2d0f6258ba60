// tcpu_pack_q8 and tcpu_pack_q8_from_q8_0: the documented byte layout, round trips through
// tcpu_unpack_q8, GGUF Q8_0 blocks kept bit for bit, and every refusal named.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/fp16.h"
#include "tcpu/gemv_q8.h"
#include "tcpu/status.h"

namespace tcpu {
namespace {

using ::tcpu::testing::RandomInt8;

// ggml's block_q8_0 rows: n rows of k / 32 blocks (fp16 d, 32 int8 q).
std::vector<uint8_t> Q8_0Blocks(int64_t n, int64_t k, uint32_t seed) {
  const int64_t blocks = n * (k / 32);
  std::vector<uint8_t> out(blocks * 34);
  const std::vector<int8_t> q = RandomInt8(blocks * 32, seed, -127, 127);
  for (int64_t b = 0; b < blocks; ++b) {
    const uint16_t d =
        tcpu_f32_to_f16(0.001f * static_cast<float>(b % 97 + 1) * (b % 3 == 0 ? -1.0f : 1.0f));
    std::memcpy(&out[b * 34], &d, 2);
    std::memcpy(&out[b * 34 + 2], &q[b * 32], 32);
  }
  return out;
}

TEST(Q8PackTest, LayoutIsTheDocumentedOne) {
  const int64_t n = 20, k = 70, groups = 3;
  std::vector<int8_t> q(n * k);
  for (int64_t i = 0; i < n * k; ++i) q[i] = static_cast<int8_t>(i % 251 - 125);
  std::vector<uint16_t> scales(n * groups);
  for (int64_t i = 0; i < n * groups; ++i) scales[i] = static_cast<uint16_t>(0x3c00 + i);
  const int64_t size = tcpu_q8_packed_size(n, k);
  ASSERT_EQ(size, 64 + 2 * groups * 544);
  std::vector<uint8_t> packed(size, 0xee);
  ASSERT_EQ(tcpu_pack_q8(q.data(), scales.data(), n, k, packed.data(), size), TCPU_OK);
  EXPECT_EQ(std::memcmp(packed.data(), "TCPUQ8P", 8), 0);
  for (int64_t row = 0; row < 32; ++row) {
    const int64_t t = row / 16, i = row % 16;
    for (int64_t j = 0; j < groups * 32; ++j) {
      const int64_t g = j / 32, u = j % 32 / 4, e = j % 4;
      const uint8_t byte = packed[64 + (t * groups + g) * 544 + u * 64 + 4 * i + e];
      const int8_t expected = row < n && j < k ? q[row * k + j] : 0;
      ASSERT_EQ(static_cast<int8_t>(byte), expected) << "row " << row << ", k " << j;
    }
    for (int64_t g = 0; g < groups; ++g) {
      uint16_t s;
      std::memcpy(&s, &packed[64 + (t * groups + g) * 544 + 512 + 2 * i], 2);
      ASSERT_EQ(s, row < n ? scales[row * groups + g] : 0) << "row " << row << ", group " << g;
    }
  }
  std::vector<int8_t> q_back(n * k);
  std::vector<uint16_t> scales_back(n * groups);
  ASSERT_EQ(tcpu_unpack_q8(packed.data(), n, k, q_back.data(), scales_back.data()), TCPU_OK);
  EXPECT_EQ(q_back, q);
  EXPECT_EQ(scales_back, scales);
  EXPECT_EQ(tcpu_check_q8_packed(packed.data(), size, n, k), TCPU_OK);
  EXPECT_EQ(tcpu_check_q8_packed(packed.data(), size - 1, n, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_check_q8_packed(packed.data(), size, n, k + 1), TCPU_ERR_INVALID_ARGUMENT);
}

TEST(Q8PackTest, Q8_0BlocksArePackedAsTheyAre) {
  const int64_t n = 37, k = 96, groups = 3;
  const std::vector<uint8_t> blocks = Q8_0Blocks(n, k, 5);
  const int64_t size = tcpu_q8_packed_size(n, k);
  std::vector<uint8_t> packed(size);
  ASSERT_EQ(tcpu_pack_q8_from_q8_0(blocks.data(), static_cast<int64_t>(blocks.size()), n, k,
                                   packed.data(), size),
            TCPU_OK)
      << tcpu_last_error_detail();
  std::vector<int8_t> q(n * k);
  std::vector<uint16_t> scales(n * groups);
  ASSERT_EQ(tcpu_unpack_q8(packed.data(), n, k, q.data(), scales.data()), TCPU_OK);
  for (int64_t b = 0; b < n * groups; ++b) {
    uint16_t d;
    std::memcpy(&d, &blocks[b * 34], 2);
    ASSERT_EQ(scales[b], d) << "block " << b;
    ASSERT_EQ(std::memcmp(&q[b * 32], &blocks[b * 34 + 2], 32), 0) << "block " << b;
  }
  // The same bytes as tcpu_pack_q8 of those numbers.
  std::vector<uint8_t> again(size);
  ASSERT_EQ(tcpu_pack_q8(q.data(), scales.data(), n, k, again.data(), size), TCPU_OK);
  EXPECT_EQ(again, packed);
}

TEST(Q8PackTest, RefusalsNameWhatIsWrong) {
  const int64_t n = 3, k = 64;
  std::vector<uint8_t> blocks = Q8_0Blocks(n, k, 9);
  const int64_t bytes = static_cast<int64_t>(blocks.size());
  const int64_t size = tcpu_q8_packed_size(n, k);
  std::vector<uint8_t> packed(size, 0);
  blocks[3 * 34 + 2 + 5] = 0x80;  // row 1, block 1, q[5] = -128
  EXPECT_EQ(tcpu_pack_q8_from_q8_0(blocks.data(), bytes, n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q8_from_q8_0: row 1, block 1: q[5] = -128, expected -127..127 (what "
               "Q8_0's quantizer writes)");
  blocks[3 * 34 + 2 + 5] = 0;
  const uint16_t nan = 0x7e00;  // row 2, block 0: d = NaN
  std::memcpy(&blocks[4 * 34], &nan, 2);
  EXPECT_EQ(tcpu_pack_q8_from_q8_0(blocks.data(), bytes, n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q8_from_q8_0: row 2, block 0: d = 0x7e00 is not a finite fp16");
  EXPECT_EQ(tcpu_check_q8_packed(packed.data(), size, n, k), TCPU_ERR_INVALID_ARGUMENT)
      << "a refused pack must not validate";
  EXPECT_EQ(tcpu_pack_q8_from_q8_0(blocks.data(), bytes - 1, n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_pack_q8_from_q8_0(blocks.data(), bytes, n, k, packed.data(), size - 1),
            TCPU_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(tcpu_pack_q8_from_q8_0(blocks.data(), bytes, n, 40, packed.data(), size),
            TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_pack_q8_from_q8_0(nullptr, bytes, n, k, packed.data(), size),
            TCPU_ERR_NULL_POINTER);

  // Whole tiles take the vector path on aarch64: a -128 and a NaN d found there too.
  for (const int64_t at : {int64_t{9 * 2 + 1}, int64_t{30}}) {
    std::vector<uint8_t> tile_blocks = Q8_0Blocks(32, k, 13);
    if (at == 30) {
      const uint16_t inf = 0x7c00;
      std::memcpy(&tile_blocks[at * 34], &inf, 2);
    } else {
      tile_blocks[at * 34 + 2 + 31] = 0x80;
    }
    const int64_t tile_size = tcpu_q8_packed_size(32, k);
    std::vector<uint8_t> tile_packed(tile_size);
    EXPECT_EQ(tcpu_pack_q8_from_q8_0(tile_blocks.data(), static_cast<int64_t>(tile_blocks.size()),
                                     32, k, tile_packed.data(), tile_size),
              TCPU_ERR_INVALID_ARGUMENT);
    EXPECT_NE(
        std::string(tcpu_last_error_detail()).find(at == 30 ? "row 15, block 0" : "row 9, block 1"),
        std::string::npos)
        << tcpu_last_error_detail();
    EXPECT_EQ(tcpu_check_q8_packed(tile_packed.data(), tile_size, 32, k),
              TCPU_ERR_INVALID_ARGUMENT);
  }

  std::vector<int8_t> q(n * k, 1);
  std::vector<uint16_t> scales(n * 2, 0x3c00);
  q[k + 7] = -128;
  EXPECT_EQ(tcpu_pack_q8(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_pack_q8: q[1][7] = -128, expected -127..127");
  q[k + 7] = 0;
  scales[3] = 0x7c00;
  EXPECT_EQ(tcpu_pack_q8(q.data(), scales.data(), n, k, packed.data(), size),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_q8: scales[1][1] = 0x7c00 is not a finite fp16");
  EXPECT_EQ(tcpu_q8_packed_size(0, k), TCPU_ERR_INVALID_SIZE);
}

}  // namespace
}  // namespace tcpu
