// A whole tile (16 rows) of GGUF Q4_0 blocks in the int4 format with NEON: 16 bytes of a block
// hold v = q + 8 of k = j (low nibbles) and k = 16 + j (high nibbles). For the pair of rows p
// (high nibble, as q: v with bit 3 flipped) and p + 8 (low nibble, v as it is), SLI gives k 0..15
// and SRI k 16..31, one EOR flips the bits; four pairs' 4-byte k quads are then a 4x4 transpose
// of 32-bit lanes away from the format's slots (q4_packed.h).
#include <arm_neon.h>

#include <cstring>

#include "kernels/q4/q4_kernels.h"
#include "kernels/q4/q4_packed.h"

namespace tcpu::q4 {
namespace {

// Stores the k quads of four pairs (rows[j]: pair j's 16 bytes, quad c in lane c) as the four
// slots at out + c * 64: slot c holds pair j's quad c at bytes 4j .. 4j + 3.
inline void StoreQuads(const uint8x16_t (&rows)[4], uint8_t* out) {
  const uint32x4x2_t t01 = vtrnq_u32(vreinterpretq_u32_u8(rows[0]), vreinterpretq_u32_u8(rows[1]));
  const uint32x4x2_t t23 = vtrnq_u32(vreinterpretq_u32_u8(rows[2]), vreinterpretq_u32_u8(rows[3]));
  const uint64x2_t a0 = vreinterpretq_u64_u32(t01.val[0]), a1 = vreinterpretq_u64_u32(t01.val[1]);
  const uint64x2_t b0 = vreinterpretq_u64_u32(t23.val[0]), b1 = vreinterpretq_u64_u32(t23.val[1]);
  vst1q_u8(out + 0 * kUnitBytes, vreinterpretq_u8_u64(vtrn1q_u64(a0, b0)));
  vst1q_u8(out + 1 * kUnitBytes, vreinterpretq_u8_u64(vtrn1q_u64(a1, b1)));
  vst1q_u8(out + 2 * kUnitBytes, vreinterpretq_u8_u64(vtrn2q_u64(a0, b0)));
  vst1q_u8(out + 3 * kUnitBytes, vreinterpretq_u8_u64(vtrn2q_u64(a1, b1)));
}

}  // namespace

void PackTileFromQ4_0Neon(const uint8_t* blocks, const Q4Layout& l, int64_t t, uint8_t* out) {
  const int64_t row_bytes = l.groups * kQ4_0BlockBytes;
  const uint8_t* tile = blocks + t * kTileRows * row_bytes;
  const uint8x16_t flip = vdupq_n_u8(0x80);
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes) {
    const uint8_t* block = tile + g * kQ4_0BlockBytes;
    for (int64_t s = 0; s < 2; ++s) {  // pairs 4s .. 4s + 3: slot s (k 0..15), s + 2 (k 16..31)
      uint8x16_t low[4], high[4];
      for (int j = 0; j < 4; ++j) {
        const int64_t p = 4 * s + j;
        const uint8x16_t a = vld1q_u8(block + p * row_bytes + 2);
        const uint8x16_t b = vld1q_u8(block + (p + kPairs) * row_bytes + 2);
        low[j] = veorq_u8(vsliq_n_u8(b, a, 4), flip);   // a's v << 4 | b's v, k = 0..15
        high[j] = veorq_u8(vsriq_n_u8(a, b, 4), flip);  // a's v' << 4 | b's v', k = 16..31
      }
      StoreQuads(low, out + s * kSlotBytes);
      StoreQuads(high, out + (s + 2) * kSlotBytes);
    }
    uint8_t* scales = out + kUnits * kUnitBytes;
    for (int64_t i = 0; i < kTileRows; ++i) std::memcpy(scales + 2 * i, block + i * row_bytes, 2);
  }
}

}  // namespace tcpu::q4
