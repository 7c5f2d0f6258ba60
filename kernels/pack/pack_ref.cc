// The portable packing kernels (pack_kernels.h).
#include <cstring>

#include "kernels/pack/pack_kernels.h"

namespace tcpu::pack {

// 4 source rows are read as sequential streams, the destination is written sequentially, 8
// bytes per move (packing is a copy bound by memory bandwidth; 8-byte moves saturate it).
void PackRowsRef(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
                 int64_t end) {
  const int64_t full_chunks = layout.k / kPackBytes;
  const int64_t tail_bytes = layout.k % kPackBytes;
  for (int64_t b = begin; b < end; ++b) {
    int8_t* dst = data + b * layout.chunks * kPackTileBytes;
    const int64_t rows =
        layout.n - b * kPackRows < kPackRows ? layout.n - b * kPackRows : kPackRows;
    const int8_t* src = w + b * kPackRows * layout.k;
    if (rows == kPackRows) {  // Every block but maybe the last: no per-row checks.
      const int8_t* r0 = src;
      const int8_t* r1 = r0 + layout.k;
      const int8_t* r2 = r1 + layout.k;
      const int8_t* r3 = r2 + layout.k;
      for (int64_t c = 0; c < full_chunks; ++c, dst += kPackTileBytes) {
        std::memcpy(dst, r0 + c * kPackBytes, kPackBytes);
        std::memcpy(dst + 8, r1 + c * kPackBytes, kPackBytes);
        std::memcpy(dst + 16, r2 + c * kPackBytes, kPackBytes);
        std::memcpy(dst + 24, r3 + c * kPackBytes, kPackBytes);
      }
    } else {  // Rows past n are zero.
      for (int64_t c = 0; c < full_chunks; ++c, dst += kPackTileBytes) {
        std::memset(dst, 0, kPackTileBytes);
        for (int64_t r = 0; r < rows; ++r) {
          std::memcpy(dst + r * kPackBytes, src + r * layout.k + c * kPackBytes, kPackBytes);
        }
      }
    }
    if (tail_bytes != 0) {  // The last chunk: zero past k.
      std::memset(dst, 0, kPackTileBytes);
      for (int64_t r = 0; r < rows; ++r) {
        std::memcpy(dst + r * kPackBytes, src + r * layout.k + full_chunks * kPackBytes,
                    static_cast<size_t>(tail_bytes));
      }
    }
  }
}

// Output row r of block b is column 4b + r of w.
void PackKnTile(const int8_t* w, const PackedWeightsLayout& layout, int64_t block, int64_t chunk,
                int8_t* tile) {
  for (int64_t r = 0; r < kPackRows; ++r) {
    const int64_t column = block * kPackRows + r;
    for (int64_t e = 0; e < kPackBytes; ++e) {
      const int64_t kk = chunk * kPackBytes + e;
      *tile++ = column < layout.n && kk < layout.k ? w[kk * layout.n + column] : 0;
    }
  }
}

// Each destination byte is written once, in order.
void PackKnRef(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
               int64_t end) {
  for (int64_t b = begin; b < end; ++b) {
    int8_t* dst = data + b * layout.chunks * kPackTileBytes;
    for (int64_t c = 0; c < layout.chunks; ++c, dst += kPackTileBytes) {
      PackKnTile(w, layout, b, c, dst);
    }
  }
}

}  // namespace tcpu::pack
