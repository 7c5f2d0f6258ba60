// The CPU qemu gives the test must be exactly the one its variant promises: every feature
// bit and the SVE vector length. A wrong -cpu string or a qemu that ignores it fails here.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>
#include <string>

#include "tests/toolchain/cpu_probe.h"

namespace tcpu::testing {
namespace {

TEST(CpuFeaturesTest, MatchesVariantPromise) {
  std::string error;
  const std::optional<CpuFeatures> expected = ExpectedCpu(&error);
  ASSERT_TRUE(error.empty()) << error;
  if (!expected) GTEST_SKIP() << "not run by the QEMU matrix (TCPU_QEMU_VARIANT unset)";
  const CpuFeatures actual = ProbeCpu();
  const std::string variant = VariantName();
  // Each feature on its own, so one run lists every mismatch rather than the first.
  const struct {
    const char* name;
    bool CpuFeatures::*member;
  } kFeatures[] = {
      {"sve", &CpuFeatures::sve},         {"sve2", &CpuFeatures::sve2},
      {"i8mm", &CpuFeatures::i8mm},       {"bf16", &CpuFeatures::bf16},
      {"dotprod", &CpuFeatures::dotprod}, {"fp16", &CpuFeatures::fp16},
      {"fp16fml", &CpuFeatures::fp16fml},
  };
  for (const auto& f : kFeatures) {
    EXPECT_EQ(actual.*f.member, (*expected).*f.member)
        << "variant " << variant << ", feature " << f.name << ": expected "
        << ((*expected).*f.member ? "present" : "absent") << ", the CPU reports it "
        << (actual.*f.member ? "present" : "absent");
  }
  EXPECT_EQ(actual.sve_vl_bits, expected->sve_vl_bits)
      << "variant " << variant << ": SVE vector length in bits, expected " << expected->sve_vl_bits
      << ", prctl(PR_SVE_GET_VL) reports " << actual.sve_vl_bits;
}

TEST(CpuFeaturesTest, ParsesFeatureLists) {
  CpuFeatures f;
  EXPECT_EQ(ParseFeatureList("sve,sve2,i8mm,bf16,dotprod,fp16,fp16fml", &f), "");
  EXPECT_TRUE(f.sve && f.sve2 && f.i8mm && f.bf16 && f.dotprod && f.fp16 && f.fp16fml);
  EXPECT_EQ(ParseFeatureList("dotprod", &f), "");
  EXPECT_TRUE(f.dotprod);
  EXPECT_FALSE(f.sve || f.sve2 || f.i8mm || f.bf16);
  // The a53 variant promises nothing: an empty list is valid and clears every feature.
  EXPECT_EQ(ParseFeatureList("", &f), "");
  EXPECT_FALSE(f.sve || f.sve2 || f.i8mm || f.bf16 || f.dotprod);
}

TEST(CpuFeaturesTest, RejectsUnknownFeatureNames) {
  CpuFeatures f;
  EXPECT_EQ(ParseFeatureList("sve,sme9", &f),
            "unknown feature 'sme9' in 'sve,sme9' (known: sve, sve2, i8mm, bf16, dotprod, fp16, "
            "fp16fml)");
  // Case, spaces and empty entries are typos in a variant table, not other spellings.
  EXPECT_NE(ParseFeatureList("SVE", &f), "");
  EXPECT_NE(ParseFeatureList("sve, sve2", &f), "");
  EXPECT_NE(ParseFeatureList("sve,,i8mm", &f), "");
  EXPECT_NE(ParseFeatureList("sve,", &f), "");
}

// Sets the TCPU_* variables for one scope and puts back what the harness had set, so the
// tests around it still see the real promise.
class ScopedPromise {
 public:
  ScopedPromise(const char* variant, const char* features, const char* vl_bits) {
    for (int i = 0; i < 3; ++i) {
      const char* old = getenv(kNames[i]);
      saved_[i] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    Set(kNames[0], variant);
    Set(kNames[1], features);
    Set(kNames[2], vl_bits);
  }
  ~ScopedPromise() {
    for (int i = 0; i < 3; ++i) Set(kNames[i], saved_[i] ? saved_[i]->c_str() : nullptr);
  }
  ScopedPromise(const ScopedPromise&) = delete;
  ScopedPromise& operator=(const ScopedPromise&) = delete;

 private:
  static void Set(const char* name, const char* value) {
    if (value) {
      setenv(name, value, /*overwrite=*/1);
    } else {
      unsetenv(name);
    }
  }
  static constexpr const char* kNames[3] = {"TCPU_QEMU_VARIANT", "TCPU_EXPECT_FEATURES",
                                            "TCPU_EXPECT_SVE_VL_BITS"};
  std::optional<std::string> saved_[3];
};

TEST(CpuFeaturesTest, ReadsThePromiseFromTheEnvironment) {
  std::string error;
  {
    ScopedPromise promise("a64fx", "sve", "512");
    const std::optional<CpuFeatures> expected = ExpectedCpu(&error);
    ASSERT_TRUE(expected.has_value()) << error;
    EXPECT_TRUE(expected->sve);
    EXPECT_FALSE(expected->sve2 || expected->i8mm || expected->bf16 || expected->dotprod);
    EXPECT_EQ(expected->sve_vl_bits, 512);
    EXPECT_EQ(VariantName(), "a64fx");
  }
  {
    ScopedPromise promise("a53", "", "0");
    const std::optional<CpuFeatures> expected = ExpectedCpu(&error);
    ASSERT_TRUE(expected.has_value()) << error;
    EXPECT_FALSE(expected->sve || expected->sve2 || expected->i8mm || expected->bf16 ||
                 expected->dotprod);
    EXPECT_EQ(expected->sve_vl_bits, 0);
  }
  {
    // Run outside the matrix: no promise, and no error either.
    ScopedPromise promise(nullptr, nullptr, nullptr);
    error.clear();
    EXPECT_FALSE(ExpectedCpu(&error).has_value());
    EXPECT_EQ(error, "");
  }
}

TEST(CpuFeaturesTest, RejectsMalformedPromises) {
  const struct {
    const char* features;
    const char* vl_bits;
    const char* error_mentions;
  } kCases[] = {
      {"sve,sme", "128", "unknown feature 'sme'"},
      {"sve", "96", "not a multiple of 128"},
      {"sve", "4096", "not a multiple of 128"},
      {"sve", "512 bits", "not a multiple of 128"},
      {"sve", "0", "contradicts"},        // SVE without a length.
      {"dotprod", "256", "contradicts"},  // A length without SVE.
      {"sve", nullptr, "is not"},         // The harness forgot a variable.
  };
  for (const auto& c : kCases) {
    ScopedPromise promise("broken", c.features, c.vl_bits);
    std::string error;
    EXPECT_FALSE(ExpectedCpu(&error).has_value())
        << "features '" << c.features << "', bits '" << (c.vl_bits ? c.vl_bits : "(unset)") << "'";
    EXPECT_NE(error.find(c.error_mentions), std::string::npos)
        << "error '" << error << "' should mention '" << c.error_mentions << "'";
  }
}

}  // namespace
}  // namespace tcpu::testing
