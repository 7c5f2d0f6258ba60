// tcpu_pack_q8_from_q8_0: GGUF Q8_0 blocks packed as they are, each whole tile by the NEON
// packer on aarch64 (q8_pack_neon.cc), the rest by the scalar one (q8_pack.cc), checked while
// packing.
#include <atomic>
#include <cstring>

#include "kernels/grouped/grouped_pack.h"
#include "kernels/q8/q8_kernels.h"
#include "runtime/check.h"
#include "tcpu/gemv_q8.h"

namespace tcpu::q8 {
namespace {

bool PackTileQ8_0(const uint8_t* blocks, const Q8Layout& l, int64_t t, uint8_t* out) {
#if defined(__aarch64__)
  if ((t + 1) * kTileRows <= l.n) return PackTileFromQ8_0Neon(blocks, l, t, out);
#endif
  return PackTileFromQ8_0Scalar(blocks, l, t, out);
}

}  // namespace
}  // namespace tcpu::q8

extern "C" int tcpu_pack_q8_from_q8_0(const void* blocks, int64_t blocks_bytes, int64_t n,
                                      int64_t k, void* packed, int64_t packed_bytes) {
  using namespace tcpu::q8;
  constexpr const char* kFn = "tcpu_pack_q8_from_q8_0";
  TCPU_CHECK_NOT_NULL(kFn, blocks);
  TCPU_CHECK_NOT_NULL(kFn, packed);
  Q8Layout l;
  if (const int status = ComputeQ8Layout(kFn, n, k, &l); status != TCPU_OK) return status;
  if (k % kGroup != 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: k = %lld is not a multiple of the Q8_0 block, 32",
                      kFn, static_cast<long long>(k));
  }
  if (const int status = tcpu::grouped::CheckBufferSize(kFn, packed_bytes, l); status != TCPU_OK) {
    return status;
  }
  // n * groups * 34 < the packed size, which did not overflow.
  if (blocks_bytes != n * l.groups * kQ8_0BlockBytes) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: blocks_bytes = %lld, expected %lld (%lld rows of %lld blocks of 34 "
                      "bytes)",
                      kFn, static_cast<long long>(blocks_bytes),
                      static_cast<long long>(n * l.groups * kQ8_0BlockBytes),
                      static_cast<long long>(n), static_cast<long long>(l.groups));
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(blocks);
  // Packed and checked in one pass; a bad block is then looked for again to name it, and the
  // header is cleared so that the buffer does not validate.
  std::atomic<bool> bad{false};
  const int status = tcpu::grouped::PackTiles(kFormat, l, packed, [&](int64_t t, uint8_t* out) {
    if (PackTileQ8_0(bytes, l, t, out)) bad.store(true, std::memory_order_relaxed);
  });
  if (status != TCPU_OK || !bad.load()) return status;
  std::memset(packed, 0, kHeaderBytes);
  for (int64_t b = 0; b < n * l.groups; ++b) {
    const uint8_t* block = bytes + b * kQ8_0BlockBytes;
    uint16_t d;
    std::memcpy(&d, block, 2);
    const long long row = b / l.groups, column = b % l.groups;
    if (tcpu::grouped::IsFp16NonFinite(d)) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: row %lld, block %lld: d = 0x%04x is not a finite fp16", kFn, row,
                        column, d);
    }
    for (int64_t j = 0; j < kGroup; ++j) {
      if (block[2 + j] == 0x80) {
        return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                          "%s: row %lld, block %lld: q[%lld] = -128, expected -127..127 (what "
                          "Q8_0's quantizer writes)",
                          kFn, row, column, static_cast<long long>(j));
      }
    }
  }
  return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: a block was refused while packing", kFn);
}
