#include "kernels/grouped/grouped_format.h"

#include <cstring>
#include <limits>

#include "runtime/check.h"

namespace tcpu::grouped {

int ComputeLayout(const char* fn, const Format& format, int64_t n, int64_t k, Layout* layout) {
  TCPU_CHECK_POSITIVE(fn, n);
  TCPU_CHECK_POSITIVE(fn, k);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t tiles = n / kTileRows + (n % kTileRows != 0 ? 1 : 0);
  const int64_t groups = k / kGroup + (k % kGroup != 0 ? 1 : 0);
  int64_t data_bytes = 0;
  if (!CheckedMul(tiles, groups, &data_bytes) ||
      !CheckedMul(data_bytes, format.tile_group_bytes, &data_bytes) ||
      data_bytes > kMax - kHeaderBytes) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: %s packed size of n = %lld, k = %lld overflows int64",
                fn, format.what, static_cast<long long>(n), static_cast<long long>(k));
  }
  layout->n = n;
  layout->k = k;
  layout->groups = groups;
  layout->tiles = tiles;
  layout->tile_group_bytes = format.tile_group_bytes;
  layout->total_bytes = kHeaderBytes + data_bytes;
  return TCPU_OK;
}

int ViewPacked(const char* fn, const Format& format, const void* packed, int64_t n, int64_t k,
               View* view) {
  Layout layout;
  if (const int status = ComputeLayout(fn, format, n, k, &layout); status != TCPU_OK) {
    return status;
  }
  if (packed == nullptr) return Fail(TCPU_ERR_NULL_POINTER, "%s: packed_w is NULL", fn);
  GroupedHeader header;
  std::memcpy(&header, packed, sizeof(header));  // The buffer need not be aligned.
  if (header.magic != format.magic || header.version != format.version ||
      header.header_bytes != kHeaderBytes) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: packed_w is not a %s buffer (magic 0x%016llx, version %u;"
                " expected 0x%016llx, version %u)",
                fn, format.packer, static_cast<unsigned long long>(header.magic), header.version,
                static_cast<unsigned long long>(format.magic), format.version);
  }
  if (header.n != n || header.k != k || header.groups != layout.groups ||
      header.tiles != layout.tiles) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: packed_w holds n = %lld, k = %lld but the call has n = %lld, k = %lld", fn,
                static_cast<long long>(header.n), static_cast<long long>(header.k),
                static_cast<long long>(n), static_cast<long long>(k));
  }
  view->layout = layout;
  view->data = static_cast<const uint8_t*>(packed) + kHeaderBytes;
  return TCPU_OK;
}

bool HasMagic(const Format& format, const void* packed) {
  uint64_t magic = 0;
  std::memcpy(&magic, packed, sizeof(magic));
  return magic == format.magic;
}

int CheckBufferSize(const char* fn, int64_t packed_bytes, const Layout& layout) {
  if (packed_bytes < layout.total_bytes) {
    return Fail(TCPU_ERR_BUFFER_TOO_SMALL,
                "%s: packed_bytes = %lld, expected >= %lld for n = %lld, k = %lld", fn,
                static_cast<long long>(packed_bytes), static_cast<long long>(layout.total_bytes),
                static_cast<long long>(layout.n), static_cast<long long>(layout.k));
  }
  return TCPU_OK;
}

int CheckWhole(const char* fn, const Format& format, const void* packed, int64_t packed_bytes,
               int64_t n, int64_t k) {
  Layout layout;
  if (const int status = ComputeLayout(fn, format, n, k, &layout); status != TCPU_OK) {
    return status;
  }
  if (packed_bytes != layout.total_bytes) {  // before the header is read: it may not be there
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %lld bytes, expected %lld for n = %lld, k = %lld",
                fn, static_cast<long long>(packed_bytes),
                static_cast<long long>(layout.total_bytes), static_cast<long long>(n),
                static_cast<long long>(k));
  }
  View view;
  if (const int status = ViewPacked(fn, format, packed, n, k, &view); status != TCPU_OK) {
    return status;
  }
  return Succeed();
}

GroupedHeader MakeHeader(const Format& format, const Layout& layout) {
  GroupedHeader header = {};
  header.magic = format.magic;
  header.version = format.version;
  header.header_bytes = kHeaderBytes;
  header.n = layout.n;
  header.k = layout.k;
  header.groups = layout.groups;
  header.tiles = layout.tiles;
  return header;
}

}  // namespace tcpu::grouped
