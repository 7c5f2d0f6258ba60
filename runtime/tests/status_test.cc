#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "tcpu/bf16.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"

namespace {

TEST(StatusTest, EveryCodeHasItsOwnName) {
  const int codes[] = {TCPU_OK,
                       TCPU_ERR_NULL_POINTER,
                       TCPU_ERR_INVALID_SIZE,
                       TCPU_ERR_SIZE_OVERFLOW,
                       TCPU_ERR_BUFFER_TOO_SMALL,
                       TCPU_ERR_INVALID_ARGUMENT,
                       TCPU_ERR_UNKNOWN_OP,
                       TCPU_ERR_INVALID_ENV,
                       TCPU_ERR_OUT_OF_MEMORY,
                       TCPU_ERR_THREADS,
                       TCPU_ERR_IO,
                       TCPU_ERR_INVALID_MODEL};
  for (int code : codes) {
    for (int other : codes) {
      if (code != other) {
        EXPECT_STRNE(tcpu_status_string(code), tcpu_status_string(other));
      }
    }
  }
  EXPECT_EQ(std::string(tcpu_status_string(TCPU_ERR_NULL_POINTER))
                .rfind("TCPU_ERR_NULL_POINTER", 0),
            0u);
  EXPECT_STREQ(tcpu_status_string(-12345), "unknown tcpu status code");
}

TEST(StatusTest, ErrorsLeaveADetailAndSuccessClearsIt) {
  EXPECT_EQ(tcpu_convert_f32_to_bf16(nullptr, nullptr, 3), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_convert_f32_to_bf16: in is NULL");
  EXPECT_EQ(tcpu_convert_f32_to_bf16(nullptr, nullptr, -1), TCPU_ERR_INVALID_SIZE);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_convert_f32_to_bf16: n = -1, expected >= 0");
  float in = 1.0f;
  uint16_t out = 0;
  EXPECT_EQ(tcpu_convert_f32_to_bf16(&in, &out, 1), TCPU_OK);
  EXPECT_STREQ(tcpu_last_error_detail(), "");
}

float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

TEST(Bf16Test, RoundsToNearestEven) {
  EXPECT_EQ(tcpu_f32_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(tcpu_f32_to_bf16(FromBits(0x3f808000)), 0x3f80);  // Tie, even below: down.
  EXPECT_EQ(tcpu_f32_to_bf16(FromBits(0x3f818000)), 0x3f82);  // Tie, odd below: up.
  EXPECT_EQ(tcpu_f32_to_bf16(FromBits(0x3f808001)), 0x3f81);  // Above the tie: up.
  EXPECT_EQ(tcpu_f32_to_bf16(FromBits(0x3f807fff)), 0x3f80);  // Below the tie: down.
  EXPECT_EQ(tcpu_f32_to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(tcpu_f32_to_bf16(FromBits(0x7f7fffff)), 0x7f80);  // FLT_MAX rounds to +inf.
  EXPECT_EQ(tcpu_f32_to_bf16(std::numeric_limits<float>::infinity()), 0x7f80);
}

TEST(Bf16Test, NanStaysNan) {
  for (uint32_t bits : {0x7fc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu, 0x7f80ffffu}) {
    const uint16_t h = tcpu_f32_to_bf16(FromBits(bits));
    EXPECT_TRUE(std::isnan(tcpu_bf16_to_f32(h))) << std::hex << bits;
    EXPECT_EQ(h & 0x8000, (bits >> 16) & 0x8000) << "sign kept";
  }
}

TEST(Bf16Test, EveryBf16RoundTripsExactly) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = tcpu_bf16_to_f32(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(tcpu_f32_to_bf16(f), h) << std::hex << h;
  }
}

TEST(Bf16Test, ArrayConversions) {
  const float in[3] = {1.5f, -2.25f, 65536.0f};
  uint16_t mid[3];
  float out[3];
  ASSERT_EQ(tcpu_convert_f32_to_bf16(in, mid, 3), TCPU_OK);
  ASSERT_EQ(tcpu_convert_bf16_to_f32(mid, out, 3), TCPU_OK);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i], in[i]);
  EXPECT_EQ(tcpu_convert_bf16_to_f32(nullptr, nullptr, 0), TCPU_OK);
  EXPECT_EQ(tcpu_convert_bf16_to_f32(mid, nullptr, 1), TCPU_ERR_NULL_POINTER);
}

TEST(ScratchTest, ReserveGrowsAndNeverShrinks) {
  ASSERT_EQ(tcpu_scratch_reserve(1000), TCPU_OK);
  const int64_t after_small = tcpu_scratch_capacity();
  EXPECT_GE(after_small, 1000);
  ASSERT_EQ(tcpu_scratch_reserve(10), TCPU_OK);
  EXPECT_EQ(tcpu_scratch_capacity(), after_small);
  ASSERT_EQ(tcpu_scratch_reserve(1 << 20), TCPU_OK);
  EXPECT_GE(tcpu_scratch_capacity(), 1 << 20);
  EXPECT_EQ(tcpu_scratch_reserve(-1), TCPU_ERR_INVALID_SIZE);
}

TEST(ScratchTest, ImpossibleReservationFailsAndKeepsTheArena) {
  ASSERT_EQ(tcpu_scratch_reserve(4096), TCPU_OK);
  const int64_t before = tcpu_scratch_capacity();
  EXPECT_EQ(tcpu_scratch_reserve(int64_t{1} << 62), TCPU_ERR_OUT_OF_MEMORY);
  EXPECT_EQ(tcpu_scratch_capacity(), before);
}

}  // namespace
