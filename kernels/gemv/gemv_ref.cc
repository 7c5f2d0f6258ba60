// Portable scalar GEMV over the packed format, and the scalar W8A8 quantization every other
// kernel must reproduce bit for bit.
#include <cmath>
#include <cstring>

#include "kernels/gemv/gemv_kernels.h"

namespace tcpu::gemv {
namespace {

void RunBlocksRef(const I8GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t full_chunks = a.k / 8;
  const int64_t tail = a.k % 8;
  for (int64_t b = begin; b < end; ++b) {
    const int8_t* w = a.w + b * a.chunks * 32;
    // Unsigned sums wrap like the int32 lanes of the vector kernels (no signed overflow).
    uint32_t acc[4] = {0, 0, 0, 0};
    for (int64_t c = 0; c < full_chunks; ++c, w += 32) {
      const int8_t* x = a.x + c * 8;
      for (int r = 0; r < 4; ++r) {
        for (int e = 0; e < 8; ++e) acc[r] += static_cast<uint32_t>(w[r * 8 + e] * x[e]);
      }
    }
    if (tail != 0) {  // Padding bytes of w are zero, but x ends at k: read only x[0, k).
      const int8_t* x = a.x + full_chunks * 8;
      for (int r = 0; r < 4; ++r) {
        for (int e = 0; e < tail; ++e) acc[r] += static_cast<uint32_t>(w[r * 8 + e] * x[e]);
      }
    }
    const int32_t sums[4] = {static_cast<int32_t>(acc[0]), static_cast<int32_t>(acc[1]),
                             static_cast<int32_t>(acc[2]), static_cast<int32_t>(acc[3])};
    StoreBlock(a, b, sums);
  }
}

// Copies x chunk by chunk into `copies` adjacent 8-byte slots per chunk.
void RepeatXChunks(const int8_t* x, int64_t k, int64_t chunks, int copies, int8_t* out) {
  const int64_t full = k / 8;
  for (int64_t c = 0; c < full; ++c) {
    for (int i = 0; i < copies; ++i) std::memcpy(out + (c * copies + i) * 8, x + c * 8, 8);
  }
  if (full < chunks) {  // The last, partial chunk: zero past k.
    int8_t last[8] = {0};
    std::memcpy(last, x + full * 8, static_cast<size_t>(k - full * 8));
    for (int i = 0; i < copies; ++i) std::memcpy(out + (full * copies + i) * 8, last, 8);
  }
}

}  // namespace

void DuplicateXChunks(const int8_t* x, int64_t k, int64_t chunks, int8_t* out) {
  RepeatXChunks(x, k, chunks, 2, out);
}

void QuadruplicateXChunks(const int8_t* x, int64_t k, int64_t chunks, int8_t* out) {
  RepeatXChunks(x, k, chunks, 4, out);
}

float AbsmaxBf16Ref(const uint16_t* x, int64_t k) {
  float absmax = 0.0f;
  // fmax returns the number when one operand is NaN: NaN inputs are ignored.
  for (int64_t j = 0; j < k; ++j) absmax = std::fmax(absmax, std::fabs(tcpu_bf16_to_f32(x[j])));
  return absmax;
}

void QuantizeBf16Ref(const uint16_t* x, int64_t k, float inv, int8_t* q) {
  for (int64_t j = 0; j < k; ++j) {
    const float v = tcpu_bf16_to_f32(x[j]) * inv;
    if (std::isnan(v)) {  // As FCVTNS: NaN converts to 0.
      q[j] = 0;
      continue;
    }
    const float r = std::rint(v);  // ties to even in the default rounding mode
    q[j] = static_cast<int8_t>(r < -127.0f ? -127.0f : (r > 127.0f ? 127.0f : r));
  }
}

const GemvKernel kGemvRef = {
    RunBlocksRef,    /*prepared_x_bytes_per_chunk=*/0, /*prepare_x=*/nullptr, AbsmaxBf16Ref,
    QuantizeBf16Ref,
};

}  // namespace tcpu::gemv
