// SDOT GEMV (-march=armv8.2-a+dotprod). A 16-byte load of the packed stream holds rows
// (r, r+1) x 8 k bytes; SDOT against those 8 x bytes duplicated into both halves leaves
// [r:k0-3, r:k4-7, r+1:k0-3, r+1:k4-7] in the lanes, summed pairwise once per block.
// x is duplicated once per call (prepare_x) so the loop only loads and multiplies: per
// iteration 2 blocks x 2 chunks, 8 independent accumulators (SDOT latency on both vector
// pipes), 10 loads and 8 SDOTs = 128 MACs.
#include <arm_neon.h>

#include "kernels/gemv/gemv_kernels.h"

namespace tcpu::gemv {
namespace {

// Row sums of one block from its accumulators: chunk-parity pairs added, lanes paired.
inline void StoreSums(const GemvArgs& a, int64_t block, int32x4_t even01, int32x4_t even23,
                      int32x4_t odd01, int32x4_t odd23) {
  int32_t sums[4];
  vst1q_s32(sums, vpaddq_s32(vaddq_s32(even01, odd01), vaddq_s32(even23, odd23)));
  StoreBlock(a, block, sums);
}

void RunBlocksDotprod(const GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t chunks = a.chunks;
  const int64_t pairs = chunks / 2;
  const bool odd_chunk = (chunks & 1) != 0;
  int64_t b = begin;
  for (; b + 2 <= end; b += 2) {
    const int8_t* w0 = a.w + b * chunks * 32;
    const int8_t* w1 = w0 + chunks * 32;
    const int8_t* x = a.x_prepared;
    int32x4_t acc0 = vdupq_n_s32(0), acc1 = vdupq_n_s32(0), acc2 = vdupq_n_s32(0),
              acc3 = vdupq_n_s32(0), acc4 = vdupq_n_s32(0), acc5 = vdupq_n_s32(0),
              acc6 = vdupq_n_s32(0), acc7 = vdupq_n_s32(0);
    for (int64_t p = 0; p < pairs; ++p) {
      TCPU_MCA_LOOP("gemv_dotprod");
      const int8x16_t xa = vld1q_s8(x);
      const int8x16_t xb = vld1q_s8(x + 16);
      acc0 = vdotq_s32(acc0, vld1q_s8(w0), xa);
      acc1 = vdotq_s32(acc1, vld1q_s8(w0 + 16), xa);
      acc2 = vdotq_s32(acc2, vld1q_s8(w0 + 32), xb);
      acc3 = vdotq_s32(acc3, vld1q_s8(w0 + 48), xb);
      acc4 = vdotq_s32(acc4, vld1q_s8(w1), xa);
      acc5 = vdotq_s32(acc5, vld1q_s8(w1 + 16), xa);
      acc6 = vdotq_s32(acc6, vld1q_s8(w1 + 32), xb);
      acc7 = vdotq_s32(acc7, vld1q_s8(w1 + 48), xb);
      x += 32;
      w0 += 64;
      w1 += 64;
    }
    if (odd_chunk) {
      const int8x16_t xa = vld1q_s8(x);
      acc0 = vdotq_s32(acc0, vld1q_s8(w0), xa);
      acc1 = vdotq_s32(acc1, vld1q_s8(w0 + 16), xa);
      acc4 = vdotq_s32(acc4, vld1q_s8(w1), xa);
      acc5 = vdotq_s32(acc5, vld1q_s8(w1 + 16), xa);
    }
    StoreSums(a, b, acc0, acc1, acc2, acc3);
    StoreSums(a, b + 1, acc4, acc5, acc6, acc7);
  }
  if (b < end) {  // An odd block left over.
    const int8_t* w0 = a.w + b * chunks * 32;
    const int8_t* x = a.x_prepared;
    int32x4_t acc0 = vdupq_n_s32(0), acc1 = vdupq_n_s32(0), acc2 = vdupq_n_s32(0),
              acc3 = vdupq_n_s32(0);
    for (int64_t p = 0; p < pairs; ++p) {
      const int8x16_t xa = vld1q_s8(x);
      const int8x16_t xb = vld1q_s8(x + 16);
      acc0 = vdotq_s32(acc0, vld1q_s8(w0), xa);
      acc1 = vdotq_s32(acc1, vld1q_s8(w0 + 16), xa);
      acc2 = vdotq_s32(acc2, vld1q_s8(w0 + 32), xb);
      acc3 = vdotq_s32(acc3, vld1q_s8(w0 + 48), xb);
      x += 32;
      w0 += 64;
    }
    if (odd_chunk) {
      const int8x16_t xa = vld1q_s8(x);
      acc0 = vdotq_s32(acc0, vld1q_s8(w0), xa);
      acc1 = vdotq_s32(acc1, vld1q_s8(w0 + 16), xa);
    }
    StoreSums(a, b, acc0, acc1, acc2, acc3);
  }
}

}  // namespace

const GemvKernel kGemvDotprod = {
    RunBlocksDotprod, /*prepared_x_bytes_per_chunk=*/16, DuplicateXChunks, AbsmaxBf16Neon,
    QuantizeBf16Neon,
};

}  // namespace tcpu::gemv
