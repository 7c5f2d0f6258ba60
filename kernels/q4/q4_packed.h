// The packed int4 format of tcpu/gemv_q4.h, as the kernels read it.
//
// Layout (byte offsets from the start of the packed buffer):
//   [0, 64)  header: Q4PackedHeader (magic, version, n, k, groups, tiles), zero-filled
//   [64, ..) tiles of 16 rows; tile t, group g at 64 + (t * groups + g) * 288:
//            4 units of 64 bytes, then the 16 rows' fp16 scales (32 bytes).
// Unit u holds 4 row quads of 16 bytes: row quad q at + 16q, and there byte 4r + e holds row
// 16t + 4q + r's q at k = 32g + 4u + e in the low nibble and at k = 32g + 16 + 4u + e in the
// high nibble. Rows past n and k past the end are zero (weights and scales), so kernels run
// whole tiles and groups and only guard what they store of y.
//
// Why this order: a tile's groups are one contiguous stream (a NEON kernel reads it with
// post-incremented 64-byte loads and no address arithmetic); a 16-byte row quad of a unit is a
// [4 rows x 4 k] tile for SDOT by element against one quad of x (low nibbles) and another
// (high nibbles), so each 32-bit lane accumulates one row and the per-group fp32 step needs no
// reduction across lanes, for NEON and for SVE vectors of 128, 256 or 512 bits (1, 2 or 4 row
// quads at the same k; x is one replicated quadword, LD1RQB).
#ifndef TCPU_KERNELS_Q4_Q4_PACKED_H_
#define TCPU_KERNELS_Q4_Q4_PACKED_H_

#include <cstdint>

#include "tcpu/gemv_q4.h"

namespace tcpu::q4 {

inline constexpr int64_t kHeaderBytes = 64;
inline constexpr int64_t kGroup = TCPU_Q4_GROUP;  // k per group
inline constexpr int64_t kTileRows = 16;          // rows per tile
inline constexpr int64_t kQuadRows = 4;           // rows per row quad (one SDOT lane each)
inline constexpr int64_t kUnits = 4;              // units per tile and group
inline constexpr int64_t kUnitBytes = 64;         // one unit: 16 rows x 8 k nibbles
inline constexpr int64_t kScaleBytes = 32;        // 16 fp16 scales
inline constexpr int64_t kTileGroupBytes = kUnits * kUnitBytes + kScaleBytes;  // 288
inline constexpr int64_t kQ4_0BlockBytes = 18;  // GGUF Q4_0: fp16 d + 16 bytes of nibbles
// "TCPUQ4P\0" little-endian: a buffer that was never packed fails validation.
inline constexpr uint64_t kMagic = 0x0050345155504354ull;
inline constexpr uint32_t kVersion = TCPU_Q4_PACKED_VERSION;

struct Q4PackedHeader {
  uint64_t magic;
  uint32_t version;
  uint32_t header_bytes;
  int64_t n;
  int64_t k;
  int64_t groups;
  int64_t tiles;
  uint8_t reserved[16];
};
static_assert(sizeof(Q4PackedHeader) == kHeaderBytes, "header is 64 bytes");

struct Q4Layout {
  int64_t n = 0;
  int64_t k = 0;
  int64_t groups = 0;       // k / 32 rounded up
  int64_t tiles = 0;        // n / 16 rounded up
  int64_t total_bytes = 0;  // header + data
};

struct Q4View {
  Q4Layout layout;
  const uint8_t* data = nullptr;  // first byte after the header

  // Tile t's stream: groups * 288 bytes.
  const uint8_t* Tile(int64_t t) const { return data + t * layout.groups * kTileGroupBytes; }
};

// The layout for n, k > 0, or TCPU_ERR_INVALID_SIZE / TCPU_ERR_SIZE_OVERFLOW naming `fn`.
int ComputeQ4Layout(const char* fn, int64_t n, int64_t k, Q4Layout* layout);

// Checks that `packed` holds a matrix packed by tcpu_pack_q4 for exactly this n and k.
// Argument errors as ComputeQ4Layout (checked before `packed` is read); NULL `packed` is
// TCPU_ERR_NULL_POINTER; another magic/version or shape is TCPU_ERR_INVALID_ARGUMENT with
// both shapes in the detail.
int ViewQ4(const char* fn, const void* packed, int64_t n, int64_t k, Q4View* view);

// Whether `packed` (non-NULL, at least 8 readable bytes, as every packed header) starts with
// this format's magic: how a linear layer tells an int4 matrix from an int8 one.
bool IsQ4Packed(const void* packed);

}  // namespace tcpu::q4

#endif  // TCPU_KERNELS_Q4_Q4_PACKED_H_
