// corpus_peer_check.h: the f32 tolerance the corpus peers are held to (FORMAT.md's), and the
// message naming the first differing element.
#include "tools/perf/corpus_peer_check.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace tcpu::corpus_peers {
namespace {

TEST(CorpusPeerCheck, WithinAbsolutePlusRelative) {
  EXPECT_TRUE(WithinF32(0.0f, 0.99e-4f));
  EXPECT_FALSE(WithinF32(0.0f, 1.01e-4f));
  EXPECT_TRUE(WithinF32(100.0f, 100.01f));  // within 1e-4 + 1e-4 * 100 = 0.0101
  EXPECT_FALSE(WithinF32(100.0f, 100.02f));
}

TEST(CorpusPeerCheck, NanOnlyEqualsNanAndInfinitiesAreExact) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(WithinF32(nan, -nan));
  EXPECT_FALSE(WithinF32(nan, 0.0f));
  EXPECT_FALSE(WithinF32(1.0f, nan));
  EXPECT_TRUE(WithinF32(inf, inf));
  EXPECT_FALSE(WithinF32(inf, -inf));
  EXPECT_FALSE(WithinF32(3e38f, inf));
}

TEST(CorpusPeerCheck, MessageNamesTheFirstElementAndCounts) {
  const float gpu[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  const float clang[4] = {1.0f, 2.5f, 3.0f, 5.0f};
  EXPECT_EQ(CompareF32(gpu, gpu, 4), "");
  EXPECT_EQ(CompareF32(gpu, clang, 4),
            "element 1: gpu 2 clang 2.5 (beyond 0.0001 + 0.0001 |gpu|), 2 of 4 elements differ");
}

}  // namespace
}  // namespace tcpu::corpus_peers
