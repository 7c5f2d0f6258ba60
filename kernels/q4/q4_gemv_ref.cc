// The scalar W4A8 GEMV over the packed format: the arithmetic of tcpu/gemv_q4.h written out,
// which every vector kernel reproduces bit for bit (int32 per group, the fp16 scale widened
// exactly, one fmaf per group in group order, one final multiply).
#include <cmath>
#include <cstring>

#include "kernels/q4/q4_kernels.h"
#include "tcpu/fp16.h"

namespace tcpu::q4 {

void GemvTilesRef(const W4GemvArgs& a, int64_t begin, int64_t end) {
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
        for (int64_t j = 0; j < kGroup; ++j) acc += QAt(group, i, j) * x[j];
        f[i] = std::fma(static_cast<float>(acc), tcpu_f16_to_f32(scales[i]), f[i]);
      }
    }
    for (int64_t i = 0; i < kTileRows && t * kTileRows + i < a.w.layout.n; ++i) {
      a.y[t * kTileRows + i] = f[i] * a.x_scale;
    }
  }
}

}  // namespace tcpu::q4
