// tcpu_flash_attn_decode_bf16 and tcpu_flash_attn_prefill_bf16: argument checks, run-time
// dispatch, and the split of the work into items of (query, KV group, chunk of kChunk
// positions, up to kRowsPerItem q heads of the group), merged per (query, head) by log-sum-exp.
// Decode is the prefill of one query at position seq_len - 1.
//
// A (query, head) is always cut into the same chunks (they depend only on its own position)
// and its chunks are merged in index order, so the result is bit-identical for any thread count
// and any block of queries it is part of; ParallelFor only decides which thread computes which
// item.
#include "tcpu/attention.h"

#include <algorithm>
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

constexpr const char* kDecodeFn = "tcpu_flash_attn_decode_bf16";
constexpr const char* kPrefillFn = "tcpu_flash_attn_prefill_bf16";

// q heads of one KV group that one work item runs together at most (the kernels' largest row
// tile).
constexpr int64_t kRowsPerItem = 8;

// One call: queries t < num_queries at positions first_position + t, each attending to
// positions [0, first_position + t].
struct Attention {
  const uint16_t* q;
  const uint16_t* k_cache;
  const uint16_t* v_cache;
  uint16_t* out;
  int64_t num_queries = 0, num_heads = 0, num_kv_heads = 0, head_dim = 0, first_position = 0;
  int64_t k_head_stride = 0, k_seq_stride = 0, v_head_stride = 0, v_seq_stride = 0;
  float sm_scale = 0.0f;
};

// The fields both entry points take alike.
void SetShape(int64_t num_heads, int64_t num_kv_heads, int64_t head_dim, int64_t k_head_stride,
              int64_t k_seq_stride, int64_t v_head_stride, int64_t v_seq_stride, float sm_scale,
              Attention* a) {
  a->num_heads = num_heads;
  a->num_kv_heads = num_kv_heads;
  a->head_dim = head_dim;
  a->k_head_stride = k_head_stride;
  a->k_seq_stride = k_seq_stride;
  a->v_head_stride = v_head_stride;
  a->v_seq_stride = v_seq_stride;
  a->sm_scale = sm_scale;
}

// Strides must keep positions and heads from overlapping; the products bound the highest
// element read, so checking them also rules out pointer-offset overflow. `positions` is how
// many the caches hold (`positions_name` says what it was called in the call).
int CheckStrides(const char* fn, const char* which, const char* positions_name,
                 int64_t num_kv_heads, int64_t head_dim, int64_t positions, int64_t head_stride,
                 int64_t seq_stride) {
  if (seq_stride < head_dim) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %s_seq_stride = %lld < head_dim = %lld", fn, which,
                static_cast<long long>(seq_stride), static_cast<long long>(head_dim));
  }
  int64_t per_head = 0;
  TCPU_CHECK_MUL(fn, positions, seq_stride, &per_head);
  if (head_stride < per_head) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %s_head_stride = %lld < %s * %s_seq_stride = %lld",
                fn, which, static_cast<long long>(head_stride), positions_name, which,
                static_cast<long long>(per_head));
  }
  int64_t total = 0;
  TCPU_CHECK_MUL(fn, head_stride, num_kv_heads, &total);
  return TCPU_OK;
}

// The checks both entry points share; sizes and `positions` (> 0) were checked by the caller.
int CheckCommon(const char* fn, const Attention& a, const char* positions_name, int64_t positions) {
  TCPU_CHECK_NOT_NULL(fn, a.q);
  TCPU_CHECK_NOT_NULL(fn, a.k_cache);
  TCPU_CHECK_NOT_NULL(fn, a.v_cache);
  TCPU_CHECK_NOT_NULL(fn, a.out);
  TCPU_CHECK_POSITIVE(fn, a.num_heads);
  TCPU_CHECK_POSITIVE(fn, a.num_kv_heads);
  TCPU_CHECK_POSITIVE(fn, a.head_dim);
  if (a.num_heads % a.num_kv_heads != 0) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: num_heads = %lld not a multiple of num_kv_heads = %lld", fn,
                static_cast<long long>(a.num_heads), static_cast<long long>(a.num_kv_heads));
  }
  if (int st = CheckStrides(fn, "k", positions_name, a.num_kv_heads, a.head_dim, positions,
                            a.k_head_stride, a.k_seq_stride);
      st != TCPU_OK) {
    return st;
  }
  if (int st = CheckStrides(fn, "v", positions_name, a.num_kv_heads, a.head_dim, positions,
                            a.v_head_stride, a.v_seq_stride);
      st != TCPU_OK) {
    return st;
  }
  if (!(a.sm_scale > 0.0f && std::isfinite(a.sm_scale))) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: sm_scale = %g, expected > 0 and finite", fn,
                static_cast<double>(a.sm_scale));
  }
  return TCPU_OK;
}

int64_t Chunks(int64_t positions) { return (positions + kChunk - 1) / kChunk; }

// The query whose items come at `slot` in the item order: first, last, second, second last, ...
// A query's work grows with its position and ParallelFor gives each thread one contiguous
// range of items, so pairing early and late queries evens out the threads' shares.
int64_t QueryAt(int64_t slot, int64_t queries) {
  return slot % 2 == 0 ? slot / 2 : queries - 1 - slot / 2;
}

// Output elements the merge accumulates at once (float64 sums on the stack): the loop over
// them is the inner one, so it vectorizes, and each chunk's weight is computed once per block.
constexpr int64_t kMergeBlock = 256;

// The state of (query t, head h, chunk c) in the scratch: [acc[head_dim], max, sum] at
// index (t * max_chunks + c) * num_heads + h, so the q heads of one group are adjacent.
// The merge is cheap (chunks * head_dim), so it runs in float64, each sum in chunk order:
// out = sum_c acc_c w_c / sum_c l_c w_c with w_c = e^(m_c - M), M = max_c m_c.
void MergeChunks(const float* first, int64_t chunks, int64_t chunk_stride, int64_t head_dim,
                 uint16_t* out) {
  double m = -INFINITY;
  for (int64_t c = 0; c < chunks; ++c) m = std::fmax(m, first[c * chunk_stride + head_dim]);
  double l = 0.0;
  for (int64_t c = 0; c < chunks; ++c) {
    const float* part = first + c * chunk_stride;
    l += part[head_dim + 1] * std::exp(part[head_dim] - m);
  }
  for (int64_t i0 = 0; i0 < head_dim; i0 += kMergeBlock) {
    const int64_t len = std::min(kMergeBlock, head_dim - i0);
    double o[kMergeBlock];
    for (int64_t i = 0; i < len; ++i) o[i] = 0.0;
    for (int64_t c = 0; c < chunks; ++c) {
      const float* part = first + c * chunk_stride;
      const double w = std::exp(part[head_dim] - m);
      for (int64_t i = 0; i < len; ++i) o[i] += part[i0 + i] * w;
    }
    for (int64_t i = 0; i < len; ++i) out[i0 + i] = tcpu_f32_to_bf16(static_cast<float>(o[i] / l));
  }
}

// Runs a checked call: scratch, the (query, group, chunk, head tile) items, the merge.
int Run(const char* fn, const FlashAttnKernel& kernel, const Attention& a) {
  const int64_t heads = a.num_heads, d = a.head_dim, queries = a.num_queries;
  const int64_t group = heads / a.num_kv_heads;
  const int64_t max_chunks = Chunks(a.first_position + queries);
  // Fewer items than workers would leave workers idle (a decode step: one query, a few KV
  // groups and chunks): then the head tiles shrink until every worker has an item. Each row's
  // arithmetic does not depend on its tile, so this never changes a bit.
  int64_t rows_per_item = std::min(kRowsPerItem, group);
  if (const int threads = NumThreads(); threads > 1) {
    int64_t group_items = 0;  // items with one tile per KV group
    for (int64_t t = 0; t < queries && group_items < threads; ++t) {
      group_items += Chunks(a.first_position + t + 1) * a.num_kv_heads;
    }
    if (group_items < threads) {
      const int64_t tiles_wanted = (threads + group_items - 1) / group_items;
      rows_per_item = std::max<int64_t>(1, std::min(rows_per_item,
                                                    (group + tiles_wanted - 1) / tiles_wanted));
    }
  }
  const int64_t tiles = (group + rows_per_item - 1) / rows_per_item;
  // Scratch: the items before each slot of QueryAt's order [queries + 1] (int64), q scaled to
  // fp32 [queries][heads][d], then the chunk states [queries][max_chunks][heads][d + 2].
  int64_t q_elems = 0, states = 0, part_total = 0, float_bytes = 0;
  TCPU_CHECK_MUL(fn, queries, heads, &q_elems);
  TCPU_CHECK_MUL(fn, q_elems, d, &q_elems);
  TCPU_CHECK_MUL(fn, queries, max_chunks, &states);
  TCPU_CHECK_MUL(fn, states, heads, &states);
  if (d > INT64_MAX - 2) return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: head_dim", fn);
  const int64_t part_stride = d + 2;
  TCPU_CHECK_MUL(fn, states, part_stride, &part_total);
  // Bounding the floats by INT64_MAX / 16 keeps their bytes plus the prefix (8 bytes per
  // query, queries <= q_elems) far from overflow.
  if (part_total > INT64_MAX / 16 - q_elems) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: scratch size overflows int64", fn);
  }
  TCPU_CHECK_MUL(fn, q_elems + part_total, static_cast<int64_t>(sizeof(float)), &float_bytes);
  const int64_t prefix_bytes = AlignScratch((queries + 1) * static_cast<int64_t>(sizeof(int64_t)));
  const int64_t bytes = prefix_bytes + float_bytes;
  uint8_t* scratch = static_cast<uint8_t*>(ScratchBytes(bytes));
  if (scratch == nullptr) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: %lld bytes of scratch", fn,
                static_cast<long long>(bytes));
  }
  int64_t* items_before = reinterpret_cast<int64_t*>(scratch);
  float* qf = reinterpret_cast<float*>(scratch + prefix_bytes);
  float* parts = qf + q_elems;
  for (int64_t i = 0; i < q_elems; ++i) qf[i] = tcpu_bf16_to_f32(a.q[i]) * a.sm_scale;
  const int64_t items_per_chunk = a.num_kv_heads * tiles;
  items_before[0] = 0;
  for (int64_t slot = 0; slot < queries; ++slot) {
    const int64_t t = QueryAt(slot, queries);
    items_before[slot + 1] =
        items_before[slot] + Chunks(a.first_position + t + 1) * items_per_chunk;
  }

  int st = ParallelFor(items_before[queries], 1, [&](int64_t begin, int64_t end) {
    int64_t slot =
        std::upper_bound(items_before, items_before + queries + 1, begin) - items_before - 1;
    for (int64_t item = begin; item < end; ++item) {
      while (item >= items_before[slot + 1]) ++slot;
      const int64_t t = QueryAt(slot, queries);
      const int64_t local = item - items_before[slot];
      const int64_t c = local / items_per_chunk, g = local % items_per_chunk / tiles;
      const int64_t h = g * group + local % tiles * rows_per_item;
      const int64_t rows = std::min(rows_per_item, (g + 1) * group - h);
      const int64_t s0 = c * kChunk;
      const int64_t n = std::min(kChunk, a.first_position + t + 1 - s0);
      kernel.chunk(
          qf + (t * heads + h) * d, d, rows, a.k_cache + g * a.k_head_stride + s0 * a.k_seq_stride,
          a.v_cache + g * a.v_head_stride + s0 * a.v_seq_stride, d, n, a.k_seq_stride,
          a.v_seq_stride, parts + ((t * max_chunks + c) * heads + h) * part_stride, part_stride);
    }
  });
  if (st != TCPU_OK) return st;
  st = ParallelFor(queries * heads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t t = row / heads, h = row % heads;
      MergeChunks(parts + (t * max_chunks * heads + h) * part_stride,
                  Chunks(a.first_position + t + 1), heads * part_stride, d, a.out + row * d);
    }
  });
  if (st != TCPU_OK) return st;
  return Succeed();
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
  TCPU_CHECK_POSITIVE(kDecodeFn, seq_len);
  Attention a{q, k_cache, v_cache, out};
  a.num_queries = 1;
  a.first_position = seq_len - 1;
  SetShape(num_heads, num_kv_heads, head_dim, k_head_stride, k_seq_stride, v_head_stride,
           v_seq_stride, sm_scale, &a);
  if (int st = CheckCommon(kDecodeFn, a, "seq_len", seq_len); st != TCPU_OK) return st;
  return Run(kDecodeFn, kernel, a);
}

int FlashAttnPrefillWith(const FlashAttnKernel& kernel, const uint16_t* q, const uint16_t* k_cache,
                         const uint16_t* v_cache, uint16_t* out, int64_t num_queries,
                         int64_t num_heads, int64_t num_kv_heads, int64_t head_dim,
                         int64_t first_position, int64_t k_head_stride, int64_t k_seq_stride,
                         int64_t v_head_stride, int64_t v_seq_stride, float sm_scale) {
  TCPU_CHECK_POSITIVE(kPrefillFn, num_queries);
  if (first_position < 0 || first_position > INT64_MAX - num_queries) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: first_position = %lld, expected >= 0 and first_position + num_queries "
                "(%lld) within int64",
                kPrefillFn, static_cast<long long>(first_position),
                static_cast<long long>(num_queries));
  }
  Attention a{q, k_cache, v_cache, out};
  a.num_queries = num_queries;
  a.first_position = first_position;
  SetShape(num_heads, num_kv_heads, head_dim, k_head_stride, k_seq_stride, v_head_stride,
           v_seq_stride, sm_scale, &a);
  if (int st = CheckCommon(kPrefillFn, a, "(first_position + num_queries)",
                           first_position + num_queries);
      st != TCPU_OK) {
    return st;
  }
  return Run(kPrefillFn, kernel, a);
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

extern "C" int tcpu_flash_attn_prefill_bf16(const uint16_t* q, const uint16_t* k_cache,
                                            const uint16_t* v_cache, uint16_t* out,
                                            int64_t num_queries, int64_t num_heads,
                                            int64_t num_kv_heads, int64_t head_dim,
                                            int64_t first_position, int64_t k_head_stride,
                                            int64_t k_seq_stride, int64_t v_head_stride,
                                            int64_t v_seq_stride, float sm_scale) {
  return tcpu::flash_attn::FlashAttnPrefillWith(
      *tcpu::flash_attn::Selected().fn, q, k_cache, v_cache, out, num_queries, num_heads,
      num_kv_heads, head_dim, first_position, k_head_stride, k_seq_stride, v_head_stride,
      v_seq_stride, sm_scale);
}
