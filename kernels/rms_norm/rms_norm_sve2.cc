// RMSNorm passes in SVE2, vector-length agnostic (128..2048 bits). A full vector of bf16 is
// widened to two fp32 vectors with ZIP1/ZIP2 against zero (each bf16 lands in the top half
// of a 32-bit lane, which is its fp32 value); UZP2 of the rounded fp32 bits undoes it. The
// tail is one WHILELT-predicated iteration whose inactive lanes load as zero.
#include <arm_sve.h>

#include "kernels/rms_norm/rms_norm_kernels.h"
#include "runtime/bf16_sve.h"

namespace tcpu::rms_norm {
namespace {

using ::tcpu::simd::HighToF32;
using ::tcpu::simd::LowToF32;
using ::tcpu::simd::RoundToBf16Bits;

float SumSquaresSve2(const uint16_t* x, int64_t d) {
  const svbool_t all16 = svptrue_b16();
  const svbool_t all32 = svptrue_b32();
  const int64_t step = static_cast<int64_t>(svcnth());
  svfloat32_t acc0 = svdup_n_f32(0.0f), acc1 = svdup_n_f32(0.0f);
  svfloat32_t acc2 = svdup_n_f32(0.0f), acc3 = svdup_n_f32(0.0f);
  int64_t i = 0;
  for (; i + 2 * step <= d; i += 2 * step) {
    const svuint16_t h0 = svld1_u16(all16, x + i);
    const svuint16_t h1 = svld1_u16(all16, x + i + step);
    const svfloat32_t a = LowToF32(h0), b = HighToF32(h0);
    const svfloat32_t c = LowToF32(h1), e = HighToF32(h1);
    acc0 = svmla_f32_x(all32, acc0, a, a);
    acc1 = svmla_f32_x(all32, acc1, b, b);
    acc2 = svmla_f32_x(all32, acc2, c, c);
    acc3 = svmla_f32_x(all32, acc3, e, e);
  }
  for (; i < d; i += step) {
    const svuint16_t h = svld1_u16(svwhilelt_b16_s64(i, d), x + i);  // Zero past d.
    const svfloat32_t a = LowToF32(h), b = HighToF32(h);
    acc0 = svmla_f32_x(all32, acc0, a, a);
    acc1 = svmla_f32_x(all32, acc1, b, b);
  }
  const svfloat32_t sum =
      svadd_f32_x(all32, svadd_f32_x(all32, acc0, acc1), svadd_f32_x(all32, acc2, acc3));
  return svaddv_f32(all32, sum);
}

void ScaleSve2(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float inv) {
  const svbool_t all32 = svptrue_b32();
  const int64_t step = static_cast<int64_t>(svcnth());
  for (int64_t i = 0; i < d; i += step) {
    const svbool_t pg = svwhilelt_b16_s64(i, d);
    const svuint16_t hx = svld1_u16(pg, x + i);
    const svuint16_t hw = svld1_u16(pg, w + i);
    const svfloat32_t lo =
        svmul_f32_x(all32, svmul_n_f32_x(all32, LowToF32(hx), inv), LowToF32(hw));
    const svfloat32_t hi =
        svmul_f32_x(all32, svmul_n_f32_x(all32, HighToF32(hx), inv), HighToF32(hw));
    const svuint16_t packed = svuzp2_u16(svreinterpret_u16_u32(RoundToBf16Bits(lo)),
                                         svreinterpret_u16_u32(RoundToBf16Bits(hi)));
    svst1_u16(pg, out + i, packed);
  }
}

}  // namespace

const RmsNormKernel kRmsNormSve2 = {SumSquaresSve2, ScaleSve2};

}  // namespace tcpu::rms_norm
