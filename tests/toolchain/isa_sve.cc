// Built with -march=armv8.2-a+sve: SVE without SVE2 (what A64FX has).
#include <arm_sve.h>

#include "tests/toolchain/isa_kernels.h"

namespace tcpu::testing {

int SveBytesPerVector() { return static_cast<int>(svcntb()); }

int64_t SveSum(const int32_t* x, int64_t n) {
  svint64_t acc = svdup_s64(0);
  const int64_t step = static_cast<int64_t>(svcntd());
  // Widening loads into 64-bit lanes keep the sum exact for any n.
  for (int64_t i = 0; i < n; i += step) {
    const svbool_t pg = svwhilelt_b64(i, n);
    acc = svadd_s64_m(pg, acc, svld1sw_s64(pg, x + i));
  }
  return svaddv_s64(svptrue_b64(), acc);
}

}  // namespace tcpu::testing
