#include "tests/toolchain/cpu_probe.h"

#include <sys/auxv.h>
#include <sys/prctl.h>

#include <cstdlib>

// The bits as the Linux UAPI defines them (asm/hwcap.h), spelled out so the probe does not
// depend on how new the sysroot's headers are.
#ifndef HWCAP_FPHP
#define HWCAP_FPHP (1UL << 9)
#endif
#ifndef HWCAP_ASIMDHP
#define HWCAP_ASIMDHP (1UL << 10)
#endif
#ifndef HWCAP_ASIMDFHM
#define HWCAP_ASIMDFHM (1UL << 23)
#endif
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1UL << 20)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif
#ifndef HWCAP2_SVE2
#define HWCAP2_SVE2 (1UL << 1)
#endif
#ifndef HWCAP2_I8MM
#define HWCAP2_I8MM (1UL << 13)
#endif
#ifndef HWCAP2_BF16
#define HWCAP2_BF16 (1UL << 14)
#endif
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK 0xffff
#endif

namespace tcpu::testing {

CpuFeatures ProbeCpu() {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  CpuFeatures f;
  f.sve = (hwcap & HWCAP_SVE) != 0;
  f.sve2 = (hwcap2 & HWCAP2_SVE2) != 0;
  f.i8mm = (hwcap2 & HWCAP2_I8MM) != 0;
  f.bf16 = (hwcap2 & HWCAP2_BF16) != 0;
  f.dotprod = (hwcap & HWCAP_ASIMDDP) != 0;
  f.fp16 = (hwcap & HWCAP_FPHP) != 0 && (hwcap & HWCAP_ASIMDHP) != 0;
  f.fp16fml = (hwcap & HWCAP_ASIMDFHM) != 0;
  if (f.sve) {
    const int vl = prctl(PR_SVE_GET_VL);
    f.sve_vl_bits = vl < 0 ? -1 : (vl & PR_SVE_VL_LEN_MASK) * 8;
  }
  return f;
}

std::string ParseFeatureList(const std::string& list, CpuFeatures* out) {
  *out = CpuFeatures{};
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string name = list.substr(start, end - start);
    if (name == "sve") {
      out->sve = true;
    } else if (name == "sve2") {
      out->sve2 = true;
    } else if (name == "i8mm") {
      out->i8mm = true;
    } else if (name == "bf16") {
      out->bf16 = true;
    } else if (name == "dotprod") {
      out->dotprod = true;
    } else if (name == "fp16") {
      out->fp16 = true;
    } else if (name == "fp16fml") {
      out->fp16fml = true;
    } else if (!name.empty() || end != list.size() || start != 0) {
      return "unknown feature '" + name + "' in '" + list +
             "' (known: sve, sve2, i8mm, bf16, dotprod, fp16, fp16fml)";
    }
    start = end + 1;
  }
  return "";
}

std::string VariantName() {
  const char* v = std::getenv("TCPU_QEMU_VARIANT");
  return v ? v : "";
}

std::optional<CpuFeatures> ExpectedCpu(std::string* error) {
  if (VariantName().empty()) return std::nullopt;
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  const char* vl = std::getenv("TCPU_EXPECT_SVE_VL_BITS");
  if (features == nullptr || vl == nullptr) {
    *error = "TCPU_QEMU_VARIANT is set but TCPU_EXPECT_FEATURES or TCPU_EXPECT_SVE_VL_BITS is not";
    return std::nullopt;
  }
  CpuFeatures expected;
  *error = ParseFeatureList(features, &expected);
  if (!error->empty()) return std::nullopt;
  char* end = nullptr;
  const long bits = std::strtol(vl, &end, 10);
  if (end == vl || *end != '\0' || bits < 0 || bits > 2048 || bits % 128 != 0) {
    *error =
        std::string("TCPU_EXPECT_SVE_VL_BITS='") + vl + "' is not a multiple of 128 in [0, 2048]";
    return std::nullopt;
  }
  // A variant row with SVE but no length (or a length without SVE) would make every SVE
  // check compare against nonsense, so it is an error of the matrix, not of the CPU.
  if (expected.sve != (bits != 0)) {
    *error = std::string("TCPU_EXPECT_SVE_VL_BITS='") + vl +
             "' contradicts TCPU_EXPECT_FEATURES='" + features +
             "': the length must be non-zero exactly when sve is listed";
    return std::nullopt;
  }
  expected.sve_vl_bits = static_cast<int>(bits);
  return expected;
}

}  // namespace tcpu::testing
