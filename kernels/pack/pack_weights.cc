// tcpu_packed_weights_size and tcpu_pack_weights_i8: one portable implementation (packing is
// a copy bound by memory bandwidth; 8-byte moves already saturate it), split over row
// blocks on the thread pool.
#include <cstring>

#include "kernels/pack/packed_weights.h"
#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/thread_pool.h"
#include "tcpu/gemv.h"

namespace tcpu {
namespace {

// Each thread packs at least this many bytes: below that, waking workers costs more.
constexpr int64_t kMinBytesPerTask = int64_t{1} << 18;

// Packs blocks [begin, end): 4 source rows are read as sequential streams, the destination
// is written sequentially, 8 bytes per move.
void PackBlocks(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
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

using PackFn = void (*)(const int8_t*, const PackedWeightsLayout&, int8_t*, int64_t, int64_t);

constexpr KernelVariant<PackFn> kPackVariants[] = {
    {"pack_weights_i8:ref", 0, PackBlocks},
};

const KernelVariant<PackFn>& PackVariant() {
  static const KernelVariant<PackFn>& variant = SelectVariant(kPackVariants);
  return variant;
}

}  // namespace

const char* PackWeightsI8Variant() { return PackVariant().name; }

}  // namespace tcpu

extern "C" int64_t tcpu_packed_weights_size(int64_t n, int64_t k) {
  tcpu::PackedWeightsLayout layout;
  const int status = tcpu::ComputePackedLayout("tcpu_packed_weights_size", n, k, &layout);
  if (status != TCPU_OK) return status;
  tcpu::Succeed();
  return layout.total_bytes;
}

extern "C" int tcpu_check_packed_weights(const void* packed, int64_t packed_bytes, int64_t n,
                                         int64_t k) {
  constexpr const char* kFn = "tcpu_check_packed_weights";
  tcpu::PackedWeightsLayout layout;
  if (const int status = tcpu::ComputePackedLayout(kFn, n, k, &layout); status != TCPU_OK) {
    return status;
  }
  if (packed_bytes != layout.total_bytes) {  // before the header is read: it may not be there
    return tcpu::Fail(
        TCPU_ERR_INVALID_ARGUMENT, "%s: %lld bytes, expected %lld for n = %lld, k = %lld", kFn,
        static_cast<long long>(packed_bytes), static_cast<long long>(layout.total_bytes),
        static_cast<long long>(n), static_cast<long long>(k));
  }
  tcpu::PackedWeightsView view;
  if (const int status = tcpu::ViewPackedWeights(kFn, packed, n, k, &view); status != TCPU_OK) {
    return status;
  }
  return tcpu::Succeed();
}

extern "C" int tcpu_pack_weights_i8(const int8_t* w, int64_t n, int64_t k, void* packed,
                                    int64_t packed_bytes) {
  constexpr const char* kFn = "tcpu_pack_weights_i8";
  TCPU_CHECK_NOT_NULL(kFn, w);
  TCPU_CHECK_NOT_NULL(kFn, packed);
  tcpu::PackedWeightsLayout layout;
  if (const int status = tcpu::ComputePackedLayout(kFn, n, k, &layout); status != TCPU_OK) {
    return status;
  }
  if (packed_bytes < layout.total_bytes) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL,
                      "%s: packed_bytes = %lld, expected >= %lld for n = %lld, k = %lld", kFn,
                      static_cast<long long>(packed_bytes),
                      static_cast<long long>(layout.total_bytes), static_cast<long long>(n),
                      static_cast<long long>(k));
  }

  tcpu::PackedWeightsHeader header = {};
  header.magic = tcpu::kPackedMagic;
  header.version = tcpu::kPackedVersion;
  header.header_bytes = tcpu::kPackedHeaderBytes;
  header.n = n;
  header.k = k;
  header.n_padded = layout.n_padded;
  header.k_padded = layout.k_padded;

  // Invalidate the header while the data is rewritten; the real one goes in last, so a
  // buffer whose packing failed never validates.
  std::memset(packed, 0, sizeof(header));
  int8_t* data = static_cast<int8_t*>(packed) + tcpu::kPackedHeaderBytes;
  const int64_t block_bytes = layout.chunks * tcpu::kPackTileBytes;
  const int64_t grain =
      block_bytes >= tcpu::kMinBytesPerTask ? 1 : tcpu::kMinBytesPerTask / block_bytes;
  const auto pack = tcpu::PackVariant().fn;
  const int status = tcpu::ParallelFor(
      layout.blocks, grain, [&](int64_t begin, int64_t end) { pack(w, layout, data, begin, end); });
  if (status != TCPU_OK) return status;
  std::memcpy(packed, &header, sizeof(header));
  return tcpu::Succeed();
}
