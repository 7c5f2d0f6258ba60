// SDOT GEMV (-march=armv8.2-a+dotprod). A 16-byte vector of the packed stream holds rows
// (r, r+1) x 8 k bytes; SDOT against those 8 x bytes duplicated into both halves (prepare_x)
// leaves [r:k0-3, r:k4-7, r+1:k0-3, r+1:k4-7] in the lanes, summed pairwise once per block.
// Instructions are what the loop is made of: per iteration, 4 blocks x 2 chunks (256 weight
// bytes) take one 64-byte LD1 per block, one 32-byte LD1 of x shared by the 4 blocks and 16
// SDOTs into 8 accumulators: 23 instructions, 0.090 per weight byte (the floor, one SDOT per
// 16 bytes plus a quarter of a 64-byte load, is 0.078). 8 blocks would need 0.084, but clang
// then hoists all 32 loads and spills.
#include <arm_neon.h>

#include "kernels/gemv/gemv_kernels.h"
#include "runtime/bf16_neon.h"

namespace tcpu::gemv {
namespace {

// StoreBlock four rows at a time for a whole block: int32 stored as it is; fp32 or bf16 with
// the same two fp32 products and rounding in every lane (one SCVTF, two FMULs and the bf16
// rounding, instead of a store, four reloads and four scalar epilogues). Inlined by force: as a
// call from the unrolled groups it cost the int32 GEMV ~5% more at small shapes.
__attribute__((always_inline)) inline void StoreSums(const I8GemvArgs& a, int64_t block,
                                                    int32x4_t sums) {
  const int64_t row0 = block * 4;
  if (a.n - row0 < 4) {  // the last, partial block
    int32_t s[4];
    vst1q_s32(s, sums);
    StoreBlock(a, block, s);
  } else if (a.y_i32 != nullptr) {
    vst1q_s32(a.y_i32 + row0, sums);
  } else {
    const float32x4_t scaled = vmulq_n_f32(vcvtq_f32_s32(sums), a.x_scale);
    const float32x4_t y = vmulq_f32(scaled, vld1q_f32(a.w_scales + row0));
    if (a.y_f32 != nullptr) {
      vst1q_f32(a.y_f32 + row0, y);
    } else {
      vst1_u16(a.y_bf16 + row0, simd::ToBf16(y));
    }
  }
}

// Blocks [b, b + kBlocks): 2 accumulators per block (rows 0-1 and rows 2-3).
template <int kBlocks>
inline void RunGroup(const I8GemvArgs& a, int64_t b) {
  const int64_t chunks = a.chunks;
  const int64_t pairs = chunks / 2;
  const int8_t* w[kBlocks];
  int32x4_t acc01[kBlocks], acc23[kBlocks];
#pragma clang loop unroll(full)
  for (int j = 0; j < kBlocks; ++j) {
    w[j] = a.w + (b + j) * chunks * 32;
    acc01[j] = vdupq_n_s32(0);
    acc23[j] = vdupq_n_s32(0);
  }
  const int8_t* x = a.x_prepared;
  for (int64_t p = 0; p < pairs; ++p) {
    TCPU_MCA_LOOP("gemv_dotprod");
    const int8x16x2_t xv = vld1q_s8_x2(x);
    x += 32;
#pragma clang loop unroll(full)
    for (int j = 0; j < kBlocks; ++j) {
      const int8x16x4_t wv = vld1q_s8_x4(w[j]);
      w[j] += 64;
      acc01[j] = vdotq_s32(acc01[j], wv.val[0], xv.val[0]);
      acc23[j] = vdotq_s32(acc23[j], wv.val[1], xv.val[0]);
      acc01[j] = vdotq_s32(acc01[j], wv.val[2], xv.val[1]);
      acc23[j] = vdotq_s32(acc23[j], wv.val[3], xv.val[1]);
    }
  }
  if ((chunks & 1) != 0) {  // The last, odd chunk.
    const int8x16_t xv = vld1q_s8(x);
#pragma clang loop unroll(full)
    for (int j = 0; j < kBlocks; ++j) {
      const int8x16x2_t wv = vld1q_s8_x2(w[j]);
      acc01[j] = vdotq_s32(acc01[j], wv.val[0], xv);
      acc23[j] = vdotq_s32(acc23[j], wv.val[1], xv);
    }
  }
#pragma clang loop unroll(full)
  for (int j = 0; j < kBlocks; ++j) StoreSums(a, b + j, vpaddq_s32(acc01[j], acc23[j]));
}

void RunBlocksDotprod(const I8GemvArgs& a, int64_t begin, int64_t end) {
  int64_t b = begin;
  for (; b + 4 <= end; b += 4) RunGroup<4>(a, b);
  for (; b < end; ++b) RunGroup<1>(a, b);
}

}  // namespace

const GemvKernel kGemvDotprod = {
    RunBlocksDotprod, /*prepared_x_bytes_per_chunk=*/16, DuplicateXChunks, AbsmaxBf16Neon,
    QuantizeBf16Neon,
};

}  // namespace tcpu::gemv
