// Armv8.0 NEON GEMV (-march=armv8-a), for cores without SDOT. SMULL/SMULL2 multiply 8 int8
// pairs into int16 (exact: |-128 * -128| = 16384 fits) and SADALP adds adjacent products
// into int32 lanes, so no intermediate sum can overflow. x is duplicated per chunk once per
// call (prepare_x) so SMULL2 reads it from the same register half as the weights.
#include <arm_neon.h>

#include "kernels/gemv/gemv_kernels.h"

namespace tcpu::gemv {
namespace {

// acc_r += products of row r (the low or high half of a 16-byte load) with x.
inline void MulAcc(int8x16_t w01, int8x16_t w23, int8x16_t xx, int32x4_t& acc0, int32x4_t& acc1,
                   int32x4_t& acc2, int32x4_t& acc3) {
  acc0 = vpadalq_s16(acc0, vmull_s8(vget_low_s8(w01), vget_low_s8(xx)));
  acc1 = vpadalq_s16(acc1, vmull_high_s8(w01, xx));
  acc2 = vpadalq_s16(acc2, vmull_s8(vget_low_s8(w23), vget_low_s8(xx)));
  acc3 = vpadalq_s16(acc3, vmull_high_s8(w23, xx));
}

inline void StoreSums(const I8GemvArgs& a, int64_t block, int32x4_t acc0, int32x4_t acc1,
                      int32x4_t acc2, int32x4_t acc3) {
  int32_t sums[4];
  vst1q_s32(sums, vpaddq_s32(vpaddq_s32(acc0, acc1), vpaddq_s32(acc2, acc3)));
  StoreBlock(a, block, sums);
}

void RunBlocksNeon(const I8GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t chunks = a.chunks;
  int64_t b = begin;
  for (; b + 2 <= end; b += 2) {  // 2 blocks: 8 accumulators, one x load per 4 loads of w.
    const int8_t* w0 = a.w + b * chunks * 32;
    const int8_t* w1 = w0 + chunks * 32;
    const int8_t* x = a.x_prepared;
    int32x4_t acc0 = vdupq_n_s32(0), acc1 = vdupq_n_s32(0), acc2 = vdupq_n_s32(0),
              acc3 = vdupq_n_s32(0), acc4 = vdupq_n_s32(0), acc5 = vdupq_n_s32(0),
              acc6 = vdupq_n_s32(0), acc7 = vdupq_n_s32(0);
    for (int64_t c = 0; c < chunks; ++c) {
      TCPU_MCA_LOOP("gemv_neon");
      const int8x16_t xx = vld1q_s8(x);
      MulAcc(vld1q_s8(w0), vld1q_s8(w0 + 16), xx, acc0, acc1, acc2, acc3);
      MulAcc(vld1q_s8(w1), vld1q_s8(w1 + 16), xx, acc4, acc5, acc6, acc7);
      x += 16;
      w0 += 32;
      w1 += 32;
    }
    StoreSums(a, b, acc0, acc1, acc2, acc3);
    StoreSums(a, b + 1, acc4, acc5, acc6, acc7);
  }
  if (b < end) {  // An odd block left over.
    const int8_t* w0 = a.w + b * chunks * 32;
    const int8_t* x = a.x_prepared;
    int32x4_t acc0 = vdupq_n_s32(0), acc1 = vdupq_n_s32(0), acc2 = vdupq_n_s32(0),
              acc3 = vdupq_n_s32(0);
    for (int64_t c = 0; c < chunks; ++c) {
      MulAcc(vld1q_s8(w0), vld1q_s8(w0 + 16), vld1q_s8(x), acc0, acc1, acc2, acc3);
      x += 16;
      w0 += 32;
    }
    StoreSums(a, b, acc0, acc1, acc2, acc3);
  }
}

}  // namespace

const GemvKernel kGemvNeon = {
    RunBlocksNeon,    /*prepared_x_bytes_per_chunk=*/16, DuplicateXChunks, AbsmaxBf16Neon,
    QuantizeBf16Neon,
};

}  // namespace tcpu::gemv
