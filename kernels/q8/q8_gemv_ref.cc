// The scalar block-Q8 GEMV over the packed format: the arithmetic of tcpu/gemv_q8.h written
// out, which every vector kernel reproduces bit for bit (int32 per group, the fp16 scale widened
// exactly, one fmaf per group in group order, one final multiply).
#include <cmath>
#include <cstring>

#include "kernels/q8/q8_kernels.h"
#include "tcpu/fp16.h"

namespace tcpu::q8 {

void GemvTilesRef(const Q8GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t groups = a.w.layout.groups;
  for (int64_t t = begin; t < end; ++t) {
    float f[kTileRows] = {};
    const uint8_t* group = a.w.Tile(t);
    for (int64_t g = 0; g < groups; ++g, group += kTileGroupBytes) {
      const int8_t* x = a.x + g * kGroup;
      uint16_t scales[kTileRows];
      std::memcpy(scales, group + kUnits * kUnitBytes, sizeof(scales));
      for (int64_t i = 0; i < kTileRows; ++i) {
        int32_t acc = 0;
        for (int64_t u = 0; u < kUnits; ++u) {
          for (int64_t e = 0; e < 4; ++e) {
            acc += static_cast<int8_t>(group[u * kUnitBytes + 4 * i + e]) * x[4 * u + e];
          }
        }
        f[i] = std::fma(static_cast<float>(acc), tcpu_f16_to_f32(scales[i]), f[i]);
      }
    }
    for (int64_t i = 0; i < kTileRows && t * kTileRows + i < a.w.layout.n; ++i) {
      a.y[t * kTileRows + i] = f[i] * a.x_scale;
    }
  }
}

}  // namespace tcpu::q8
