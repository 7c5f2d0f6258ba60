// SVE2 GEMV (-march=armv9-a+sve2), vector-length agnostic: correct at every VL from 128 to
// 2048 bits on the one packed format. x is expanded once per call into the stream's layout
// (each 8-byte x chunk repeated for the 4 rows of the 32-byte tile, QuadruplicateXChunks).
//
// Instructions: SVE has no multi-vector contiguous load, but LD4W loads 4 vectors in one
// instruction, de-interleaving 4-byte words: vector i, lane j gets word 4j + i of the stream.
// A word is one SDOT group (4 k bytes of one row), and loading x the same way pairs every
// weight word with its x word, so SDOT on the de-interleaved vectors is still exact. Word
// 4j + i lies in row ((4j + i) mod 8) / 2 of its tile: vectors 0 and 1 hold row 0 in even
// lanes and row 2 in odd lanes, vectors 2 and 3 rows 1 and 3 — the same for every load at any
// VL, because 4 vectors always span whole 32-byte tiles. Per iteration, 4 blocks share one
// LD4W of x: 5 LD4W, 16 SDOT and 4 loop instructions per 16 VL bytes of weights (0.024 per
// byte at 512 bits, 0.006 at 2048). Tails are predicated: inactive structures load zero.
#include <arm_sve.h>

#include "kernels/gemv/gemv_kernels.h"

namespace tcpu::gemv {
namespace {

// Sum of the lanes of `acc` selected by `lanes` (int32 wrap-around, as SDOT).
inline int32_t LaneSum(svbool_t lanes, svint32_t acc) {
  return static_cast<int32_t>(static_cast<uint32_t>(svaddv_s32(lanes, acc)));
}

// One block's LD4W and 4 SDOTs against x's 4 de-interleaved vectors: rows 0/2 accumulate in
// acc02, rows 1/3 in acc13.
inline void Accumulate(svbool_t p, const int32_t* w, svint32x4_t x, svint32_t& acc02,
                       svint32_t& acc13) {
  const svint32x4_t wv = svld4_s32(p, w);
  acc02 = svdot_s32(acc02, svreinterpret_s8_s32(svget4_s32(wv, 0)),
                    svreinterpret_s8_s32(svget4_s32(x, 0)));
  acc13 = svdot_s32(acc13, svreinterpret_s8_s32(svget4_s32(wv, 2)),
                    svreinterpret_s8_s32(svget4_s32(x, 2)));
  acc02 = svdot_s32(acc02, svreinterpret_s8_s32(svget4_s32(wv, 1)),
                    svreinterpret_s8_s32(svget4_s32(x, 1)));
  acc13 = svdot_s32(acc13, svreinterpret_s8_s32(svget4_s32(wv, 3)),
                    svreinterpret_s8_s32(svget4_s32(x, 3)));
}

inline void Store(const I8GemvArgs& a, int64_t block, svbool_t even, svbool_t odd, svint32_t acc02,
                  svint32_t acc13) {
  const int32_t sums[4] = {LaneSum(even, acc02), LaneSum(even, acc13), LaneSum(odd, acc02),
                           LaneSum(odd, acc13)};
  StoreBlock(a, block, sums);
}

const int32_t* BlockWords(const I8GemvArgs& a, int64_t block) {
  return reinterpret_cast<const int32_t*>(a.w + block * a.chunks * 32);
}

// Blocks b .. b+3, sharing each load of x.
void RunFourBlocks(const I8GemvArgs& a, int64_t b, svbool_t even, svbool_t odd) {
  const int64_t structs = a.chunks * 2;  // 16-byte structures (4 words) per block stream
  const int64_t step = static_cast<int64_t>(svcntw());
  const int32_t* x = reinterpret_cast<const int32_t*>(a.x_prepared);
  const int32_t* w0 = BlockWords(a, b);
  const int32_t* w1 = BlockWords(a, b + 1);
  const int32_t* w2 = BlockWords(a, b + 2);
  const int32_t* w3 = BlockWords(a, b + 3);
  svint32_t a02 = svdup_n_s32(0), a13 = svdup_n_s32(0), b02 = svdup_n_s32(0),
            b13 = svdup_n_s32(0), c02 = svdup_n_s32(0), c13 = svdup_n_s32(0),
            d02 = svdup_n_s32(0), d13 = svdup_n_s32(0);
  for (int64_t s = 0; s < structs; s += step) {
    TCPU_MCA_LOOP("gemv_sve2");
    const svbool_t p = svwhilelt_b32_s64(s, structs);
    const svint32x4_t xw = svld4_s32(p, x + 4 * s);
    Accumulate(p, w0 + 4 * s, xw, a02, a13);
    Accumulate(p, w1 + 4 * s, xw, b02, b13);
    Accumulate(p, w2 + 4 * s, xw, c02, c13);
    Accumulate(p, w3 + 4 * s, xw, d02, d13);
  }
  Store(a, b, even, odd, a02, a13);
  Store(a, b + 1, even, odd, b02, b13);
  Store(a, b + 2, even, odd, c02, c13);
  Store(a, b + 3, even, odd, d02, d13);
}

void RunOneBlock(const I8GemvArgs& a, int64_t b, svbool_t even, svbool_t odd) {
  const int64_t structs = a.chunks * 2;
  const int64_t step = static_cast<int64_t>(svcntw());
  const int32_t* x = reinterpret_cast<const int32_t*>(a.x_prepared);
  const int32_t* w = BlockWords(a, b);
  svint32_t acc02 = svdup_n_s32(0), acc13 = svdup_n_s32(0);
  for (int64_t s = 0; s < structs; s += step) {
    const svbool_t p = svwhilelt_b32_s64(s, structs);
    Accumulate(p, w + 4 * s, svld4_s32(p, x + 4 * s), acc02, acc13);
  }
  Store(a, b, even, odd, acc02, acc13);
}

void RunBlocksSve2(const I8GemvArgs& a, int64_t begin, int64_t end) {
  const svbool_t all = svptrue_b32();
  const svbool_t even = svcmpeq_n_u32(all, svand_n_u32_x(all, svindex_u32(0, 1), 1), 0);
  const svbool_t odd = svnot_b_z(all, even);
  int64_t b = begin;
  for (; b + 4 <= end; b += 4) RunFourBlocks(a, b, even, odd);
  for (; b < end; ++b) RunOneBlock(a, b, even, odd);
}

// QuadruplicateXChunks a vector at a time: each 8-byte chunk of x zipped with itself twice
// (the portable copy takes ~8 instructions per chunk, as much as the whole GEMV at 2048 bits).
// The chunks after the last whole vector, and a partial last chunk, go the portable way.
void QuadruplicateXChunksSve2(const int8_t* x, int64_t k, int64_t chunks, int8_t* out) {
  const int64_t whole = k / 8;
  const int64_t step = static_cast<int64_t>(svcntd());  // chunks per vector
  const svbool_t all = svptrue_b64();
  int64_t c = 0;
  for (; c + step <= whole; c += step) {
    const svuint64_t v = svld1_u64(all, reinterpret_cast<const uint64_t*>(x) + c);
    const svuint64_t lo = svzip1_u64(v, v), hi = svzip2_u64(v, v);
    uint64_t* o = reinterpret_cast<uint64_t*>(out) + 4 * c;
    svst1_u64(all, o, svzip1_u64(lo, lo));
    svst1_u64(all, o + step, svzip2_u64(lo, lo));
    svst1_u64(all, o + 2 * step, svzip1_u64(hi, hi));
    svst1_u64(all, o + 3 * step, svzip2_u64(hi, hi));
  }
  if (c < chunks) QuadruplicateXChunks(x + 8 * c, k - 8 * c, chunks - c, out + 32 * c);
}

}  // namespace

const GemvKernel kGemvSve2 = {
    RunBlocksSve2,    /*prepared_x_bytes_per_chunk=*/32, QuadruplicateXChunksSve2, AbsmaxBf16Neon,
    QuantizeBf16Neon,
};

}  // namespace tcpu::gemv
