// tcpu_packed_weights_size, tcpu_pack_weights_i8 and tcpu_pack_weights_i8_kn: argument checks,
// dispatch (pack_kernels.h) and the header; the blocks split over the thread pool.
#include <cstring>

#include "kernels/pack/pack_kernels.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/thread_pool.h"
#include "tcpu/gemv.h"

namespace tcpu {
namespace {

using pack::PackFn;

// Each thread packs at least this many bytes: below that, waking workers costs more.
constexpr int64_t kMinBytesPerTask = int64_t{1} << 18;

constexpr KernelVariant<PackFn> kPackRowsVariants[] = {
    {"pack_weights_i8:ref", 0, pack::PackRowsRef},
};

constexpr KernelVariant<PackFn> kPackKnVariants[] = {
#if defined(__aarch64__)
    {"pack_weights_i8_kn:neon", 0, pack::PackKnNeon},
#endif
    {"pack_weights_i8_kn:ref", 0, pack::PackKnRef},
};

const KernelVariant<PackFn>& PackRowsVariant() {
  static const KernelVariant<PackFn>& variant = SelectVariant(kPackRowsVariants);
  return variant;
}

const KernelVariant<PackFn>& PackKnVariant() {
  static const KernelVariant<PackFn>& variant = SelectVariant(kPackKnVariants);
  return variant;
}

// The entry points' shared part: argument checks, then `pack` over every block on the pool,
// the header written last so that a buffer whose packing failed never validates.
int PackWeights(const char* fn, PackFn pack, const int8_t* w, int64_t n, int64_t k, void* packed,
                int64_t packed_bytes) {
  TCPU_CHECK_NOT_NULL(fn, w);
  TCPU_CHECK_NOT_NULL(fn, packed);
  PackedWeightsLayout layout;
  if (const int status = ComputePackedLayout(fn, n, k, &layout); status != TCPU_OK) {
    return status;
  }
  if (packed_bytes < layout.total_bytes) {
    return Fail(TCPU_ERR_BUFFER_TOO_SMALL,
                "%s: packed_bytes = %lld, expected >= %lld for n = %lld, k = %lld", fn,
                static_cast<long long>(packed_bytes), static_cast<long long>(layout.total_bytes),
                static_cast<long long>(n), static_cast<long long>(k));
  }

  PackedWeightsHeader header = {};
  header.magic = kPackedMagic;
  header.version = kPackedVersion;
  header.header_bytes = kPackedHeaderBytes;
  header.n = n;
  header.k = k;
  header.n_padded = layout.n_padded;
  header.k_padded = layout.k_padded;

  std::memset(packed, 0, sizeof(header));
  int8_t* data = static_cast<int8_t*>(packed) + kPackedHeaderBytes;
  const int64_t block_bytes = layout.chunks * kPackTileBytes;
  const int64_t grain = block_bytes >= kMinBytesPerTask ? 1 : kMinBytesPerTask / block_bytes;
  const int status = ParallelFor(layout.blocks, grain, [&](int64_t begin, int64_t end) {
    pack(w, layout, data, begin, end);
  });
  if (status != TCPU_OK) return status;
  std::memcpy(packed, &header, sizeof(header));
  return Succeed();
}

}  // namespace

const char* PackWeightsI8Variant() { return PackRowsVariant().name; }
const char* PackWeightsI8KnVariant() { return PackKnVariant().name; }

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
  return tcpu::PackWeights("tcpu_pack_weights_i8", tcpu::PackRowsVariant().fn, w, n, k, packed,
                           packed_bytes);
}

extern "C" int tcpu_pack_weights_i8_kn(const int8_t* w, int64_t n, int64_t k, void* packed,
                                       int64_t packed_bytes) {
  return tcpu::PackWeights("tcpu_pack_weights_i8_kn", tcpu::PackKnVariant().fn, w, n, k, packed,
                           packed_bytes);
}
