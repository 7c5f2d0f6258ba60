// The micro-kernels behind tcpu_flash_attn_decode_bf16, one per file and ISA:
//   flash_attn_ref.cc   portable scalar reference
//   flash_attn_neon.cc  -march=armv8-a   4-lane fp32 FMAs, SHLL widening of bf16
//   flash_attn_sve2.cc  -march=armv9-a+sve2  any VL: LD1H-to-.S + LSL widening, WHILELT tails
// A kernel handles one (head, chunk of <= kChunk positions): it returns the chunk's partial
// softmax state (max, sum of exp, unnormalised accumulator). flash_attn.cc merges the chunks
// of a head by log-sum-exp in a fixed order, so results do not depend on the thread count.
#ifndef TCPU_KERNELS_FLASH_ATTN_FLASH_ATTN_KERNELS_H_
#define TCPU_KERNELS_FLASH_ATTN_FLASH_ATTN_KERNELS_H_

#include <cstdint>

#include "runtime/dispatch.h"

namespace tcpu::flash_attn {

// Positions per chunk. Fixed (never derived from the thread count) so the chunking, and with
// it every rounding, depends only on seq_len.
constexpr int64_t kChunk = 256;

struct FlashAttnKernel {
  // For s < n (n <= kChunk): score[s] = q . k[s * k_stride + :d] (q already scaled, fp32);
  // *max = max score; *sum = sum exp(score - max); acc[i] = sum exp(score - max) * v[s][i].
  void (*chunk)(const float* q, const uint16_t* k, const uint16_t* v, int64_t d, int64_t n,
                int64_t k_stride, int64_t v_stride, float* acc, float* max, float* sum);
  // x[s] = exp(x[s] - shift) for s < n by ExpPoly (exp_poly.h), bit-identical on every
  // kernel; chunk uses it for the softmax weights.
  void (*exp_shifted)(float* x, int64_t n, float shift);
};

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

}  // namespace tcpu::flash_attn

#endif  // TCPU_KERNELS_FLASH_ATTN_FLASH_ATTN_KERNELS_H_
