// The packed formats of grouped-scale weights (16-row tiles, groups of 32 along k, an fp16
// scale per group and row, one 64-byte header): what their layouts and checks have in common.
// A format (tcpu/gemv_q8.h's block-Q8) names its magic, version and the bytes of one tile
// group; everything else here is the same for every such format.
//
// Layout (byte offsets from the start of the packed buffer):
//   [0, 64)  header: GroupedHeader (magic, version, n, k, groups, tiles), zero-filled
//   [64, ..) tiles; tile t, group g at 64 + (t * groups + g) * tile_group_bytes
#ifndef TCPU_KERNELS_GROUPED_GROUPED_FORMAT_H_
#define TCPU_KERNELS_GROUPED_GROUPED_FORMAT_H_

#include <cstdint>

namespace tcpu::grouped {

inline constexpr int64_t kHeaderBytes = 64;
inline constexpr int64_t kGroup = 32;       // k per group
inline constexpr int64_t kTileRows = 16;    // rows per tile
inline constexpr int64_t kScaleBytes = 32;  // a tile group's 16 fp16 scales

struct GroupedHeader {
  uint64_t magic;
  uint32_t version;
  uint32_t header_bytes;
  int64_t n;
  int64_t k;
  int64_t groups;
  int64_t tiles;
  uint8_t reserved[16];
};
static_assert(sizeof(GroupedHeader) == kHeaderBytes, "header is 64 bytes");

// One packed format: `what` names it in errors ("block-Q8"), `packer` the function that
// writes it ("tcpu_pack_q8").
struct Format {
  const char* what;
  const char* packer;
  uint64_t magic;
  uint32_t version;
  int64_t tile_group_bytes;
};

struct Layout {
  int64_t n = 0;
  int64_t k = 0;
  int64_t groups = 0;  // k / 32 rounded up
  int64_t tiles = 0;   // n / 16 rounded up
  int64_t tile_group_bytes = 0;
  int64_t total_bytes = 0;  // header + data
};

// A validated packed matrix.
struct View {
  Layout layout;
  const uint8_t* data = nullptr;  // first byte after the header

  // Tile t's stream: groups * tile_group_bytes bytes.
  const uint8_t* Tile(int64_t t) const {
    return data + t * layout.groups * layout.tile_group_bytes;
  }
};

// The layout for n, k > 0, or TCPU_ERR_INVALID_SIZE / TCPU_ERR_SIZE_OVERFLOW naming `fn`.
int ComputeLayout(const char* fn, const Format& format, int64_t n, int64_t k, Layout* layout);

// Checks that `packed` holds a matrix of `format` packed for exactly this n and k. Argument
// errors as ComputeLayout (checked before `packed` is read); NULL `packed` is
// TCPU_ERR_NULL_POINTER; another magic, version or shape is TCPU_ERR_INVALID_ARGUMENT with both
// in the detail.
int ViewPacked(const char* fn, const Format& format, const void* packed, int64_t n, int64_t k,
               View* view);

// Whether `packed` (non-NULL, at least 8 readable bytes) starts with the format's magic.
bool HasMagic(const Format& format, const void* packed);

// TCPU_ERR_BUFFER_TOO_SMALL unless packed_bytes >= layout.total_bytes.
int CheckBufferSize(const char* fn, int64_t packed_bytes, const Layout& layout);

// tcpu_check_*_packed: exactly layout.total_bytes (before the header is read), then the header.
int CheckWhole(const char* fn, const Format& format, const void* packed, int64_t packed_bytes,
               int64_t n, int64_t k);

// The header of a packed matrix of `layout`.
GroupedHeader MakeHeader(const Format& format, const Layout& layout);

// Whether fp16 bits are infinite or NaN.
inline bool IsFp16NonFinite(uint16_t bits) { return (bits & 0x7c00) == 0x7c00; }

}  // namespace tcpu::grouped

#endif  // TCPU_KERNELS_GROUPED_GROUPED_FORMAT_H_
