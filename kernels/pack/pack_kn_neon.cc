// PackKnNeon (pack_kernels.h): k-major weights packed 16 columns x 8 k at a time. Eight rows
// of w (k .. k+7, 16 columns each) become the four blocks' 32-byte tiles of that chunk in three
// ZIP stages: bytes (k pairs per column), halfwords (k quads), words (k octets), which leaves
// columns 2j and 2j+1 in register j, the order a tile stores them. clang 19 makes the loop 49
// instructions per 128 bytes (0.38 a byte): 8 loads, 21 ZIPs, the last stage's other 3 folded
// into ST2s, 8 stores, the rest addresses and the loop.
#include <arm_neon.h>

#include "kernels/pack/pack_kernels.h"

namespace tcpu::pack {
namespace {

constexpr int64_t kGroupBlocks = 4;                      // blocks per 16-column group
constexpr int64_t kGroupColumns = kGroupBlocks * kPackRows;

// One group (4 blocks, 16 columns from `src`) over its full chunks: rows[e] = w[8c + e][16
// columns] go to the chunk's tile of each block, written through one pointer per block.
void PackGroupChunks(const int8_t* src, int64_t n, int64_t full_chunks, int8_t* tile0,
                     int64_t block_stride) {
  const int64_t n2 = 2 * n, n3 = 3 * n, step = kPackBytes * n;
  const int8_t* lo = src;
  const int8_t* hi = src + 4 * n;
  int8_t* dst[kGroupBlocks];
  for (int64_t q = 0; q < kGroupBlocks; ++q) dst[q] = tile0 + q * block_stride;
  for (int64_t c = 0; c < full_chunks; ++c, lo += step, hi += step) {
    const int8x16_t r0 = vld1q_s8(lo), r1 = vld1q_s8(lo + n), r2 = vld1q_s8(lo + n2),
                    r3 = vld1q_s8(lo + n3), r4 = vld1q_s8(hi), r5 = vld1q_s8(hi + n),
                    r6 = vld1q_s8(hi + n2), r7 = vld1q_s8(hi + n3);
    // Columns 0..7 and 8..15, k pairs 01, 23, 45, 67.
    const int16x8_t lo01 = vreinterpretq_s16_s8(vzip1q_s8(r0, r1));
    const int16x8_t hi01 = vreinterpretq_s16_s8(vzip2q_s8(r0, r1));
    const int16x8_t lo23 = vreinterpretq_s16_s8(vzip1q_s8(r2, r3));
    const int16x8_t hi23 = vreinterpretq_s16_s8(vzip2q_s8(r2, r3));
    const int16x8_t lo45 = vreinterpretq_s16_s8(vzip1q_s8(r4, r5));
    const int16x8_t hi45 = vreinterpretq_s16_s8(vzip2q_s8(r4, r5));
    const int16x8_t lo67 = vreinterpretq_s16_s8(vzip1q_s8(r6, r7));
    const int16x8_t hi67 = vreinterpretq_s16_s8(vzip2q_s8(r6, r7));
    // quad[q][h]: columns 4q..4q+3, k 4h..4h+3.
    const int32x4_t quad[kGroupBlocks][2] = {
        {vreinterpretq_s32_s16(vzip1q_s16(lo01, lo23)), vreinterpretq_s32_s16(vzip1q_s16(lo45, lo67))},
        {vreinterpretq_s32_s16(vzip2q_s16(lo01, lo23)), vreinterpretq_s32_s16(vzip2q_s16(lo45, lo67))},
        {vreinterpretq_s32_s16(vzip1q_s16(hi01, hi23)), vreinterpretq_s32_s16(vzip1q_s16(hi45, hi67))},
        {vreinterpretq_s32_s16(vzip2q_s16(hi01, hi23)), vreinterpretq_s32_s16(vzip2q_s16(hi45, hi67))},
    };
    for (int64_t q = 0; q < kGroupBlocks; ++q) {  // columns 4q, 4q+1, then 4q+2, 4q+3
      vst1q_s8(dst[q], vreinterpretq_s8_s32(vzip1q_s32(quad[q][0], quad[q][1])));
      vst1q_s8(dst[q] + 16, vreinterpretq_s8_s32(vzip2q_s32(quad[q][0], quad[q][1])));
      dst[q] += kPackTileBytes;
    }
  }
}

}  // namespace

void PackKnNeon(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
                int64_t end) {
  const int64_t n = layout.n;
  const int64_t full_chunks = layout.k / kPackBytes;
  const int64_t block_stride = layout.chunks * kPackTileBytes;
  int64_t b = begin;
  // Groups of four blocks whose 16 columns all exist; their k tail and every other block go
  // through the reference.
  for (; b + kGroupBlocks <= end && (b + kGroupBlocks) * kPackRows <= n; b += kGroupBlocks) {
    const int8_t* src = w + b * kPackRows;
    int8_t* tile = data + b * block_stride;
    PackGroupChunks(src, n, full_chunks, tile, block_stride);
    if (full_chunks != layout.chunks) {  // the k tail: zero past k
      for (int64_t q = 0; q < kGroupBlocks; ++q) {
        int8_t* dst = tile + q * block_stride + full_chunks * kPackTileBytes;
        for (int64_t r = 0; r < kPackRows; ++r) {
          for (int64_t e = 0; e < kPackBytes; ++e) {
            const int64_t kk = full_chunks * kPackBytes + e;
            *dst++ = kk < layout.k ? src[kk * n + q * kPackRows + r] : 0;
          }
        }
      }
    }
  }
  static_assert(kGroupColumns == 16, "a group is one 16-byte row of w");
  PackKnRef(w, layout, data, b, end);
}

}  // namespace tcpu::pack
