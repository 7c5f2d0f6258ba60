// tcpu_pack_q4_from_q4_0: GGUF Q4_0 blocks checked, then packed as they are, whole tiles by the
// NEON packer on aarch64 (q4_pack_neon.cc), the rest by the scalar one (q4_pack.cc).
#include <cstring>

#include "kernels/grouped/grouped_pack.h"
#include "kernels/q4/q4_kernels.h"
#include "kernels/q4/q4_packed.h"
#include "runtime/check.h"
#include "tcpu/gemv_q4.h"

extern "C" int tcpu_pack_q4_from_q4_0(const void* blocks, int64_t blocks_bytes, int64_t n,
                                      int64_t k, void* packed, int64_t packed_bytes) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_pack_q4_from_q4_0";
  TCPU_CHECK_NOT_NULL(kFn, blocks);
  TCPU_CHECK_NOT_NULL(kFn, packed);
  Q4Layout l;
  if (const int status = ComputeQ4Layout(kFn, n, k, &l); status != TCPU_OK) return status;
  if (k % kGroup != 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: k = %lld is not a multiple of the Q4_0 block, 32",
                      kFn, static_cast<long long>(k));
  }
  if (const int status = tcpu::grouped::CheckBufferSize(kFn, packed_bytes, l); status != TCPU_OK) {
    return status;
  }
  // n * groups * 18 < the packed size, which did not overflow.
  if (blocks_bytes != n * l.groups * kQ4_0BlockBytes) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: blocks_bytes = %lld, expected %lld (%lld rows of %lld blocks of 18 "
                      "bytes)",
                      kFn, static_cast<long long>(blocks_bytes),
                      static_cast<long long>(n * l.groups * kQ4_0BlockBytes),
                      static_cast<long long>(n), static_cast<long long>(l.groups));
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(blocks);
  for (int64_t b = 0; b < n * l.groups; ++b) {
    uint16_t d;
    std::memcpy(&d, bytes + b * kQ4_0BlockBytes, 2);
    if (tcpu::grouped::IsFp16NonFinite(d)) {
      return tcpu::Fail(
          TCPU_ERR_INVALID_ARGUMENT, "%s: row %lld, block %lld: d = 0x%04x is not a finite fp16",
          kFn, static_cast<long long>(b / l.groups), static_cast<long long>(b % l.groups), d);
    }
  }
  return tcpu::grouped::PackTiles(kFormat, l, packed, [&](int64_t t, uint8_t* out) {
#if defined(__aarch64__)
    if ((t + 1) * kTileRows <= l.n) return PackTileFromQ4_0Neon(bytes, l, t, out);
#endif
    PackTileFromQ4_0(bytes, l, t, out);
  });
}
