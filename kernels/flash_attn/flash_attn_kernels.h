// The micro-kernels behind tcpu_flash_attn_decode_bf16 and tcpu_flash_attn_prefill_bf16, one
// per file and ISA:
//   flash_attn_ref.cc   portable scalar reference
//   flash_attn_neon.cc  -march=armv8-a   4-lane fp32 FMAs, SHLL widening of bf16
//   flash_attn_sve2.cc  -march=armv9-a+sve2  any VL: LD1H-to-.S + LSL widening, WHILELT tails
// A kernel handles one chunk of <= kChunk positions for a few query rows that see the same
// positions (the q heads of one KV group for one query token): each K and V element is loaded
// and widened once for all of them. Per row it returns the chunk's partial softmax state (max,
// sum of exp, unnormalised accumulator); every row's arithmetic is the same as if it ran alone.
// flash_attn.cc merges the chunks of a (query, head) by log-sum-exp in a fixed order, so
// results do not depend on the thread count or on which rows share a call.
#ifndef TCPU_KERNELS_FLASH_ATTN_FLASH_ATTN_KERNELS_H_
#define TCPU_KERNELS_FLASH_ATTN_FLASH_ATTN_KERNELS_H_

#include <cstdint>
#include <type_traits>

#include "runtime/dispatch.h"

namespace tcpu::flash_attn {

// Positions per chunk. Fixed (never derived from the thread count) so the chunking, and with
// it every rounding, depends only on seq_len.
constexpr int64_t kChunk = 256;

struct FlashAttnKernel {
  // For each row r < rows (q + r * q_stride, already scaled, fp32) and s < n (n <= kChunk):
  // score[s] = q_r . k[s * k_stride + :d]; with m = max score, state = part + r * part_stride
  // gets [acc[0..d), m, sum exp(score - m)], acc[i] = sum exp(score - m) * v[s * v_stride + i]
  // summed in position order. A row's bits do not depend on `rows` or on its place among them.
  void (*chunk)(const float* q, int64_t q_stride, int64_t rows, const uint16_t* k,
                const uint16_t* v, int64_t d, int64_t n, int64_t k_stride, int64_t v_stride,
                float* part, int64_t part_stride);
  // x[s] = exp(x[s] - shift) for s < n by ExpPoly (exp_poly.h), bit-identical on every
  // kernel; chunk uses it for the softmax weights.
  void (*exp_shifted)(float* x, int64_t n, float shift);
};

// Weights per position in a tile's interleaved copy of its softmax weights: at least 4, so a
// 4-float load at any position stays inside the copy.
constexpr int WeightLanes(int rows) { return rows < 4 ? 4 : rows; }

// The step between a vector kernel's scores and its p * v pass: R rows of chunk scores become
// softmax weights in place (exp_shifted by the row's max); each row's state gets its max and
// sum of weights (added in position order); weights[s * WeightLanes(R) + r] = score[r][s], so
// the p * v pass reads the weights of all rows at one position with one or two vector loads.
template <int R>
inline void SoftmaxWeights(void (*exp_shifted)(float*, int64_t, float), float (*score)[kChunk],
                           const float* max, int64_t n, int64_t d, float* part, int64_t part_stride,
                           float* weights) {
  for (int r = 0; r < R; ++r) {
    exp_shifted(score[r], n, max[r]);
    float l = 0.0f;
    for (int64_t s = 0; s < n; ++s) {
      l += score[r][s];
      weights[s * WeightLanes(R) + r] = score[r][s];
    }
    part[r * part_stride + d] = max[r];
    part[r * part_stride + d + 1] = l;
  }
}

// FlashAttnKernel::chunk for a vector kernel, from its per-tile passes: Tile is a struct with
//   template <int R> static void Scores(q, q_stride, k, d, n, k_stride, score, max):
//       score[r][s] = q_r . k[s], max[r] = the row's max, for R rows;
//   static void ExpShifted(x, n, shift): FlashAttnKernel::exp_shifted;
//   template <int R> static void Accumulate(weights, v, d, n, v_stride, part, part_stride):
//       acc_r[i] = sum_s weights[s * WeightLanes(R) + r] * v[s][i] in position order.
// Rows run in tiles of R = 8, 4, 2, 1 (the vector kernels keep R rows' accumulators in
// registers); a tile's scores and weights live on the stack (at most 16 KB).
template <typename Tile>
void ChunkInTiles(const float* q, int64_t q_stride, int64_t rows, const uint16_t* k,
                  const uint16_t* v, int64_t d, int64_t n, int64_t k_stride, int64_t v_stride,
                  float* part, int64_t part_stride) {
  auto run = [&](auto tile_rows, int64_t r0) {
    constexpr int R = decltype(tile_rows)::value;
    float score[R][kChunk];
    float max[R];
    float weights[kChunk * WeightLanes(R)];
    float* tile_part = part + r0 * part_stride;
    Tile::template Scores<R>(q + r0 * q_stride, q_stride, k, d, n, k_stride, score, max);
    SoftmaxWeights<R>(Tile::ExpShifted, score, max, n, d, tile_part, part_stride, weights);
    Tile::template Accumulate<R>(weights, v, d, n, v_stride, tile_part, part_stride);
  };
  int64_t r = 0;
  for (; r + 8 <= rows; r += 8) run(std::integral_constant<int, 8>(), r);
  if (r + 4 <= rows) {
    run(std::integral_constant<int, 4>(), r);
    r += 4;
  }
  if (r + 2 <= rows) {
    run(std::integral_constant<int, 2>(), r);
    r += 2;
  }
  if (r < rows) run(std::integral_constant<int, 1>(), r);
}

extern const FlashAttnKernel kFlashAttnRef;
#if defined(__aarch64__)
extern const FlashAttnKernel kFlashAttnNeon;
extern const FlashAttnKernel kFlashAttnSve2;
#endif

// The dispatch table, best first; tests and benchmarks run every entry the CPU supports.
const KernelVariant<const FlashAttnKernel*>* FlashAttnVariantTable(int* count);

// tcpu_flash_attn_decode_bf16 with a given kernel; checks arguments too.
int FlashAttnWith(const FlashAttnKernel& kernel, const uint16_t* q, const uint16_t* k_cache,
                  const uint16_t* v_cache, uint16_t* out, int64_t num_heads, int64_t num_kv_heads,
                  int64_t head_dim, int64_t seq_len, int64_t k_head_stride, int64_t k_seq_stride,
                  int64_t v_head_stride, int64_t v_seq_stride, float sm_scale);

// tcpu_flash_attn_prefill_bf16 with a given kernel; checks arguments too.
int FlashAttnPrefillWith(const FlashAttnKernel& kernel, const uint16_t* q, const uint16_t* k_cache,
                         const uint16_t* v_cache, uint16_t* out, int64_t num_queries,
                         int64_t num_heads, int64_t num_kv_heads, int64_t head_dim,
                         int64_t first_position, int64_t k_head_stride, int64_t k_seq_stride,
                         int64_t v_head_stride, int64_t v_seq_stride, float sm_scale);

}  // namespace tcpu::flash_attn

#endif  // TCPU_KERNELS_FLASH_ATTN_FLASH_ATTN_KERNELS_H_
