// SwiGLU in SVE2, vector-length agnostic: the vector exp of swiglu_kernels.h with FSCALE for
// the powers of two (it rounds once, subnormal results included). bf16 is widened with
// ZIP1/ZIP2 against zero and narrowed with UZP2; the tail is a WHILELT-predicated iteration.
#include <arm_sve.h>

#include "kernels/swiglu/swiglu_kernels.h"
#include "runtime/bf16_sve.h"

namespace tcpu::swiglu {
namespace {

using ::tcpu::simd::HighToF32;
using ::tcpu::simd::LowToF32;
using ::tcpu::simd::RoundToBf16Bits;

// silu(g) * u in fp32, lane by lane (all lanes computed; inactive ones hold zeros).
inline svfloat32_t SiluTimes(svfloat32_t g, svfloat32_t u) {
  const svbool_t all = svptrue_b32();
  const svfloat32_t x = svneg_f32_x(all, svmin_n_f32_x(all, svabs_f32_x(all, g), kMaxArg));
  const svint32_t n = svcvt_s32_f32_x(all, svrintn_f32_x(all, svmul_n_f32_x(all, x, kLog2e)));
  const svfloat32_t nf = svcvt_f32_s32_x(all, n);
  svfloat32_t r = svmla_n_f32_x(all, x, nf, -kLn2Hi);
  r = svmla_n_f32_x(all, r, nf, -kLn2Lo);
  svfloat32_t p = svmla_n_f32_x(all, svdup_n_f32(kExpC4), r, kExpC5);
  p = svmad_n_f32_x(all, p, r, kExpC3);  // p * r + c3
  p = svmad_n_f32_x(all, p, r, kExpC2);
  p = svmad_n_f32_x(all, p, r, kExpC1);
  p = svmad_n_f32_x(all, p, r, kExpC0);

  const svint32_t n1 = svmax_n_s32_x(all, n, kMinNormalExp);
  const svfloat32_t denom = svadd_n_f32_x(all, svscale_f32_x(all, p, n1), 1.0f);
  svfloat32_t recip = svrecpe_f32(denom);
  recip = svmul_f32_x(all, recip, svrecps_f32(denom, recip));
  recip = svmul_f32_x(all, recip, svrecps_f32(denom, recip));

  const svbool_t negative = svcmplt_n_f32(all, g, 0.0f);  // False for NaN: g is kept.
  const svfloat32_t num = svsel_f32(negative, svscale_f32_x(all, svmul_f32_x(all, x, p), n1), g);
  const svfloat32_t y = svmul_f32_x(all, svmul_f32_x(all, num, recip), u);
  // The rest of 2^n (g < -87 only), applied last with one rounding.
  const svint32_t rest = svsub_s32_z(negative, n, n1);
  return svscale_f32_x(all, y, rest);
}

}  // namespace

void SwigluSve2(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n) {
  const int64_t step = static_cast<int64_t>(svcnth());
  for (int64_t i = 0; i < n; i += step) {
    const svbool_t pg = svwhilelt_b16_s64(i, n);
    const svuint16_t hg = svld1_u16(pg, gate + i);
    const svuint16_t hu = svld1_u16(pg, up + i);
    const svfloat32_t lo = SiluTimes(LowToF32(hg), LowToF32(hu));
    const svfloat32_t hi = SiluTimes(HighToF32(hg), HighToF32(hu));
    svst1_u16(pg, out + i, svuzp2_u16(svreinterpret_u16_u32(RoundToBf16Bits(lo)),
                                           svreinterpret_u16_u32(RoundToBf16Bits(hi))));
  }
}

}  // namespace tcpu::swiglu
