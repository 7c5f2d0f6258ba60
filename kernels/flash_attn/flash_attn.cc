// tcpu_flash_attn_decode_bf16: argument checks, run-time dispatch, and the split of the work
// into (head, chunk of kChunk positions) items merged per head by log-sum-exp.
//
// Every head is always cut into the same chunks (they depend only on seq_len) and its
// chunks are merged in index order, so the result is bit-identical for any thread count;
// ParallelFor only decides which thread computes which item.
#include "tcpu/attention.h"

#include <cmath>
#include <cstdint>

#include "kernels/flash_attn/flash_attn_kernels.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"
#include "tcpu/bf16.h"

namespace tcpu {
namespace flash_attn {
namespace {

constexpr KernelVariant<const FlashAttnKernel*> kFlashAttnVariants[] = {
#if defined(__aarch64__)
    {"flash_attn_decode_bf16:sve2", TCPU_FEATURE_SVE2, &kFlashAttnSve2},
    {"flash_attn_decode_bf16:neon", 0, &kFlashAttnNeon},
#endif
    {"flash_attn_decode_bf16:ref", 0, &kFlashAttnRef},
};

const KernelVariant<const FlashAttnKernel*>& Selected() {
  static const KernelVariant<const FlashAttnKernel*>& variant = SelectVariant(kFlashAttnVariants);
  return variant;
}

constexpr const char* kFn = "tcpu_flash_attn_decode_bf16";

// Strides must keep positions and heads from overlapping; the products bound the highest
// element read, so checking them also rules out pointer-offset overflow.
int CheckStrides(const char* which, int64_t num_kv_heads, int64_t head_dim, int64_t seq_len,
                 int64_t head_stride, int64_t seq_stride) {
  if (seq_stride < head_dim) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %s_seq_stride = %lld < head_dim = %lld", kFn,
                which, static_cast<long long>(seq_stride), static_cast<long long>(head_dim));
  }
  int64_t per_head = 0;
  TCPU_CHECK_MUL(kFn, seq_len, seq_stride, &per_head);
  if (head_stride < per_head) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: %s_head_stride = %lld < seq_len * %s_seq_stride = %lld", kFn, which,
                static_cast<long long>(head_stride), which, static_cast<long long>(per_head));
  }
  int64_t total = 0;
  TCPU_CHECK_MUL(kFn, head_stride, num_kv_heads, &total);
  return TCPU_OK;
}

}  // namespace

const KernelVariant<const FlashAttnKernel*>* FlashAttnVariantTable(int* count) {
  *count = static_cast<int>(sizeof(kFlashAttnVariants) / sizeof(kFlashAttnVariants[0]));
  return kFlashAttnVariants;
}

int FlashAttnWith(const FlashAttnKernel& kernel, const uint16_t* q, const uint16_t* k_cache,
                  const uint16_t* v_cache, uint16_t* out, int64_t num_heads, int64_t num_kv_heads,
                  int64_t head_dim, int64_t seq_len, int64_t k_head_stride, int64_t k_seq_stride,
                  int64_t v_head_stride, int64_t v_seq_stride, float sm_scale) {
  TCPU_CHECK_NOT_NULL(kFn, q);
  TCPU_CHECK_NOT_NULL(kFn, k_cache);
  TCPU_CHECK_NOT_NULL(kFn, v_cache);
  TCPU_CHECK_NOT_NULL(kFn, out);
  TCPU_CHECK_POSITIVE(kFn, num_heads);
  TCPU_CHECK_POSITIVE(kFn, num_kv_heads);
  TCPU_CHECK_POSITIVE(kFn, head_dim);
  TCPU_CHECK_POSITIVE(kFn, seq_len);
  if (num_heads % num_kv_heads != 0) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: num_heads = %lld not a multiple of "
                "num_kv_heads = %lld", kFn, static_cast<long long>(num_heads),
                static_cast<long long>(num_kv_heads));
  }
  if (int st = CheckStrides("k", num_kv_heads, head_dim, seq_len, k_head_stride, k_seq_stride);
      st != TCPU_OK) {
    return st;
  }
  if (int st = CheckStrides("v", num_kv_heads, head_dim, seq_len, v_head_stride, v_seq_stride);
      st != TCPU_OK) {
    return st;
  }
  if (!(sm_scale > 0.0f && std::isfinite(sm_scale))) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: sm_scale = %g, expected > 0 and finite", kFn,
                static_cast<double>(sm_scale));
  }
  // Scratch: q scaled to fp32 [num_heads][head_dim], then per (head, chunk) the partial state
  // [acc[head_dim], max, sum].
  const int64_t chunks = (seq_len + kChunk - 1) / kChunk;
  int64_t q_elems = 0, items = 0, part_total = 0, floats = 0, bytes = 0;
  TCPU_CHECK_MUL(kFn, num_heads, head_dim, &q_elems);
  TCPU_CHECK_MUL(kFn, num_heads, chunks, &items);
  if (head_dim > INT64_MAX - 2) return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: head_dim", kFn);
  const int64_t part_stride = head_dim + 2;
  TCPU_CHECK_MUL(kFn, items, part_stride, &part_total);
  if (part_total > INT64_MAX - q_elems) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: scratch size overflows int64", kFn);
  }
  floats = q_elems + part_total;
  TCPU_CHECK_MUL(kFn, floats, static_cast<int64_t>(sizeof(float)), &bytes);
  float* scratch = static_cast<float*>(ScratchBytes(bytes));
  if (scratch == nullptr) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: %lld bytes of scratch", kFn,
                static_cast<long long>(bytes));
  }
  float* qf = scratch;
  float* parts = scratch + q_elems;
  for (int64_t i = 0; i < q_elems; ++i) qf[i] = tcpu_bf16_to_f32(q[i]) * sm_scale;

  const int64_t group = num_heads / num_kv_heads;
  int st = ParallelFor(items, 1, [&](int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      const int64_t h = item / chunks, c = item % chunks;
      const int64_t g = h / group;
      const int64_t s0 = c * kChunk;
      const int64_t n = seq_len - s0 < kChunk ? seq_len - s0 : kChunk;
      float* part = parts + item * part_stride;
      kernel.chunk(qf + h * head_dim, k_cache + g * k_head_stride + s0 * k_seq_stride,
                   v_cache + g * v_head_stride + s0 * v_seq_stride, head_dim, n, k_seq_stride,
                   v_seq_stride, part, part + head_dim, part + head_dim + 1);
    }
  });
  if (st != TCPU_OK) return st;
  // The merge is cheap (num_heads * chunks * head_dim), so it runs in float64 in chunk order.
  st = ParallelFor(num_heads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t h = begin; h < end; ++h) {
      const float* first = parts + h * chunks * part_stride;
      double m = -INFINITY;
      for (int64_t c = 0; c < chunks; ++c) m = std::fmax(m, first[c * part_stride + head_dim]);
      double l = 0.0;
      for (int64_t c = 0; c < chunks; ++c) {
        const float* part = first + c * part_stride;
        l += part[head_dim + 1] * std::exp(part[head_dim] - m);
      }
      for (int64_t i = 0; i < head_dim; ++i) {
        double o = 0.0;
        for (int64_t c = 0; c < chunks; ++c) {
          const float* part = first + c * part_stride;
          o += part[i] * std::exp(part[head_dim] - m);
        }
        out[h * head_dim + i] = tcpu_f32_to_bf16(static_cast<float>(o / l));
      }
    }
  });
  if (st != TCPU_OK) return st;
  return Succeed();
}

}  // namespace flash_attn

const char* FlashAttnDecodeBf16Variant() { return flash_attn::Selected().name; }

}  // namespace tcpu

extern "C" int tcpu_flash_attn_decode_bf16(const uint16_t* q, const uint16_t* k_cache,
                                           const uint16_t* v_cache, uint16_t* out,
                                           int64_t num_heads, int64_t num_kv_heads,
                                           int64_t head_dim, int64_t seq_len,
                                           int64_t k_head_stride, int64_t k_seq_stride,
                                           int64_t v_head_stride, int64_t v_seq_stride,
                                           float sm_scale) {
  return tcpu::flash_attn::FlashAttnWith(*tcpu::flash_attn::Selected().fn, q, k_cache, v_cache,
                                         out, num_heads, num_kv_heads, head_dim, seq_len,
                                         k_head_stride, k_seq_stride, v_head_stride, v_seq_stride,
                                         sm_scale);
}
