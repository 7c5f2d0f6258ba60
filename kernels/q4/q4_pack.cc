// tcpu_q4_packed_size, tcpu_pack_q4, tcpu_pack_q4_from_q4_0 and tcpu_unpack_q4: portable code
// (packing runs once at load and is bound by memory), split over tiles on the thread pool.
#include <cstring>

#include "kernels/grouped/grouped_pack.h"
#include "kernels/q4/q4_packed.h"
#include "runtime/check.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::q4 {
namespace {

// The q of row `row`, column j, or 0 past n or k.
inline int Q(const int8_t* q, const Q4Layout& l, int64_t row, int64_t j) {
  return row < l.n && j < l.k ? q[row * l.k + j] : 0;
}

// One pair's 32 bytes of a group from its rows a and b (32 q each, both inside the matrix):
// built in order (a loop clang vectorizes), then 4 bytes per slot.
inline void PackPair(const int8_t* a, const int8_t* b, int64_t p, uint8_t* out) {
  uint8_t bytes[kGroup];
  for (int64_t j = 0; j < kGroup; ++j) {
    bytes[j] = static_cast<uint8_t>(((a[j] & 0xf) << 4) | (b[j] + 8));
  }
  for (int64_t c = 0; c < kGroup / 4; ++c) std::memcpy(out + PairByte(p, 4 * c), bytes + 4 * c, 4);
}

// Tile t: groups * 288 bytes at `out`.
void PackTile(const int8_t* q, const uint16_t* scales, const Q4Layout& l, int64_t t, uint8_t* out) {
  const int64_t row0 = t * kTileRows;
  const bool whole_tile = row0 + kTileRows <= l.n;
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes) {
    const int64_t j0 = g * kGroup;
    for (int64_t p = 0; p < kPairs; ++p) {
      const int64_t row = row0 + p;
      if (whole_tile && j0 + kGroup <= l.k) {
        PackPair(q + row * l.k + j0, q + (row + kPairs) * l.k + j0, p, out);
        continue;
      }
      for (int64_t k = 0; k < kGroup; ++k) {  // past n or k: q = 0
        out[PairByte(p, k)] = PairOf(Q(q, l, row, j0 + k), Q(q, l, row + kPairs, j0 + k));
      }
    }
    uint16_t s[kTileRows];
    for (int64_t i = 0; i < kTileRows; ++i) {
      const int64_t row = row0 + i;
      s[i] = row < l.n ? scales[row * l.groups + g] : 0;
    }
    std::memcpy(out + kUnits * kUnitBytes, s, sizeof(s));
  }
}

// The index of the first q outside -8..7, or -1. Chunks are scanned without an early exit so
// the scan vectorizes; only a chunk with a bad value is searched again.
int64_t FirstOutOfRange(const int8_t* q, int64_t count) {
  constexpr int64_t kChunk = 1024;
  for (int64_t c = 0; c < count; c += kChunk) {
    const int64_t end = c + kChunk < count ? c + kChunk : count;
    bool all = true;
    for (int64_t i = c; i < end; ++i) all &= q[i] >= -8 && q[i] <= 7;
    if (all) continue;
    for (int64_t i = c; i < end; ++i) {
      if (q[i] < -8 || q[i] > 7) return i;
    }
  }
  return -1;
}

}  // namespace

// Tile t from GGUF Q4_0 blocks (rows of l.groups blocks of 18 bytes): the same stream as
// PackTile. Block byte j holds v = q + 8 of k = j (low nibble) and k = 16 + j (high nibble). Row
// p + 8's v is the pair's low nibble as it is, row p's is its high nibble with bit 3 flipped
// (v ^ 8 is q in two's complement), so 8 bytes of a pair at once take masks, shifts and XORs of
// 64-bit words: k 0..15 from the low nibbles, k 16..31 from the high ones, 4 bytes per slot.
void PackTileFromQ4_0(const uint8_t* blocks, const Q4Layout& l, int64_t t, uint8_t* out) {
  const int64_t rows = l.n - t * kTileRows < kTileRows ? l.n - t * kTileRows : kTileRows;
  const int64_t row_bytes = l.groups * kQ4_0BlockBytes;
  const uint8_t* tile = blocks + t * kTileRows * row_bytes;
  constexpr uint64_t kLow = 0x0f0f0f0f0f0f0f0full, kFlip = 0x8080808080808080ull;
  constexpr uint64_t kZeroV = 0x8888888888888888ull;  // v of q = 0: a padded row
  for (int64_t g = 0; g < l.groups; ++g, out += kTileGroupBytes) {
    for (int64_t p = 0; p < kPairs; ++p) {
      uint64_t a[2] = {kZeroV, kZeroV}, b[2] = {kZeroV, kZeroV};  // rows p and p + 8
      if (p < rows) std::memcpy(a, tile + p * row_bytes + g * kQ4_0BlockBytes + 2, 16);
      if (p + kPairs < rows) {
        std::memcpy(b, tile + (p + kPairs) * row_bytes + g * kQ4_0BlockBytes + 2, 16);
      }
      for (int64_t h = 0; h < 2; ++h) {  // block bytes 8h .. 8h + 7: k = 8h + e and 16 + 8h + e
        const uint64_t low = (((a[h] & kLow) << 4) ^ kFlip) | (b[h] & kLow);
        const uint64_t high = ((a[h] & ~kLow) ^ kFlip) | ((b[h] >> 4) & kLow);
        for (int64_t half = 0; half < 2; ++half) {  // 4 k per slot
          const int64_t k = 8 * h + 4 * half;
          std::memcpy(out + PairByte(p, k), reinterpret_cast<const uint8_t*>(&low) + 4 * half, 4);
          std::memcpy(out + PairByte(p, 16 + k), reinterpret_cast<const uint8_t*>(&high) + 4 * half,
                      4);
        }
      }
    }
    uint8_t* scales = out + kUnits * kUnitBytes;
    std::memset(scales, 0, kScaleBytes);  // rows past n
    for (int64_t i = 0; i < rows; ++i) {
      std::memcpy(scales + 2 * i, tile + i * row_bytes + g * kQ4_0BlockBytes, 2);
    }
  }
}

}  // namespace tcpu::q4

extern "C" int64_t tcpu_q4_packed_size(int64_t n, int64_t k) {
  tcpu::q4::Q4Layout layout;
  const int status = tcpu::q4::ComputeQ4Layout("tcpu_q4_packed_size", n, k, &layout);
  if (status != TCPU_OK) return status;
  tcpu::Succeed();
  return layout.total_bytes;
}

extern "C" int tcpu_pack_q4(const int8_t* q, const uint16_t* scales, int64_t n, int64_t k,
                            void* packed, int64_t packed_bytes) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_pack_q4";
  TCPU_CHECK_NOT_NULL(kFn, q);
  TCPU_CHECK_NOT_NULL(kFn, scales);
  TCPU_CHECK_NOT_NULL(kFn, packed);
  Q4Layout l;
  if (const int status = ComputeQ4Layout(kFn, n, k, &l); status != TCPU_OK) return status;
  if (const int status = tcpu::grouped::CheckBufferSize(kFn, packed_bytes, l); status != TCPU_OK) {
    return status;
  }
  int64_t count = 0;
  TCPU_CHECK_MUL(kFn, n, k, &count);
  if (const int64_t i = FirstOutOfRange(q, count); i >= 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: q[%lld][%lld] = %d, expected -8..7", kFn,
                      static_cast<long long>(i / k), static_cast<long long>(i % k), q[i]);
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

extern "C" int tcpu_check_q4_packed(const void* packed, int64_t packed_bytes, int64_t n,
                                    int64_t k) {
  using namespace tcpu::q4;
  constexpr const char* kFn = "tcpu_check_q4_packed";
  if (const int status = tcpu::grouped::CheckWhole(kFn, kFormat, packed, packed_bytes, n, k);
      status != TCPU_OK) {
    return status;
  }
  return tcpu::Succeed();
}

extern "C" int tcpu_unpack_q4(const void* packed, int64_t n, int64_t k, int8_t* q,
                              uint16_t* scales) {
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
      for (int64_t j = 0; j < kGroup && g * kGroup + j < k; ++j) {
        q[row * k + g * kGroup + j] = static_cast<int8_t>(QAt(group, i, j));
      }
      std::memcpy(&scales[row * l.groups + g], group + kUnits * kUnitBytes + 2 * i,
                  sizeof(uint16_t));
    }
  }
  return tcpu::Succeed();
}
