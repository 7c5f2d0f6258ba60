// The CPU qemu gives the test must be exactly the one its variant promises: every feature
// bit and the SVE vector length. A wrong -cpu string or a qemu that ignores it fails here.
#include <gtest/gtest.h>

#include "tests/toolchain/cpu_probe.h"

namespace tcpu::testing {
namespace {

TEST(CpuFeaturesTest, MatchesVariantPromise) {
  std::string error;
  const std::optional<CpuFeatures> expected = ExpectedCpu(&error);
  ASSERT_TRUE(error.empty()) << error;
  if (!expected) GTEST_SKIP() << "not run by the QEMU matrix (TCPU_QEMU_VARIANT unset)";
  const CpuFeatures actual = ProbeCpu();
  const std::string v = VariantName();
  EXPECT_EQ(actual.sve, expected->sve) << "variant " << v << ": feature sve";
  EXPECT_EQ(actual.sve2, expected->sve2) << "variant " << v << ": feature sve2";
  EXPECT_EQ(actual.i8mm, expected->i8mm) << "variant " << v << ": feature i8mm";
  EXPECT_EQ(actual.bf16, expected->bf16) << "variant " << v << ": feature bf16";
  EXPECT_EQ(actual.dotprod, expected->dotprod) << "variant " << v << ": feature dotprod";
  EXPECT_EQ(actual.sve_vl_bits, expected->sve_vl_bits)
      << "variant " << v << ": SVE vector length in bits (prctl)";
}

TEST(CpuFeaturesTest, ParsesFeatureLists) {
  CpuFeatures f;
  EXPECT_EQ(ParseFeatureList("sve,sve2,i8mm,bf16,dotprod", &f), "");
  EXPECT_TRUE(f.sve && f.sve2 && f.i8mm && f.bf16 && f.dotprod);
  EXPECT_EQ(ParseFeatureList("dotprod", &f), "");
  EXPECT_TRUE(f.dotprod);
  EXPECT_FALSE(f.sve || f.sve2 || f.i8mm || f.bf16);
  EXPECT_EQ(ParseFeatureList("", &f), "");
  EXPECT_FALSE(f.sve || f.sve2 || f.i8mm || f.bf16 || f.dotprod);
}

TEST(CpuFeaturesTest, RejectsUnknownFeatureNames) {
  CpuFeatures f;
  EXPECT_EQ(ParseFeatureList("sve,sme9", &f),
            "unknown feature 'sme9' in 'sve,sme9' (known: sve, sve2, i8mm, bf16, dotprod)");
  EXPECT_NE(ParseFeatureList("sve,,i8mm", &f), "");
  EXPECT_NE(ParseFeatureList("sve,", &f), "");
}

}  // namespace
}  // namespace tcpu::testing
