// Per-row weight quantization in SVE2, vector-length agnostic and bit-identical to
// QuantizeOne: LD1H into 32-bit lanes then LSL #16 widens bf16, FDIV divides, FRINTN rounds
// half to even, FMAX/FMIN clamp, FCVTZS converts the (integral) result and ST1B stores the low
// byte of each lane. Tails are WHILELT-predicated.
#include <arm_sve.h>

#include "kernels/quantize/quantize_kernels.h"

namespace tcpu::quantize {
namespace {

uint16_t AbsmaxBitsSve2(const uint16_t* w, int64_t k) {
  const svbool_t all = svptrue_b16();
  const int64_t step = static_cast<int64_t>(svcnth());
  svuint16_t m0 = svdup_n_u16(0), m1 = svdup_n_u16(0);
  int64_t j = 0;
  for (; j + 2 * step <= k; j += 2 * step) {
    m0 = svmax_u16_x(all, m0, svand_n_u16_x(all, svld1_u16(all, w + j), 0x7fff));
    m1 = svmax_u16_x(all, m1, svand_n_u16_x(all, svld1_u16(all, w + j + step), 0x7fff));
  }
  for (; j < k; j += step) {
    const svuint16_t h = svld1_u16(svwhilelt_b16_s64(j, k), w + j);  // Zero past k.
    m0 = svmax_u16_x(all, m0, svand_n_u16_x(all, h, 0x7fff));
  }
  return svmaxv_u16(all, svmax_u16_x(all, m0, m1));
}

void QuantizeRowSve2(const uint16_t* w, int64_t k, float scale, int8_t* q) {
  const svbool_t all = svptrue_b32();
  const int64_t step = static_cast<int64_t>(svcntw());
  for (int64_t j = 0; j < k; j += step) {
    const svbool_t pg = svwhilelt_b32_s64(j, k);
    const svuint32_t bits = svlsl_n_u32_x(all, svld1uh_u32(pg, w + j), 16);
    svfloat32_t v = svrintn_f32_x(all, svdiv_n_f32_x(all, svreinterpret_f32_u32(bits), scale));
    v = svmin_n_f32_x(all, svmax_n_f32_x(all, v, -127.0f), 127.0f);
    svst1b_s32(pg, q + j, svcvt_s32_f32_x(all, v));
  }
}

}  // namespace

const QuantizeKernel kQuantizeSve2 = {AbsmaxBitsSve2, QuantizeRowSve2};

}  // namespace tcpu::quantize
