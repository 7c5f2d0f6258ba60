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

constexpr int64_t kGroupBlocks = 4;  // blocks per group: 16 columns, one q register of a row

// The ZIP stages: byte pairs of two rows become halfwords, halfword pairs words.
inline int16x8_t ZipBytesLo(int8x16_t a, int8x16_t b) {
  return vreinterpretq_s16_s8(vzip1q_s8(a, b));
}
inline int16x8_t ZipBytesHi(int8x16_t a, int8x16_t b) {
  return vreinterpretq_s16_s8(vzip2q_s8(a, b));
}
inline int32x4_t ZipHalvesLo(int16x8_t a, int16x8_t b) {
  return vreinterpretq_s32_s16(vzip1q_s16(a, b));
}
inline int32x4_t ZipHalvesHi(int16x8_t a, int16x8_t b) {
  return vreinterpretq_s32_s16(vzip2q_s16(a, b));
}

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
    // Columns 0..7 (lo) and 8..15 (hi), k pairs 01, 23, 45, 67.
    const int16x8_t lo01 = ZipBytesLo(r0, r1), hi01 = ZipBytesHi(r0, r1);
    const int16x8_t lo23 = ZipBytesLo(r2, r3), hi23 = ZipBytesHi(r2, r3);
    const int16x8_t lo45 = ZipBytesLo(r4, r5), hi45 = ZipBytesHi(r4, r5);
    const int16x8_t lo67 = ZipBytesLo(r6, r7), hi67 = ZipBytesHi(r6, r7);
    // quad[q][h]: columns 4q..4q+3, k 4h..4h+3.
    const int32x4_t quad[kGroupBlocks][2] = {
        {ZipHalvesLo(lo01, lo23), ZipHalvesLo(lo45, lo67)},
        {ZipHalvesHi(lo01, lo23), ZipHalvesHi(lo45, lo67)},
        {ZipHalvesLo(hi01, hi23), ZipHalvesLo(hi45, hi67)},
        {ZipHalvesHi(hi01, hi23), ZipHalvesHi(hi45, hi67)},
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
        PackKnTile(w, layout, b + q, full_chunks,
                   tile + q * block_stride + full_chunks * kPackTileBytes);
      }
    }
  }
  PackKnRef(w, layout, data, b, end);
}

}  // namespace tcpu::pack
