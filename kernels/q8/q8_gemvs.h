// Block-Q8 GEMVs on a shared int8 activation vector, for the linear layers (kernels/linear),
// which run them with int8 and int4 ones in one parallel region: each output by the arithmetic
// of tcpu/gemv_q8.h, so each equals its own tcpu_gemv_q8 call bit for bit.
#ifndef TCPU_KERNELS_Q8_Q8_GEMVS_H_
#define TCPU_KERNELS_Q8_Q8_GEMVS_H_

#include <cstdint>

#include "kernels/q8/q8_packed.h"

namespace tcpu::q8 {

// One matrix: y_f32[i] = f * x_scale; when y is set, also y[i] = bf16_rne(y_f32[i]) (rounded
// per tile, right after its rows).
struct SharedGemv {
  Q8View w;  // validated for (n, k) with the k of x
  float* y_f32 = nullptr;
  uint16_t* y = nullptr;
};

// The checks a GEMV entry point starts with (tcpu_gemv_q8, tcpu_gemv_bf16_q8): the pointers
// (TCPU_ERR_NULL_POINTER naming them), then the packed matrix for n, k (ViewQ8).
int CheckGemv(const char* fn, const void* packed_w, const void* x, const void* y, int64_t n,
              int64_t k, Q8View* w);

// The block-Q8 backend of ParallelForUnits (runtime/parallel_units.h): a unit is 4 tiles
// (grouped::TileUnits, grouped::MacsPerTileUnit). x: groups * 32 int8, zero past k.
void RunTileUnits(const int8_t* x, float x_scale, const SharedGemv& gemv, int64_t unit_begin,
                  int64_t unit_end);

}  // namespace tcpu::q8

#endif  // TCPU_KERNELS_Q8_Q8_GEMVS_H_
