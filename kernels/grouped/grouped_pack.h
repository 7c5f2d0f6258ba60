// Packing a grouped format's tiles on the thread pool (grouped_format.h), header last.
#ifndef TCPU_KERNELS_GROUPED_GROUPED_PACK_H_
#define TCPU_KERNELS_GROUPED_GROUPED_PACK_H_

#include <cstdint>
#include <cstring>

#include "kernels/grouped/grouped_format.h"
#include "runtime/check.h"
#include "runtime/thread_pool.h"

namespace tcpu::grouped {

// Runs pack_tile(t, out) for every tile into `packed` on the thread pool; the header goes in
// last, so a buffer whose packing failed never validates.
template <typename PackTileFn>
int PackTiles(const Format& format, const Layout& layout, void* packed, PackTileFn&& pack_tile) {
  const GroupedHeader header = MakeHeader(format, layout);
  std::memset(packed, 0, sizeof(header));
  uint8_t* data = static_cast<uint8_t*>(packed) + kHeaderBytes;
  const int64_t tile_bytes = layout.groups * layout.tile_group_bytes;
  const int64_t grain = tile_bytes >= (int64_t{1} << 16) ? 1 : (int64_t{1} << 16) / tile_bytes;
  const int status = ParallelFor(layout.tiles, grain, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) pack_tile(t, data + t * tile_bytes);
  });
  if (status != TCPU_OK) return status;
  std::memcpy(packed, &header, sizeof(header));
  return Succeed();
}

}  // namespace tcpu::grouped

#endif  // TCPU_KERNELS_GROUPED_GROUPED_PACK_H_
