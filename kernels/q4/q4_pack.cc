// tcpu_q4_packed_size, tcpu_pack_q4 and tcpu_unpack_q4: portable code (packing runs once at
// load and is bound by memory), split over tiles on the thread pool.
#include <cmath>
#include <cstring>

#include "kernels/q4/q4_packed.h"
#include "runtime/check.h"
#include "runtime/thread_pool.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::q4 {
namespace {

// The q of row `row`, column j, or 0 past n or k.
inline int Q(const int8_t* q, const Q4Layout& l, int64_t row, int64_t j) {
  return row < l.n && j < l.k ? q[row * l.k + j] : 0;
}

// Tile t: groups * 320 bytes at `out`.
void PackTile(const int8_t* q, const float* scales, const Q4Layout& l, int64_t t, uint8_t* out) {
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes) {
    const int64_t j0 = g * kGroup;
    for (int64_t u = 0; u < kUnits; ++u) {
      for (int64_t i = 0; i < kTileRows; ++i) {  // byte 4r + e of row quad i / 4: 4i + e
        const int64_t row = t * kTileRows + i;
        for (int64_t e = 0; e < 4; ++e) {
          const int lo = Q(q, l, row, j0 + 4 * u + e);
          const int hi = Q(q, l, row, j0 + 16 + 4 * u + e);
          out[u * kUnitBytes + 4 * i + e] = static_cast<uint8_t>((lo & 0xf) | ((hi & 0xf) << 4));
        }
      }
    }
    float s[kTileRows];
    for (int64_t i = 0; i < kTileRows; ++i) {
      const int64_t row = t * kTileRows + i;
      s[i] = row < l.n ? scales[row * l.groups + g] : 0.0f;
    }
    std::memcpy(out + kUnits * kUnitBytes, s, sizeof(s));
  }
}

// Sign-extends a nibble.
inline int8_t Nibble(uint8_t v) { return static_cast<int8_t>(static_cast<int8_t>(v << 4) >> 4); }

}  // namespace
}  // namespace tcpu::q4

extern "C" int64_t tcpu_q4_packed_size(int64_t n, int64_t k) {
  tcpu::q4::Q4Layout layout;
  const int status = tcpu::q4::ComputeQ4Layout("tcpu_q4_packed_size", n, k, &layout);
  if (status != TCPU_OK) return status;
  tcpu::Succeed();
  return layout.total_bytes;
}

extern "C" int tcpu_pack_q4(const int8_t* q, const float* scales, int64_t n, int64_t k,
                            void* packed, int64_t packed_bytes) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_pack_q4";
  TCPU_CHECK_NOT_NULL(kFn, q);
  TCPU_CHECK_NOT_NULL(kFn, scales);
  TCPU_CHECK_NOT_NULL(kFn, packed);
  Q4Layout l;
  if (const int status = ComputeQ4Layout(kFn, n, k, &l); status != TCPU_OK) return status;
  if (packed_bytes < l.total_bytes) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL,
                      "%s: packed_bytes = %lld, expected >= %lld for n = %lld, k = %lld", kFn,
                      static_cast<long long>(packed_bytes), static_cast<long long>(l.total_bytes),
                      static_cast<long long>(n), static_cast<long long>(k));
  }
  int64_t count = 0;
  TCPU_CHECK_MUL(kFn, n, k, &count);
  for (int64_t i = 0; i < count; ++i) {
    if (q[i] < -8 || q[i] > 7) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: q[%lld][%lld] = %d, expected -8..7", kFn,
                        static_cast<long long>(i / k), static_cast<long long>(i % k), q[i]);
    }
  }
  for (int64_t i = 0; i < n * l.groups; ++i) {
    if (!std::isfinite(scales[i])) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: scales[%lld][%lld] = %g is not finite", kFn,
                        static_cast<long long>(i / l.groups), static_cast<long long>(i % l.groups),
                        static_cast<double>(scales[i]));
    }
  }
  Q4PackedHeader header = {};
  header.magic = kMagic;
  header.version = kVersion;
  header.header_bytes = kHeaderBytes;
  header.n = n;
  header.k = k;
  header.groups = l.groups;
  header.tiles = l.tiles;
  // The real header goes in last, so a buffer whose packing failed never validates.
  std::memset(packed, 0, sizeof(header));
  uint8_t* data = static_cast<uint8_t*>(packed) + kHeaderBytes;
  const int64_t tile_bytes = l.groups * kTileGroupBytes;
  const int64_t grain = tile_bytes >= (int64_t{1} << 16) ? 1 : (int64_t{1} << 16) / tile_bytes;
  const int status = tcpu::ParallelFor(l.tiles, grain, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) PackTile(q, scales, l, t, data + t * tile_bytes);
  });
  if (status != TCPU_OK) return status;
  std::memcpy(packed, &header, sizeof(header));
  return tcpu::Succeed();
}

extern "C" int tcpu_check_q4_packed(const void* packed, int64_t packed_bytes, int64_t n,
                                    int64_t k) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_check_q4_packed";
  Q4Layout l;
  if (const int status = ComputeQ4Layout(kFn, n, k, &l); status != TCPU_OK) return status;
  if (packed_bytes != l.total_bytes) {  // before the header is read: it may not be there
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "%s: %lld bytes, expected %lld for n = %lld, k = %lld", kFn,
                      static_cast<long long>(packed_bytes), static_cast<long long>(l.total_bytes),
                      static_cast<long long>(n), static_cast<long long>(k));
  }
  Q4View view;
  if (const int status = ViewQ4(kFn, packed, n, k, &view); status != TCPU_OK) return status;
  return tcpu::Succeed();
}

extern "C" int tcpu_unpack_q4(const void* packed, int64_t n, int64_t k, int8_t* q, float* scales) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_unpack_q4";
  TCPU_CHECK_NOT_NULL(kFn, packed);
  TCPU_CHECK_NOT_NULL(kFn, q);
  TCPU_CHECK_NOT_NULL(kFn, scales);
  Q4View view;
  if (const int status = ViewQ4(kFn, packed, n, k, &view); status != TCPU_OK) return status;
  const Q4Layout& l = view.layout;
  for (int64_t row = 0; row < n; ++row) {
    const int64_t i = row % kTileRows;
    const uint8_t* group = view.Tile(row / kTileRows);
    for (int64_t g = 0; g < l.groups; ++g, group += kTileGroupBytes) {
      for (int64_t u = 0; u < kUnits; ++u) {
        for (int64_t e = 0; e < 4; ++e) {
          const uint8_t byte = group[u * kUnitBytes + 4 * i + e];
          const int64_t lo = g * kGroup + 4 * u + e, hi = lo + 16;
          if (lo < k) q[row * k + lo] = Nibble(byte & 0xf);
          if (hi < k) q[row * k + hi] = Nibble(byte >> 4);
        }
      }
      std::memcpy(&scales[row * l.groups + g], group + kUnits * kUnitBytes + 4 * i, sizeof(float));
    }
  }
  return tcpu::Succeed();
}
