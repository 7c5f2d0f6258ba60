// Storing one 4-column int32 result row of a GEMM tile, for the NEON-family variants
// (neon, dotprod, i8mm); rows at or past m and columns past n are never written.
#ifndef TCPU_KERNELS_GEMM_GEMM_STORE_NEON_H_
#define TCPU_KERNELS_GEMM_GEMM_STORE_NEON_H_

#include <arm_neon.h>

#include "kernels/gemm/gemm_kernels.h"

namespace tcpu::gemm {

// y[row][col0, col0 + 4) = v, clipped to y.
inline void StoreRow(const GemmArgs& a, int64_t row, int64_t col0, int32x4_t v) {
  if (row < a.m && col0 + 4 <= a.n) {
    vst1q_s32(a.y + row * a.n + col0, v);
    return;
  }
  int32_t lanes[4];
  vst1q_s32(lanes, v);
  StoreRowClipped(a, row, col0, lanes);
}

}  // namespace tcpu::gemm

#endif  // TCPU_KERNELS_GEMM_GEMM_STORE_NEON_H_
