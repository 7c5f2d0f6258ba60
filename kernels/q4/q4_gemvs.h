// W4A8 GEMVs on a shared int8 activation vector, for the linear layers (kernels/linear), which
// run them with int8 ones in one parallel region: each output by the arithmetic of
// tcpu/gemv_q4.h, so each equals its own tcpu_gemv_w4a8 call bit for bit.
#ifndef TCPU_KERNELS_Q4_Q4_GEMVS_H_
#define TCPU_KERNELS_Q4_Q4_GEMVS_H_

#include <cstdint>

#include "kernels/grouped/grouped_runner.h"
#include "kernels/q4/q4_packed.h"

namespace tcpu::q4 {

// One matrix: y_f32[i] = f * x_scale; when y is set, also y[i] = bf16_rne(y_f32[i]) (y_f32 is
// then the matrix's fp32 scratch: the rounding happens per tile, right after its rows).
struct SharedGemv {
  Q4View w;  // validated for (n, k) with the k of x
  float* y_f32 = nullptr;
  uint16_t* y = nullptr;
};

// The int4 backend of ParallelForUnits (runtime/parallel_units.h): a GEMV's unit is a set of
// 4 tiles (the unit the dotprod kernel runs fastest). x: groups * 32 int8, zero past k.
using grouped::MacsPerTileUnit;
using grouped::TileUnits;
void RunTileUnits(const int8_t* x, float x_scale, const SharedGemv& gemv, int64_t unit_begin,
                  int64_t unit_end);

}  // namespace tcpu::q4

#endif  // TCPU_KERNELS_Q4_Q4_GEMVS_H_
