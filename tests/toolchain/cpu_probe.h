// What the CPU running this process offers, as the kernel reports it (HWCAP/HWCAP2 and the
// SVE vector length), and what the QEMU variant promised (TCPU_EXPECT_* environment).
#ifndef TCPU_TESTS_TOOLCHAIN_CPU_PROBE_H_
#define TCPU_TESTS_TOOLCHAIN_CPU_PROBE_H_

#include <optional>
#include <string>

namespace tcpu::testing {

struct CpuFeatures {
  bool sve = false;
  bool sve2 = false;
  bool i8mm = false;
  bool bf16 = false;
  bool dotprod = false;
  bool fp16 = false;     // FEAT_FP16: HWCAP_FPHP and HWCAP_ASIMDHP
  bool fp16fml = false;  // FEAT_FHM: HWCAP_ASIMDFHM
  int sve_vl_bits = 0;  // 0 without SVE.
};

// Reads getauxval(AT_HWCAP/AT_HWCAP2) and prctl(PR_SVE_GET_VL).
CpuFeatures ProbeCpu();

// Parses a comma-separated feature list ("sve,sve2,i8mm,bf16,dotprod,fp16,fp16fml";
// empty = none) into
// `out`. Returns an error message naming the unknown entry, or an empty string.
std::string ParseFeatureList(const std::string& list, CpuFeatures* out);

// The promise of the QEMU variant this test runs in, or nullopt when not run by the matrix
// (TCPU_QEMU_VARIANT unset). `error` receives a message if the environment is malformed.
std::optional<CpuFeatures> ExpectedCpu(std::string* error);

// TCPU_QEMU_VARIANT, or "" when unset.
std::string VariantName();

}  // namespace tcpu::testing

#endif  // TCPU_TESTS_TOOLCHAIN_CPU_PROBE_H_
