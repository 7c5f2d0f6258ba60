// A parameter of the decoder tests: one generated checkpoint (tools/checkpoint) opened with
// one weight format, named for gtest as CHECKPOINT_int8 / CHECKPOINT_int4.
#ifndef TCPU_ENGINE_MODEL_TESTS_CHECKPOINT_CASE_H_
#define TCPU_ENGINE_MODEL_TESTS_CHECKPOINT_CASE_H_

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "tcpu/decoder.h"

namespace tcpu::testing {

struct CheckpointCase {
  const char* checkpoint;
  int32_t weights;  // tcpu_weight_format
};

inline std::string CheckpointCaseName(const ::testing::TestParamInfo<CheckpointCase>& info) {
  return std::string(info.param.checkpoint) +
         (info.param.weights == TCPU_WEIGHTS_INT4 ? "_int4" : "_int8");
}

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_MODEL_TESTS_CHECKPOINT_CASE_H_
