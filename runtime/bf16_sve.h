// bf16 <-> fp32 on SVE vectors, vector-length agnostic, with the rounding of tcpu/bf16.h.
// For kernels built with -march=armv8.2-a+sve or later.
#ifndef TCPU_RUNTIME_BF16_SVE_H_
#define TCPU_RUNTIME_BF16_SVE_H_

#include <arm_sve.h>

namespace tcpu::simd {

// The bf16 of the low / high half of `h` (interleaved with zeros) as fp32 (exact).
inline svfloat32_t LowToF32(svuint16_t h) {
  return svreinterpret_f32_u16(svzip1_u16(svdup_n_u16(0), h));
}
inline svfloat32_t HighToF32(svuint16_t h) {
  return svreinterpret_f32_u16(svzip2_u16(svdup_n_u16(0), h));
}

// fp32 bits rounded to nearest even at bit 16 (NaN made quiet), as tcpu_f32_to_bf16 does;
// the bf16 is the top half of each lane (svuzp2 of two results packs them).
inline svuint32_t RoundToBf16Bits(svfloat32_t f) {
  const svbool_t all = svptrue_b32();
  const svuint32_t bits = svreinterpret_u32_f32(f);
  const svuint32_t lsb = svand_n_u32_x(all, svlsr_n_u32_x(all, bits, 16), 1);
  const svuint32_t rounded = svadd_u32_x(all, bits, svadd_n_u32_x(all, lsb, 0x7fff));
  const svuint32_t quiet_nan = svorr_n_u32_x(all, bits, 0x00400000);
  return svsel_u32(svcmpuo_f32(all, f, f), quiet_nan, rounded);
}

}  // namespace tcpu::simd

#endif  // TCPU_RUNTIME_BF16_SVE_H_
