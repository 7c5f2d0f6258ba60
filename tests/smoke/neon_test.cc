#include <arm_neon.h>
#include <gtest/gtest.h>
TEST(Neon, Add) { int32x4_t a = vdupq_n_s32(2); EXPECT_EQ(vgetq_lane_s32(vaddq_s32(a, a), 1), 4); }
