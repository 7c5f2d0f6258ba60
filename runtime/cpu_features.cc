// CPU features from the kernel (HWCAP/HWCAP2, prctl for the SVE vector length), minus the
// ones TCPU_DISABLE names; read once per process.
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/check.h"
#include "runtime/dispatch.h"

#if defined(__aarch64__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

namespace tcpu {
namespace {

#if defined(__aarch64__)
// Bit positions of the Linux arm64 UAPI (asm/hwcap.h), spelled out so detection does not
// depend on how new the sysroot's headers are.
constexpr unsigned long kHwcapFpHp = 1UL << 9;
constexpr unsigned long kHwcapAsimdHp = 1UL << 10;
constexpr unsigned long kHwcapAsimdDp = 1UL << 20;
constexpr unsigned long kHwcapAsimdFhm = 1UL << 23;
constexpr unsigned long kHwcapSve = 1UL << 22;
constexpr unsigned long kHwcap2Sve2 = 1UL << 1;
constexpr unsigned long kHwcap2I8mm = 1UL << 13;
constexpr unsigned long kHwcap2Bf16 = 1UL << 14;
constexpr int kPrSveGetVl = 51;
constexpr int kPrSveVlLenMask = 0xffff;
#endif

struct Features {
  uint32_t hardware = 0;
  uint32_t active = 0;
  int sve_vl_bits = 0;
  int status = TCPU_OK;
  std::string error;
};

struct NamedFeature {
  const char* name;
  uint32_t bit;
};

constexpr NamedFeature kFeatureNames[] = {
    {"dotprod", TCPU_FEATURE_DOTPROD}, {"i8mm", TCPU_FEATURE_I8MM}, {"bf16", TCPU_FEATURE_BF16},
    {"sve", TCPU_FEATURE_SVE},         {"sve2", TCPU_FEATURE_SVE2},
    {"fp16", TCPU_FEATURE_FP16},       {"fp16fml", TCPU_FEATURE_FP16FML},
};

Features Detect() {
  Features f;
#if defined(__aarch64__)
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  if (hwcap & kHwcapAsimdDp) f.hardware |= TCPU_FEATURE_DOTPROD;
  if (hwcap & kHwcapSve) f.hardware |= TCPU_FEATURE_SVE;
  if (hwcap2 & kHwcap2Sve2) f.hardware |= TCPU_FEATURE_SVE2;
  if (hwcap2 & kHwcap2I8mm) f.hardware |= TCPU_FEATURE_I8MM;
  if (hwcap2 & kHwcap2Bf16) f.hardware |= TCPU_FEATURE_BF16;
  // Compilers treat FEAT_FP16 as one feature, scalar and vector: both halves must be there.
  if ((hwcap & kHwcapFpHp) && (hwcap & kHwcapAsimdHp)) f.hardware |= TCPU_FEATURE_FP16;
  if ((hwcap & kHwcapAsimdFhm) && (f.hardware & TCPU_FEATURE_FP16)) {
    f.hardware |= TCPU_FEATURE_FP16FML;
  }
  if (f.hardware & TCPU_FEATURE_SVE) {
    const int vl = prctl(kPrSveGetVl);
    f.sve_vl_bits = vl < 0 ? 0 : (vl & kPrSveVlLenMask) * 8;
  }
#endif
  f.active = f.hardware;

  // TCPU_DISABLE=sve2,i8mm hides features. Disabling SVE also hides SVE2, and disabling fp16
  // hides fp16fml: each needs the other.
  const char* disable = std::getenv("TCPU_DISABLE");
  if (disable != nullptr) {
    std::string list(disable);
    size_t start = 0;
    while (start <= list.size()) {
      size_t end = list.find(',', start);
      if (end == std::string::npos) end = list.size();
      const std::string name = list.substr(start, end - start);
      start = end + 1;
      if (name.empty()) continue;
      bool known = false;
      for (const NamedFeature& feature : kFeatureNames) {
        if (name == feature.name) {
          f.active &= ~feature.bit;
          known = true;
        }
      }
      if (!known) {
        f.status = TCPU_ERR_INVALID_ENV;
        f.error = "TCPU_DISABLE='" + list + "': unknown feature '" + name +
                  "' (known: sve2, sve, i8mm, dotprod, bf16, fp16, fp16fml)";
        f.active = 0;  // Baseline variants only, until the environment is fixed.
        break;
      }
    }
    if (!(f.active & TCPU_FEATURE_SVE)) f.active &= ~TCPU_FEATURE_SVE2;
    if (!(f.active & TCPU_FEATURE_FP16)) f.active &= ~TCPU_FEATURE_FP16FML;
  }
  return f;
}

const Features& Get() {
  static const Features features = Detect();
  return features;
}

}  // namespace

uint32_t ActiveFeatures() { return Get().active; }

int FeatureStatus() { return Get().status; }

int SveVectorLengthBits() { return Get().sve_vl_bits; }

}  // namespace tcpu

extern "C" int tcpu_cpu_info_get(tcpu_cpu_info* info) {
  TCPU_CHECK_NOT_NULL("tcpu_cpu_info_get", info);
  const tcpu::Features& f = tcpu::Get();
  info->features = f.active;
  info->hw_features = f.hardware;
  info->sve_vl_bits = f.sve_vl_bits;
  if (f.status != TCPU_OK) return tcpu::Fail(f.status, "%s", f.error.c_str());
  return tcpu::Succeed();
}
