// tcpu_replay_check_args: a list of values that does not fit the kernel is refused with a
// detail naming the kernel, the argument and what was expected; one that fits passes.
#include <string>

#include "gtest/gtest.h"
#include "tcpu/status.h"
#include "tcpu/triton_replay.h"

namespace {

// scale(x_desc: !tt.tensordesc<tensor<4x8xf32>>, y: !tt.ptr<f32>, n: i32)
const tcpu_replay_param kParams[] = {
    {"!tt.tensordesc<tensor<4x8xf32>>", TCPU_REPLAY_DESC, "f32", 2},
    {"!tt.ptr<f32>", TCPU_REPLAY_PTR, "f32", 0},
    {"i32", TCPU_REPLAY_INT, "i32", 0},
};
const tcpu_replay_kernel kKernel = {"scale", kParams, 3, nullptr, nullptr};

struct Args {
  float x[64] = {};
  float y[64] = {};
  tcpu_replay_arg values[3] = {};

  Args() {
    values[0].kind = TCPU_REPLAY_DESC;
    values[0].rank = 2;
    values[0].ptr = x;
    values[0].sizes[0] = 4;
    values[0].sizes[1] = 8;
    values[0].strides[0] = 16;
    values[0].strides[1] = 1;
    values[1].kind = TCPU_REPLAY_PTR;
    values[1].ptr = y;
    values[2].kind = TCPU_REPLAY_INT;
    values[2].i = 32;
  }
};

TEST(ReplayArgsTest, ArgumentsThatFitPass) {
  Args args;
  EXPECT_EQ(tcpu_replay_check_args(&kKernel, args.values, 3), TCPU_OK);
}

TEST(ReplayArgsTest, CountKindAndRankAreChecked) {
  Args args;
  EXPECT_EQ(tcpu_replay_check_args(&kKernel, args.values, 2), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tcpu_last_error_detail()),
            "tcpu_replay_scale: 2 arguments, expected 3 (the TTIR kernel's)");
  args.values[1].kind = TCPU_REPLAY_INT;
  EXPECT_EQ(tcpu_replay_check_args(&kKernel, args.values, 3), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tcpu_last_error_detail()),
            "tcpu_replay_scale: argument 1 is an integer (kind 2), expected a pointer for "
            "!tt.ptr<f32>");
  args.values[1].kind = TCPU_REPLAY_PTR;
  args.values[0].rank = 3;
  EXPECT_EQ(tcpu_replay_check_args(&kKernel, args.values, 3), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tcpu_last_error_detail()),
            "tcpu_replay_scale: argument 0 has rank 3, expected 2 for "
            "!tt.tensordesc<tensor<4x8xf32>>");
  EXPECT_EQ(tcpu_replay_check_args(nullptr, args.values, 3), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_replay_check_args(&kKernel, nullptr, 3), TCPU_ERR_NULL_POINTER);
}

// Triton's TensorDescriptor has a contiguous last dimension; the launcher relies on it.
TEST(ReplayArgsTest, DescriptorInnermostStrideMustBeOne) {
  for (int64_t stride : {2, 0, -1}) {
    Args args;
    args.values[0].strides[1] = stride;
    EXPECT_EQ(tcpu_replay_check_args(&kKernel, args.values, 3), TCPU_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(tcpu_last_error_detail()),
              "tcpu_replay_scale: argument 0 (!tt.tensordesc<tensor<4x8xf32>>) has innermost "
              "stride " +
                  std::to_string(stride) +
                  ", expected 1 (Triton's TensorDescriptor: a contiguous last dimension)");
  }
}

}  // namespace
