// Scalar reference of tcpu_sdot_i8x16. Sums in uint32 so overflow wraps (as SDOT does)
// instead of being undefined behaviour.
#include "kernels/sdot/sdot_kernels.h"

namespace tcpu::sdot {

void SdotRef(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out) {
  uint32_t sums[4];
  for (int i = 0; i < 4; ++i) {
    uint32_t sum = static_cast<uint32_t>(acc[i]);
    for (int j = 0; j < 4; ++j) {
      sum += static_cast<uint32_t>(int32_t{a[4 * i + j]} * int32_t{b[4 * i + j]});
    }
    sums[i] = sum;
  }
  // Written after every read, so out may alias acc.
  for (int i = 0; i < 4; ++i) out[i] = static_cast<int32_t>(sums[i]);
}

}  // namespace tcpu::sdot
