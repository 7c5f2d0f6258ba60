// The packed int8 weight format of tcpu/gemv.h, as the kernels read it.
//
// Layout (all offsets in bytes from the start of the packed buffer):
//   [0, 64)   header: PackedWeightsHeader (magic, version, n, k, padded sizes), zero-filled
//   [64, ..)  data: block b (rows 4b..4b+3), chunk c (k bytes 8c..8c+7) at
//             64 + (b * chunks + c) * 32, holding w[4b+r][8c..8c+7] at + 8r.
// Padding rows (>= n) and padding k bytes (>= k) are zero, so a kernel may run whole blocks
// and whole chunks and only has to guard what it reads of x and writes of y.
#ifndef TCPU_KERNELS_PACK_PACKED_WEIGHTS_H_
#define TCPU_KERNELS_PACK_PACKED_WEIGHTS_H_

#include <cstdint>

#include "tcpu/gemv.h"

namespace tcpu {

inline constexpr int64_t kPackedHeaderBytes = 64;
inline constexpr int64_t kPackRows = TCPU_PACK_NR;                 // rows per block
inline constexpr int64_t kPackBytes = TCPU_PACK_KR;                // k bytes per chunk
inline constexpr int64_t kPackTileBytes = kPackRows * kPackBytes;  // one (block, chunk)
// "TCPUW8P\0" little-endian: a buffer that was never packed fails validation.
inline constexpr uint64_t kPackedMagic = 0x0050385755504354ull;
inline constexpr uint32_t kPackedVersion = TCPU_PACKED_WEIGHTS_VERSION;

// The header as stored (little-endian, 64 bytes; the rest is zero).
struct PackedWeightsHeader {
  uint64_t magic;
  uint32_t version;
  uint32_t header_bytes;
  int64_t n;
  int64_t k;
  int64_t n_padded;
  int64_t k_padded;
  uint8_t reserved[16];
};
static_assert(sizeof(PackedWeightsHeader) == kPackedHeaderBytes, "header is 64 bytes");

// Sizes derived from n and k.
struct PackedWeightsLayout {
  int64_t n = 0;
  int64_t k = 0;
  int64_t n_padded = 0;     // n rounded up to kPackRows
  int64_t k_padded = 0;     // k rounded up to kPackBytes
  int64_t blocks = 0;       // n_padded / kPackRows
  int64_t chunks = 0;       // k_padded / kPackBytes
  int64_t total_bytes = 0;  // header + data
};

// A validated packed matrix.
struct PackedWeightsView {
  PackedWeightsLayout layout;
  const int8_t* data = nullptr;  // first byte after the header

  // The contiguous chunks * 32 bytes of block b.
  const int8_t* Block(int64_t b) const { return data + b * layout.chunks * kPackTileBytes; }
};

// Computes the layout for n, k > 0. Returns TCPU_OK, or TCPU_ERR_INVALID_SIZE /
// TCPU_ERR_SIZE_OVERFLOW with a detail naming `fn` (tcpu_last_error_detail).
int ComputePackedLayout(const char* fn, int64_t n, int64_t k, PackedWeightsLayout* layout);

// Checks that `packed` holds a matrix packed for exactly this n and k and fills *view.
// Argument errors as ComputePackedLayout (checked first, before `packed` is read); a NULL
// `packed` is TCPU_ERR_NULL_POINTER; a bad magic/version or a header for another n or k is
// TCPU_ERR_INVALID_ARGUMENT with both shapes in the detail.
int ViewPackedWeights(const char* fn, const void* packed, int64_t n, int64_t k,
                      PackedWeightsView* view);

}  // namespace tcpu

#endif  // TCPU_KERNELS_PACK_PACKED_WEIGHTS_H_
