// The packed block-Q8 format of tcpu/gemv_q8.h, as the kernels read it (the header, layout and
// checks are grouped_format.h's).
//
// Tile t, group g at 64 + (t * groups + g) * 544: 8 units of 64 bytes, then the 16 rows' fp16
// scales (32 bytes). Unit u holds 4 row quads of 16 bytes: row quad q at + 16q, and there byte
// 4r + e holds row 16t + 4q + r's q at k = 32g + 4u + e. Rows past n and k past the end are
// zero (weights and scales), so kernels run whole tiles and groups and only guard what they
// store of y.
//
// Why this order: it is the int4 format's (kernels/q4/q4_packed.h) with the two nibbles of a
// byte in units u and u + 4: a tile's groups are one contiguous stream read by post-incremented
// 64-byte loads, and a 16-byte row quad of a unit is a [4 rows x 4 k] tile for SDOT by element
// against one quad of x, so each 32-bit lane accumulates one row and the per-group fp32 step
// needs no reduction across lanes; two units side by side ZIP into SMMLA's [2 rows x 8 k].
#ifndef TCPU_KERNELS_Q8_Q8_PACKED_H_
#define TCPU_KERNELS_Q8_Q8_PACKED_H_

#include <cstdint>

#include "kernels/grouped/grouped_format.h"
#include "tcpu/gemv_q8.h"

namespace tcpu::q8 {

using grouped::kGroup;
using grouped::kHeaderBytes;
using grouped::kScaleBytes;
using grouped::kTileRows;
inline constexpr int64_t kUnits = 8;       // units per tile and group: k quads
inline constexpr int64_t kUnitBytes = 64;  // one unit: 16 rows x 4 k
inline constexpr int64_t kTileGroupBytes = kUnits * kUnitBytes + kScaleBytes;  // 544
inline constexpr int64_t kQ8_0BlockBytes = 34;  // GGUF Q8_0: fp16 d + 32 int8

// "TCPUQ8P\0" little-endian: a buffer that was never packed fails validation.
inline constexpr grouped::Format kFormat = {"block-Q8", "tcpu_pack_q8", 0x0050385155504354ull,
                                            TCPU_Q8_PACKED_VERSION, kTileGroupBytes};

using Q8Layout = grouped::Layout;
using Q8View = grouped::View;

inline int ComputeQ8Layout(const char* fn, int64_t n, int64_t k, Q8Layout* layout) {
  return grouped::ComputeLayout(fn, kFormat, n, k, layout);
}

// Checks that `packed` holds a matrix packed by tcpu_pack_q8 for exactly this n and k
// (grouped::ViewPacked's errors).
inline int ViewQ8(const char* fn, const void* packed, int64_t n, int64_t k, Q8View* view) {
  return grouped::ViewPacked(fn, kFormat, packed, n, k, view);
}

// Whether `packed` (non-NULL, at least 8 readable bytes) is a block-Q8 matrix: how a linear
// layer tells it from an int8 or int4 one.
inline bool IsQ8Packed(const void* packed) { return grouped::HasMagic(kFormat, packed); }

}  // namespace tcpu::q8

#endif  // TCPU_KERNELS_Q8_Q8_PACKED_H_
