// GGUF Q8_0 blocks packed into whole tiles of the block-Q8 format with Armv8.0 NEON
// (-march=armv8-a), for tcpu_pack_q8_from_q8_0 (q8_pack_q8_0.cc).
#include <arm_neon.h>

#include <cstring>

#include "kernels/q8/q8_kernels.h"

namespace tcpu::q8 {

// PackTileFromQ8_0Scalar for a whole tile of 16 rows with Armv8.0 NEON (-march=armv8-a; loading
// needs this at well under one instruction per weight): per row quad, the 4 rows' q of 4 units
// are a 4 x 4 matrix of 32-bit words, transposed by TRN1/TRN2 and ZIP1/ZIP2 into the units'
// 16-byte row quads; a running SMIN finds a q of -128, and the group's 16 d, once stored, are
// checked 8 at a time.
bool PackTileFromQ8_0Neon(const uint8_t* blocks, const Q8Layout& l, int64_t t, uint8_t* out) {
  const int64_t row_bytes = l.groups * kQ8_0BlockBytes;
  const uint8_t* tile = blocks + t * kTileRows * row_bytes + 2;  // q of row 0, group 0
  int8x16_t min = vdupq_n_s8(0);
  uint16x8_t non_finite = vdupq_n_u16(0);
  const uint16x8_t exponent = vdupq_n_u16(0x7c00);
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes, tile += kQ8_0BlockBytes) {
    uint16_t* scales = reinterpret_cast<uint16_t*>(out + kUnits * kUnitBytes);
    for (int64_t quad = 0; quad < 4; ++quad) {
      int32x4_t lo[4], hi[4];
      for (int64_t r = 0; r < 4; ++r) {
        const uint8_t* q = tile + (4 * quad + r) * row_bytes;
        const int8x16_t a = vld1q_s8(reinterpret_cast<const int8_t*>(q));
        const int8x16_t b = vld1q_s8(reinterpret_cast<const int8_t*>(q) + 16);
        min = vminq_s8(min, vminq_s8(a, b));
        lo[r] = vreinterpretq_s32_s8(a);
        hi[r] = vreinterpretq_s32_s8(b);
        uint16_t d;
        std::memcpy(&d, q - 2, 2);
        scales[4 * quad + r] = d;
      }
      for (int64_t h = 0; h < 2; ++h) {
        const int32x4_t* w = h == 0 ? lo : hi;
        const int32x4_t t0 = vtrn1q_s32(w[0], w[1]), t1 = vtrn2q_s32(w[0], w[1]);
        const int32x4_t t2 = vtrn1q_s32(w[2], w[3]), t3 = vtrn2q_s32(w[2], w[3]);
        const int64x2_t e0 = vreinterpretq_s64_s32(t0), e1 = vreinterpretq_s64_s32(t1);
        const int64x2_t e2 = vreinterpretq_s64_s32(t2), e3 = vreinterpretq_s64_s32(t3);
        uint8_t* unit = out + 4 * h * kUnitBytes + 16 * quad;
        vst1q_s64(reinterpret_cast<int64_t*>(unit + 0 * kUnitBytes), vzip1q_s64(e0, e2));
        vst1q_s64(reinterpret_cast<int64_t*>(unit + 1 * kUnitBytes), vzip1q_s64(e1, e3));
        vst1q_s64(reinterpret_cast<int64_t*>(unit + 2 * kUnitBytes), vzip2q_s64(e0, e2));
        vst1q_s64(reinterpret_cast<int64_t*>(unit + 3 * kUnitBytes), vzip2q_s64(e1, e3));
      }
    }
    for (int64_t half = 0; half < 2; ++half) {
      const uint16x8_t d = vandq_u16(vld1q_u16(scales + 8 * half), exponent);
      non_finite = vorrq_u16(non_finite, vceqq_u16(d, exponent));
    }
  }
  return vminvq_s8(min) == -128 || vmaxvq_u16(non_finite) != 0;
}

}  // namespace tcpu::q8
