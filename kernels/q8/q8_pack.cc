// tcpu_q8_packed_size, tcpu_pack_q8, tcpu_check_q8_packed and tcpu_unpack_q8, and the scalar
// packing of GGUF Q8_0 tiles (tcpu_pack_q8_from_q8_0 is q8_pack_q8_0.cc): portable code (packing
// runs once at load and is bound by memory), split over tiles on the thread pool
// (grouped::PackTiles).
#include <cstring>

#include "kernels/grouped/grouped_pack.h"
#include "kernels/q8/q8_kernels.h"
#include "runtime/check.h"
#include "tcpu/gemv_q8.h"

namespace tcpu::q8 {
namespace {

// The q of row `row`, column j, or 0 past n or k.
inline int8_t Q(const int8_t* q, const Q8Layout& l, int64_t row, int64_t j) {
  return row < l.n && j < l.k ? q[row * l.k + j] : 0;
}

// Tile t from q[n][k] and scales[n][groups]: groups * 544 bytes at `out`.
void PackTile(const int8_t* q, const uint16_t* scales, const Q8Layout& l, int64_t t, uint8_t* out) {
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes) {
    for (int64_t u = 0; u < kUnits; ++u) {
      for (int64_t i = 0; i < kTileRows; ++i) {
        for (int64_t e = 0; e < 4; ++e) {
          out[u * kUnitBytes + 4 * i + e] =
              static_cast<uint8_t>(Q(q, l, t * kTileRows + i, g * kGroup + 4 * u + e));
        }
      }
    }
    uint16_t s[kTileRows];
    for (int64_t i = 0; i < kTileRows; ++i) {
      const int64_t row = t * kTileRows + i;
      s[i] = row < l.n ? scales[row * l.groups + g] : 0;
    }
    std::memcpy(out + kUnits * kUnitBytes, s, sizeof(s));
  }
}

// The index of the first -128 in q[0, count), or -1. Chunks are scanned without an early exit
// so the scan vectorizes; only a chunk with a bad value is searched again.
int64_t FirstMinus128(const int8_t* q, int64_t count) {
  constexpr int64_t kChunk = 1024;
  for (int64_t c = 0; c < count; c += kChunk) {
    const int64_t end = c + kChunk < count ? c + kChunk : count;
    bool any = false;
    for (int64_t i = c; i < end; ++i) any |= q[i] == -128;
    if (!any) continue;
    for (int64_t i = c; i < end; ++i) {
      if (q[i] == -128) return i;
    }
  }
  return -1;
}

}  // namespace

// Tile t from GGUF Q8_0 blocks (rows of l.groups blocks of 34 bytes): the same stream as
// PackTile. A block's q bytes 4u .. 4u + 3 are unit u's 4 bytes of that row, so each block is
// its d and 8 word moves. Returns whether a block of the tile has a q of -128 or a d that is not
// finite (the caller then refuses the matrix); the check rides along with the copy.
bool PackTileFromQ8_0Scalar(const uint8_t* blocks, const Q8Layout& l, int64_t t, uint8_t* out) {
  const int64_t rows = l.n - t * kTileRows < kTileRows ? l.n - t * kTileRows : kTileRows;
  const int64_t row_bytes = l.groups * kQ8_0BlockBytes;
  const uint8_t* tile = blocks + t * kTileRows * row_bytes;
  bool bad = false;
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes) {
    uint8_t* scales = out + kUnits * kUnitBytes;
    for (int64_t i = 0; i < rows; ++i) {
      const uint8_t* block = tile + i * row_bytes + g * kQ8_0BlockBytes;
      uint16_t d;
      std::memcpy(&d, block, 2);
      bad |= grouped::IsFp16NonFinite(d);
      std::memcpy(scales + 2 * i, &d, 2);
      for (int64_t u = 0; u < kUnits; ++u) {
        std::memcpy(out + u * kUnitBytes + 4 * i, block + 2 + 4 * u, 4);
      }
      for (int64_t j = 0; j < kGroup; ++j) bad |= block[2 + j] == 0x80;
    }
    if (rows < kTileRows) {  // rows past n: zero weights and scales
      for (int64_t u = 0; u < kUnits; ++u) {
        std::memset(out + u * kUnitBytes + 4 * rows, 0,
                    static_cast<size_t>(4 * (kTileRows - rows)));
      }
      std::memset(scales + 2 * rows, 0, static_cast<size_t>(2 * (kTileRows - rows)));
    }
  }
  return bad;
}

}  // namespace tcpu::q8

extern "C" int64_t tcpu_q8_packed_size(int64_t n, int64_t k) {
  tcpu::q8::Q8Layout layout;
  const int status = tcpu::q8::ComputeQ8Layout("tcpu_q8_packed_size", n, k, &layout);
  if (status != TCPU_OK) return status;
  tcpu::Succeed();
  return layout.total_bytes;
}

extern "C" int tcpu_pack_q8(const int8_t* q, const uint16_t* scales, int64_t n, int64_t k,
                            void* packed, int64_t packed_bytes) {
  using namespace tcpu::q8;
  constexpr const char* kFn = "tcpu_pack_q8";
  TCPU_CHECK_NOT_NULL(kFn, q);
  TCPU_CHECK_NOT_NULL(kFn, scales);
  TCPU_CHECK_NOT_NULL(kFn, packed);
  Q8Layout l;
  if (const int status = ComputeQ8Layout(kFn, n, k, &l); status != TCPU_OK) return status;
  if (const int status = tcpu::grouped::CheckBufferSize(kFn, packed_bytes, l); status != TCPU_OK) {
    return status;
  }
  int64_t count = 0;
  TCPU_CHECK_MUL(kFn, n, k, &count);
  if (const int64_t i = FirstMinus128(q, count); i >= 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: q[%lld][%lld] = -128, expected -127..127",
                      kFn, static_cast<long long>(i / k), static_cast<long long>(i % k));
  }
  for (int64_t i = 0; i < n * l.groups; ++i) {
    if (tcpu::grouped::IsFp16NonFinite(scales[i])) {
      return tcpu::Fail(
          TCPU_ERR_INVALID_ARGUMENT, "%s: scales[%lld][%lld] = 0x%04x is not a finite fp16", kFn,
          static_cast<long long>(i / l.groups), static_cast<long long>(i % l.groups), scales[i]);
    }
  }
  return tcpu::grouped::PackTiles(kFormat, l, packed,
                                  [&](int64_t t, uint8_t* out) { PackTile(q, scales, l, t, out); });
}

extern "C" int tcpu_check_q8_packed(const void* packed, int64_t packed_bytes, int64_t n,
                                    int64_t k) {
  return tcpu::grouped::CheckWhole("tcpu_check_q8_packed", tcpu::q8::kFormat, packed, packed_bytes,
                                   n, k);
}

extern "C" int tcpu_unpack_q8(const void* packed, int64_t n, int64_t k, int8_t* q,
                              uint16_t* scales) {
  using namespace tcpu::q8;
  constexpr const char* kFn = "tcpu_unpack_q8";
  TCPU_CHECK_NOT_NULL(kFn, packed);
  TCPU_CHECK_NOT_NULL(kFn, q);
  TCPU_CHECK_NOT_NULL(kFn, scales);
  Q8View view;
  if (const int status = ViewQ8(kFn, packed, n, k, &view); status != TCPU_OK) return status;
  const Q8Layout& l = view.layout;
  for (int64_t row = 0; row < n; ++row) {
    const int64_t i = row % kTileRows;
    const uint8_t* group = view.Tile(row / kTileRows);
    for (int64_t g = 0; g < l.groups; ++g, group += kTileGroupBytes) {
      for (int64_t u = 0; u < kUnits; ++u) {
        for (int64_t e = 0; e < 4; ++e) {
          const int64_t j = g * kGroup + 4 * u + e;
          if (j < k) q[row * k + j] = static_cast<int8_t>(group[u * kUnitBytes + 4 * i + e]);
        }
      }
      std::memcpy(&scales[row * l.groups + g], group + kUnits * kUnitBytes + 2 * i,
                  sizeof(uint16_t));
    }
  }
  return tcpu::Succeed();
}
