// The packed int4 format of tcpu/gemv_q4.h, as the kernels read it.
//
// Layout (byte offsets from the start of the packed buffer):
//   [0, 64)  header: Q4PackedHeader (magic, version, n, k, groups, tiles), zero-filled
//   [64, ..) tiles of 16 rows; tile t, group g at 64 + (t * groups + g) * 288:
//            4 units of 64 bytes, then the 16 rows' fp16 scales (32 bytes, row order).
// A byte holds a row pair at one k: tile row p's q (p = 0..7) in the high nibble, two's
// complement, and row p + 8's q + 8 in the low nibble. Unit u holds 4 slots of 16 bytes: slot s
// is a [4 pairs x 4 k] tile, pairs 4 * (s % 2) + j at byte 4j + e, k = 32g + 4u + e (s < 2) or
// 32g + 16 + 4u + e (s >= 2). Rows past n and k past the end are zero (q = 0, so a padded low
// nibble is 8; scales 0), so kernels run whole tiles and groups and only guard what they store.
//
// Why this order: as a signed byte, high nibble qa and low nibble qb + 8 read 16 * qa + qb + 8,
// so SDOT on the raw slot sums 16 * Da + Db + 8 * Sx per pair (D the pair's dot products, Sx
// the group's sum of x) and SDOT on the slot AND 0x0f sums Db + 8 * Sx: one unpack for 32
// nibbles where a nibble per row took two. Both accumulators start at -8 * Sx, so the second is
// Db and their difference 16 * Da, exact. A tile's groups are one contiguous stream (NEON reads
// it with post-incremented 64-byte loads); a slot is a [4 pairs x 4 k] SDOT operand against one
// x quad, the first two slots of a unit against quad u of k 0..15, the last two against quad u
// of k 16..31, so a 128-bit vector is one slot, a 256-bit one two slots at the same x quad, and
// each 32-bit lane accumulates one pair (SVE replicates x per quadword, LD1RQB).
#ifndef TCPU_KERNELS_Q4_Q4_PACKED_H_
#define TCPU_KERNELS_Q4_Q4_PACKED_H_

#include <cstdint>

#include "kernels/grouped/grouped_format.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::q4 {

using grouped::kHeaderBytes;
using grouped::kScaleBytes;                       // 16 fp16 scales
using grouped::kTileRows;                         // rows per tile
inline constexpr int64_t kGroup = TCPU_Q4_GROUP;  // k per group
static_assert(kGroup == grouped::kGroup, "int4 groups are the grouped formats' groups");
inline constexpr int64_t kPairs = 8;       // row pairs per tile: rows p and p + 8
inline constexpr int64_t kUnits = 4;       // units per tile and group
inline constexpr int64_t kUnitBytes = 64;  // one unit: 8 pairs x 8 k bytes
inline constexpr int64_t kSlotBytes = 16;  // one slot: 4 pairs x 4 k
inline constexpr int64_t kTileGroupBytes = kUnits * kUnitBytes + kScaleBytes;  // 288
inline constexpr int64_t kQ4_0BlockBytes = 18;  // GGUF Q4_0: fp16 d + 16 bytes of nibbles
// "TCPUQ4P\0" little-endian: a buffer that was never packed fails validation.
inline constexpr uint64_t kMagic = 0x0050345155504354ull;
inline constexpr uint32_t kVersion = TCPU_Q4_PACKED_VERSION;

// The int4 format among the grouped ones (kernels/grouped): its header, layout, views and the
// way its GEMVs split tiles are theirs.
inline constexpr grouped::Format kFormat = {"int4", "tcpu_pack_q4", kMagic, kVersion,
                                            kTileGroupBytes};
using Q4Layout = grouped::Layout;
using Q4View = grouped::View;

// The byte offset in a tile-group of row pair p's byte at k (0..31 in the group).
inline int64_t PairByte(int64_t p, int64_t k) {
  const int64_t u = (k % 16) / 4, slot = p / 4 + 2 * (k / 16);
  return u * kUnitBytes + slot * kSlotBytes + 4 * (p % 4) + k % 4;
}

// The byte of row pair (qa, qb) (q in -8..7): qa's nibble high, qb + 8 low.
inline uint8_t PairOf(int qa, int qb) { return static_cast<uint8_t>(((qa & 0xf) << 4) | (qb + 8)); }

// Tile row i's q (0..15) at k of the tile-group starting at `group`.
inline int QAt(const uint8_t* group, int64_t i, int64_t k) {
  const uint8_t byte = group[PairByte(i % kPairs, k)];
  return i < kPairs ? static_cast<int8_t>(byte) >> 4 : (byte & 0xf) - 8;
}

// The layout for n, k > 0, or TCPU_ERR_INVALID_SIZE / TCPU_ERR_SIZE_OVERFLOW naming `fn`.
inline int ComputeQ4Layout(const char* fn, int64_t n, int64_t k, Q4Layout* layout) {
  return grouped::ComputeLayout(fn, kFormat, n, k, layout);
}

// Checks that `packed` holds a matrix packed by tcpu_pack_q4 for exactly this n and k
// (grouped::ViewPacked).
inline int ViewQ4(const char* fn, const void* packed, int64_t n, int64_t k, Q4View* view) {
  return grouped::ViewPacked(fn, kFormat, packed, n, k, view);
}

// Whether `packed` (non-NULL, at least 8 readable bytes, as every packed header) starts with
// this format's magic: how a linear layer tells an int4 matrix from an int8 one.
inline bool IsQ4Packed(const void* packed) { return grouped::HasMagic(kFormat, packed); }

}  // namespace tcpu::q4

#endif  // TCPU_KERNELS_Q4_Q4_PACKED_H_
