#include "kernels/grouped/grouped_runner.h"

namespace tcpu::grouped {

void ArrangeXPairs(const int8_t* x, int64_t m, int64_t k, int64_t groups, int8_t* out) {
  const int64_t pairs = (m + 1) / 2;
  const int64_t chunks = groups * 4;   // 8-byte chunks per row
  const int64_t whole_chunks = k / 8;  // chunks entirely inside k
  for (int64_t p = 0; p < pairs; ++p) {
    for (int64_t half = 0; half < 2; ++half) {
      const int64_t row = 2 * p + half;
      int8_t* o = out + p * chunks * 16 + half * 8;
      if (row >= m) {  // the zero row of an odd m reads nothing
        for (int64_t c = 0; c < chunks; ++c) std::memset(o + 16 * c, 0, 8);
        continue;
      }
      const int8_t* src = x + row * k;
      for (int64_t c = 0; c < chunks; ++c, o += 16) {
        if (c < whole_chunks) {
          std::memcpy(o, src + 8 * c, 8);
        } else {  // the chunk holding the end of k, and the padding after it
          for (int64_t e = 0; e < 8; ++e) o[e] = 8 * c + e < k ? src[8 * c + e] : 0;
        }
      }
    }
  }
}

}  // namespace tcpu::grouped
