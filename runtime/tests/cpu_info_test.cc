// CPU feature detection as the runtime sees it, in every QEMU variant, and TCPU_DISABLE
// (the _disable targets run this binary with TCPU_DISABLE set; see BUILD.bazel).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/testing/kernel_test_util.h"
#include "tcpu/cpu.h"
#include "tcpu/status.h"

namespace {

uint32_t FeaturesFromList(const std::string& list) {
  uint32_t bits = 0;
  const std::pair<const char*, uint32_t> names[] = {{"dotprod", TCPU_FEATURE_DOTPROD},
                                                    {"i8mm", TCPU_FEATURE_I8MM},
                                                    {"bf16", TCPU_FEATURE_BF16},
                                                    {"sve2", TCPU_FEATURE_SVE2},
                                                    {"sve", TCPU_FEATURE_SVE},
                                                    {"fp16", TCPU_FEATURE_FP16},
                                                    {"fp16fml", TCPU_FEATURE_FP16FML}};
  size_t start = 0;
  while (start < list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string name = list.substr(start, end - start);
    for (const auto& [n, bit] : names) {
      if (name == n) bits |= bit;
    }
    start = end + 1;
  }
  return bits;
}

TEST(CpuInfoTest, HardwareFeaturesMatchTheVariant) {
  if (tcpu::testing::QemuVariant().empty()) GTEST_SKIP() << "not run by the QEMU matrix";
  tcpu_cpu_info info;
  const int status = tcpu_cpu_info_get(&info);
  const char* disable = std::getenv("TCPU_DISABLE");
  if (disable != nullptr && std::string(disable) == "bogus") {
    EXPECT_EQ(status, TCPU_ERR_INVALID_ENV);
    EXPECT_STREQ(tcpu_last_error_detail(),
                 "TCPU_DISABLE='bogus': unknown feature 'bogus' (known: sve2, sve, i8mm, "
                 "dotprod, bf16, fp16, fp16fml)");
    EXPECT_EQ(info.features, 0u) << "a malformed TCPU_DISABLE leaves only baseline variants";
  } else {
    EXPECT_EQ(status, TCPU_OK);
  }
  EXPECT_EQ(info.hw_features, FeaturesFromList(std::getenv("TCPU_EXPECT_FEATURES")));
  EXPECT_EQ(info.sve_vl_bits, std::atoi(std::getenv("TCPU_EXPECT_SVE_VL_BITS")));
}

TEST(CpuInfoTest, DisabledFeaturesAreHidden) {
  tcpu_cpu_info info;
  const char* disable = std::getenv("TCPU_DISABLE");
  if (tcpu_cpu_info_get(&info) != TCPU_OK) {
    EXPECT_STREQ(disable, "bogus");
    return;
  }
  uint32_t expected = info.hw_features & ~FeaturesFromList(disable ? disable : "");
  if (!(expected & TCPU_FEATURE_SVE)) expected &= ~TCPU_FEATURE_SVE2;
  if (!(expected & TCPU_FEATURE_FP16)) expected &= ~TCPU_FEATURE_FP16FML;
  EXPECT_EQ(info.features, expected);
}

TEST(CpuInfoTest, NullInfoIsRejected) {
  EXPECT_EQ(tcpu_cpu_info_get(nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_cpu_info_get: info is NULL");
}

}  // namespace
