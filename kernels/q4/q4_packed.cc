#include "kernels/q4/q4_packed.h"

#include <cstring>
#include <limits>

#include "runtime/check.h"

namespace tcpu::q4 {

int ComputeQ4Layout(const char* fn, int64_t n, int64_t k, Q4Layout* layout) {
  TCPU_CHECK_POSITIVE(fn, n);
  TCPU_CHECK_POSITIVE(fn, k);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t tiles = n / kTileRows + (n % kTileRows != 0 ? 1 : 0);
  const int64_t groups = k / kGroup + (k % kGroup != 0 ? 1 : 0);
  int64_t data_bytes = 0;
  if (!CheckedMul(tiles, groups, &data_bytes) ||
      !CheckedMul(data_bytes, kTileGroupBytes, &data_bytes) || data_bytes > kMax - kHeaderBytes) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW,
                "%s: int4 packed size of n = %lld, k = %lld overflows int64", fn,
                static_cast<long long>(n), static_cast<long long>(k));
  }
  layout->n = n;
  layout->k = k;
  layout->groups = groups;
  layout->tiles = tiles;
  layout->total_bytes = kHeaderBytes + data_bytes;
  return TCPU_OK;
}

int ViewQ4(const char* fn, const void* packed, int64_t n, int64_t k, Q4View* view) {
  Q4Layout layout;
  if (const int status = ComputeQ4Layout(fn, n, k, &layout); status != TCPU_OK) return status;
  if (packed == nullptr) return Fail(TCPU_ERR_NULL_POINTER, "%s: packed_w is NULL", fn);
  Q4PackedHeader header;
  std::memcpy(&header, packed, sizeof(header));  // The buffer need not be aligned.
  if (header.magic != kMagic || header.version != kVersion || header.header_bytes != kHeaderBytes) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: packed_w is not a tcpu_pack_q4 buffer (magic 0x%016llx, version %u;"
                " expected 0x%016llx, version %u)",
                fn, static_cast<unsigned long long>(header.magic), header.version,
                static_cast<unsigned long long>(kMagic), kVersion);
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

bool IsQ4Packed(const void* packed) {
  uint64_t magic = 0;
  std::memcpy(&magic, packed, sizeof(magic));
  return magic == kMagic;
}

}  // namespace tcpu::q4
