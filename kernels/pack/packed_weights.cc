#include "kernels/pack/packed_weights.h"

#include <cstring>
#include <limits>

#include "runtime/check.h"

namespace tcpu {

int ComputePackedLayout(const char* fn, int64_t n, int64_t k, PackedWeightsLayout* layout) {
  TCPU_CHECK_POSITIVE(fn, n);
  TCPU_CHECK_POSITIVE(fn, k);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  // Padding, the product and the header must all fit int64.
  int64_t data_bytes = 0;
  if (n > kMax - (kPackRows - 1) || k > kMax - (kPackBytes - 1) ||
      !CheckedMul((n + kPackRows - 1) / kPackRows * kPackRows,
                  (k + kPackBytes - 1) / kPackBytes * kPackBytes, &data_bytes) ||
      data_bytes > kMax - kPackedHeaderBytes) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW,
                "%s: packed size of n = %lld, k = %lld (padded to %d x %d) overflows int64", fn,
                static_cast<long long>(n), static_cast<long long>(k), TCPU_PACK_NR, TCPU_PACK_KR);
  }
  layout->n = n;
  layout->k = k;
  layout->n_padded = (n + kPackRows - 1) / kPackRows * kPackRows;
  layout->k_padded = (k + kPackBytes - 1) / kPackBytes * kPackBytes;
  layout->blocks = layout->n_padded / kPackRows;
  layout->chunks = layout->k_padded / kPackBytes;
  layout->total_bytes = kPackedHeaderBytes + data_bytes;
  return TCPU_OK;
}

int ViewPackedWeights(const char* fn, const void* packed, int64_t n, int64_t k,
                      PackedWeightsView* view) {
  PackedWeightsLayout layout;
  if (const int status = ComputePackedLayout(fn, n, k, &layout); status != TCPU_OK) {
    return status;
  }
  if (packed == nullptr) return Fail(TCPU_ERR_NULL_POINTER, "%s: packed_w is NULL", fn);
  PackedWeightsHeader header;
  std::memcpy(&header, packed, sizeof(header));  // The buffer need not be aligned.
  if (header.magic != kPackedMagic || header.version != kPackedVersion ||
      header.header_bytes != kPackedHeaderBytes) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: packed_w is not a tcpu_pack_weights_i8 buffer (magic 0x%016llx, version %u;"
                " expected 0x%016llx, version %u)",
                fn, static_cast<unsigned long long>(header.magic), header.version,
                static_cast<unsigned long long>(kPackedMagic), kPackedVersion);
  }
  if (header.n != n || header.k != k || header.n_padded != layout.n_padded ||
      header.k_padded != layout.k_padded) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: packed_w holds n = %lld, k = %lld but the call has n = %lld, k = %lld", fn,
                static_cast<long long>(header.n), static_cast<long long>(header.k),
                static_cast<long long>(n), static_cast<long long>(k));
  }
  view->layout = layout;
  view->data = static_cast<const int8_t*>(packed) + kPackedHeaderBytes;
  return TCPU_OK;
}

}  // namespace tcpu
