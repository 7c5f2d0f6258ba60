// Small kernels, one per instruction-set extension, each compiled in its own file with its
// own -march (see BUILD.bazel): the way SDK kernels are built. isa_test.cc checks them
// against scalar arithmetic on whatever CPU qemu provides.
#ifndef TCPU_TESTS_TOOLCHAIN_ISA_KERNELS_H_
#define TCPU_TESTS_TOOLCHAIN_ISA_KERNELS_H_

#include <cstdint>

namespace tcpu::testing {

// Armv8.0 NEON: out[i] = a[i] * b[i] + c[i] for four int32 lanes (vmlaq_s32).
void NeonMultiplyAdd(const int32_t a[4], const int32_t b[4], const int32_t c[4], int32_t out[4]);

// dotprod: out[i] = acc[i] + sum_{k<4} a[4i+k] * b[4i+k] (SDOT, vdotq_s32).
void DotprodSdot(const int32_t acc[4], const int8_t a[16], const int8_t b[16], int32_t out[4]);

// i8mm: out = acc + A * B^T with A, B 2x8 int8 row-major and out 2x2 int32 row-major
// (SMMLA, vmmlaq_s32).
void I8mmSmmla(const int32_t acc[4], const int8_t a[16], const int8_t b[16], int32_t out[4]);

// bf16: out[i] = acc[i] + a[2i] * b[2i] + a[2i+1] * b[2i+1] on bf16 inputs (BFDOT).
void Bf16Dot(const float acc[4], const uint16_t a[8], const uint16_t b[8], float out[4]);

// SVE: the bytes in one vector (svcntb) and a vector-length-agnostic predicated sum.
int SveBytesPerVector();
int64_t SveSum(const int32_t* x, int64_t n);

// SVE2: out[i] = (a[i] + b[i] + 1) >> 1 without overflow (SRHADD, an SVE2-only
// instruction), in a vector-length-agnostic loop; and svcntb from SVE2 code.
int Sve2BytesPerVector();
void Sve2RoundingHalvingAdd(const int16_t* a, const int16_t* b, int16_t* out, int64_t n);

}  // namespace tcpu::testing

#endif  // TCPU_TESTS_TOOLCHAIN_ISA_KERNELS_H_
