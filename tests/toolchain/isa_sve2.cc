// Built with -march=armv9-a+sve2.
#include <arm_sve.h>

#include "tests/toolchain/isa_kernels.h"

namespace tcpu::testing {

int Sve2BytesPerVector() { return static_cast<int>(svcntb()); }

void Sve2RoundingHalvingAdd(const int16_t* a, const int16_t* b, int16_t* out, int64_t n) {
  const int64_t step = static_cast<int64_t>(svcnth());
  for (int64_t i = 0; i < n; i += step) {
    const svbool_t pg = svwhilelt_b16(i, n);
    svst1_s16(pg, out + i, svrhadd_s16_x(pg, svld1_s16(pg, a + i), svld1_s16(pg, b + i)));
  }
}

}  // namespace tcpu::testing
