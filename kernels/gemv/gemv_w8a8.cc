// Shared activation quantization and the parallel split of one or more GEMVs (gemv_w8a8.h).
#include "kernels/gemv/gemv_w8a8.h"

#include <cstring>

#include "runtime/check.h"
#include "runtime/scratch_arena.h"
#include "runtime/thread_pool.h"

namespace tcpu::gemv {
namespace {

// Below this many MACs the GEMVs stay on the calling thread (waking workers costs more);
// above it every task gets at least kMinMacsPerTask.
constexpr int64_t kParallelMacs = int64_t{1} << 18;
constexpr int64_t kMinMacsPerTask = int64_t{1} << 17;

// 8-byte k chunks of the packed format covering k activations.
int64_t Chunks(int64_t k) { return k / kPackBytes + (k % kPackBytes != 0 ? 1 : 0); }

}  // namespace

int RunGemvs(const GemvKernel& kernel, const GemvArgs* args, const int64_t* blocks, int count) {
  // Pairs of blocks of all GEMVs form one index space; pair p of GEMV i is entry
  // first_pair[i] + p. Every GEMV has the same chunks, so every pair costs the same.
  int64_t first_pair[kMaxSharedGemvs + 1] = {0};
  for (int i = 0; i < count; ++i) first_pair[i + 1] = first_pair[i] + (blocks[i] + 1) / 2;
  const int64_t pairs = first_pair[count];
  const int64_t macs_per_pair = 2 * args[0].chunks * kPackTileBytes;
  auto run_pairs = [&](int64_t begin, int64_t end) {
    for (int i = 0; i < count && begin < end; ++i) {
      if (begin >= first_pair[i + 1]) continue;
      const int64_t last = end < first_pair[i + 1] ? end : first_pair[i + 1];
      const int64_t block_begin = 2 * (begin - first_pair[i]);
      const int64_t block_end = 2 * (last - first_pair[i]);
      kernel.run_blocks(args[i], block_begin, block_end < blocks[i] ? block_end : blocks[i]);
      begin = last;
    }
  };
  if (pairs * macs_per_pair < kParallelMacs) {
    run_pairs(0, pairs);
    return TCPU_OK;
  }
  const int64_t grain = macs_per_pair >= kMinMacsPerTask ? 1 : kMinMacsPerTask / macs_per_pair;
  return ParallelFor(pairs, grain, run_pairs);
}

int ActivationScratchBytes(const char* fn, const GemvKernel& kernel, int64_t k, int64_t* bytes) {
  TCPU_CHECK_POSITIVE(fn, k);
  const int64_t chunks = Chunks(k);
  int64_t prepared = 0;
  if (k > INT64_MAX - 127 || !CheckedMul(chunks, kernel.prepared_x_bytes_per_chunk, &prepared) ||
      prepared > INT64_MAX - 63 ||
      __builtin_add_overflow(AlignScratch(k), AlignScratch(prepared), bytes)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: scratch size for k = %lld overflows int64", fn,
                static_cast<long long>(k));
  }
  return TCPU_OK;
}

QuantizedActivation QuantizeActivation(const GemvKernel& kernel, const uint16_t* x, int64_t k,
                                       int8_t* scratch) {
  QuantizedActivation a;
  a.k = k;
  const float absmax = kernel.absmax_bf16(x, k);
  if (absmax == 0.0f) return a;  // As FlagTree: an all-zero activation gives y = 0.
  int8_t* q = scratch;
  kernel.quantize_bf16(x, k, 127.0f / absmax, q);
  a.q = q;
  a.scale = absmax / 127.0f;
  a.zero = false;
  if (kernel.prepare_x != nullptr) {
    int8_t* prepared = scratch + AlignScratch(k);
    kernel.prepare_x(q, k, Chunks(k), prepared);
    a.prepared = prepared;
  }
  return a;
}

int RunW8A8Gemvs(const GemvKernel& kernel, const QuantizedActivation& x, const W8A8Gemv* gemvs,
                 int count) {
  if (x.zero) {
    for (int i = 0; i < count; ++i) {
      const size_t n = static_cast<size_t>(gemvs[i].weights.layout.n);
      if (gemvs[i].y != nullptr) {
        std::memset(gemvs[i].y, 0, n * sizeof(uint16_t));
      } else {
        std::memset(gemvs[i].y_f32, 0, n * sizeof(float));
      }
    }
    return TCPU_OK;
  }
  GemvArgs args[kMaxSharedGemvs];
  int64_t blocks[kMaxSharedGemvs];
  for (int i = 0; i < count; ++i) {
    const PackedWeightsView& w = gemvs[i].weights;
    args[i].w = w.data;
    args[i].chunks = w.layout.chunks;
    args[i].n = w.layout.n;
    args[i].k = x.k;
    args[i].x = x.q;
    args[i].x_prepared = x.prepared;
    args[i].y_bf16 = gemvs[i].y;
    args[i].y_f32 = gemvs[i].y != nullptr ? nullptr : gemvs[i].y_f32;
    args[i].w_scales = gemvs[i].scales;
    args[i].x_scale = x.scale;
    blocks[i] = w.layout.blocks;
  }
  return RunGemvs(kernel, args, blocks, count);
}

}  // namespace tcpu::gemv
