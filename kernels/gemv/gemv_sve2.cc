// SVE2 GEMV (-march=armv9-a+sve2), vector-length agnostic: correct at every VL from 128 to
// 2048 bits. The packed stream of a block (chunks x 32 bytes) is dotted, VL bytes at a time,
// with x expanded once per call into the same layout (each 8-byte x chunk repeated for the
// 4 rows of the 32-byte tile), so int32 lane j of a vector loaded at stream offset o sums
// row ((o + 4j) mod 32) / 8. VL is a power of two (Armv9), so vectors at even multiples of VL
// share one lane -> row map and those at odd multiples another (the same one when VL >= 256
// bits); per-row predicated reductions at the end of each block undo the interleave.
#include <arm_sve.h>

#include "kernels/gemv/gemv_kernels.h"

namespace tcpu::gemv {
namespace {

// Sum of the lanes of `even` and `odd` that belong to row r (int32 wrap-around, as SDOT).
inline int32_t RowSum(svint32_t even, svint32_t odd, svuint32_t rows_even, svuint32_t rows_odd,
                      uint32_t r) {
  const svbool_t all = svptrue_b32();
  const int64_t sum = svaddv_s32(svcmpeq_n_u32(all, rows_even, r), even) +
                      svaddv_s32(svcmpeq_n_u32(all, rows_odd, r), odd);
  return static_cast<int32_t>(static_cast<uint32_t>(sum));
}

void RunBlocksSve2(const GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t len = a.chunks * 32;  // bytes of one block's stream, and of x_prepared
  const int64_t vl = static_cast<int64_t>(svcntb());
  const svbool_t all = svptrue_b8();
  const svbool_t all32 = svptrue_b32();
  // Row of each int32 lane for vectors at even / odd multiples of VL in the stream.
  const svuint32_t lane_offset = svindex_u32(0, 4);
  const svuint32_t rows_even = svlsr_n_u32_x(all32, svand_n_u32_x(all32, lane_offset, 31), 3);
  const svuint32_t rows_odd = svlsr_n_u32_x(
      all32, svand_n_u32_x(all32, svadd_n_u32_x(all32, lane_offset, static_cast<uint32_t>(vl)), 31),
      3);
  const int8_t* x = a.x_prepared;

  int64_t b = begin;
  for (; b + 2 <= end; b += 2) {  // 2 blocks x 4 vectors: 8 accumulators, x loaded once.
    const int8_t* w0 = a.w + b * len;
    const int8_t* w1 = w0 + len;
    svint32_t a0 = svdup_n_s32(0), a1 = svdup_n_s32(0), a2 = svdup_n_s32(0), a3 = svdup_n_s32(0);
    svint32_t b0 = svdup_n_s32(0), b1 = svdup_n_s32(0), b2 = svdup_n_s32(0), b3 = svdup_n_s32(0);
    int64_t i = 0;
    for (; i + 4 * vl <= len; i += 4 * vl) {
      TCPU_MCA_LOOP("gemv_sve2");
      const svint8_t x0 = svld1_s8(all, x + i);
      const svint8_t x1 = svld1_s8(all, x + i + vl);
      const svint8_t x2 = svld1_s8(all, x + i + 2 * vl);
      const svint8_t x3 = svld1_s8(all, x + i + 3 * vl);
      a0 = svdot_s32(a0, svld1_s8(all, w0 + i), x0);
      a1 = svdot_s32(a1, svld1_s8(all, w0 + i + vl), x1);
      a2 = svdot_s32(a2, svld1_s8(all, w0 + i + 2 * vl), x2);
      a3 = svdot_s32(a3, svld1_s8(all, w0 + i + 3 * vl), x3);
      b0 = svdot_s32(b0, svld1_s8(all, w1 + i), x0);
      b1 = svdot_s32(b1, svld1_s8(all, w1 + i + vl), x1);
      b2 = svdot_s32(b2, svld1_s8(all, w1 + i + 2 * vl), x2);
      b3 = svdot_s32(b3, svld1_s8(all, w1 + i + 3 * vl), x3);
    }
    // Fewer than 4 vectors left: predicated (inactive lanes load as zero and add nothing).
    const svbool_t p0 = svwhilelt_b8_s64(i, len);
    const svbool_t p1 = svwhilelt_b8_s64(i + vl, len);
    const svbool_t p2 = svwhilelt_b8_s64(i + 2 * vl, len);
    const svbool_t p3 = svwhilelt_b8_s64(i + 3 * vl, len);
    const svint8_t x0 = svld1_s8(p0, x + i);
    const svint8_t x1 = svld1_s8(p1, x + i + vl);
    const svint8_t x2 = svld1_s8(p2, x + i + 2 * vl);
    const svint8_t x3 = svld1_s8(p3, x + i + 3 * vl);
    a0 = svdot_s32(a0, svld1_s8(p0, w0 + i), x0);
    a1 = svdot_s32(a1, svld1_s8(p1, w0 + i + vl), x1);
    a2 = svdot_s32(a2, svld1_s8(p2, w0 + i + 2 * vl), x2);
    a3 = svdot_s32(a3, svld1_s8(p3, w0 + i + 3 * vl), x3);
    b0 = svdot_s32(b0, svld1_s8(p0, w1 + i), x0);
    b1 = svdot_s32(b1, svld1_s8(p1, w1 + i + vl), x1);
    b2 = svdot_s32(b2, svld1_s8(p2, w1 + i + 2 * vl), x2);
    b3 = svdot_s32(b3, svld1_s8(p3, w1 + i + 3 * vl), x3);

    const svint32_t a_even = svadd_s32_x(all32, a0, a2), a_odd = svadd_s32_x(all32, a1, a3);
    const svint32_t b_even = svadd_s32_x(all32, b0, b2), b_odd = svadd_s32_x(all32, b1, b3);
    int32_t sums[4];
    for (uint32_t r = 0; r < 4; ++r) sums[r] = RowSum(a_even, a_odd, rows_even, rows_odd, r);
    StoreBlock(a, b, sums);
    for (uint32_t r = 0; r < 4; ++r) sums[r] = RowSum(b_even, b_odd, rows_even, rows_odd, r);
    StoreBlock(a, b + 1, sums);
  }
  if (b < end) {  // An odd block left over: 2 vectors per step.
    const int8_t* w0 = a.w + b * len;
    svint32_t a0 = svdup_n_s32(0), a1 = svdup_n_s32(0);
    for (int64_t i = 0; i < len; i += 2 * vl) {
      const svbool_t p0 = svwhilelt_b8_s64(i, len);
      const svbool_t p1 = svwhilelt_b8_s64(i + vl, len);
      a0 = svdot_s32(a0, svld1_s8(p0, w0 + i), svld1_s8(p0, x + i));
      a1 = svdot_s32(a1, svld1_s8(p1, w0 + i + vl), svld1_s8(p1, x + i + vl));
    }
    int32_t sums[4];
    for (uint32_t r = 0; r < 4; ++r) sums[r] = RowSum(a0, a1, rows_even, rows_odd, r);
    StoreBlock(a, b, sums);
  }
}

}  // namespace

const GemvKernel kGemvSve2 = {
    RunBlocksSve2,    /*prepared_x_bytes_per_chunk=*/32, QuadruplicateXChunks, AbsmaxBf16Neon,
    QuantizeBf16Neon,
};

}  // namespace tcpu::gemv
