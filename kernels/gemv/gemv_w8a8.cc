// Shared activation quantization and the parallel split of one or more GEMVs (gemv_w8a8.h).
#include "kernels/gemv/gemv_w8a8.h"

#include "runtime/check.h"
#include "runtime/parallel_units.h"
#include "runtime/scratch_arena.h"

namespace tcpu::gemv {
namespace {

// 8-byte k chunks of the packed format covering k activations.
int64_t Chunks(int64_t k) { return k / kPackBytes + (k % kPackBytes != 0 ? 1 : 0); }

}  // namespace

int64_t BlockPairs(int64_t blocks) { return (blocks + 1) / 2; }

int64_t MacsPerBlockPair(const I8GemvArgs& args) { return 2 * args.chunks * kPackTileBytes; }

void RunBlockPairs(const GemvKernel& kernel, const I8GemvArgs& args, int64_t blocks,
                   int64_t pair_begin, int64_t pair_end) {
  const int64_t block_end = 2 * pair_end;
  kernel.run_blocks(args, 2 * pair_begin, block_end < blocks ? block_end : blocks);
}

int RunGemv(const GemvKernel& kernel, const I8GemvArgs& args, int64_t blocks) {
  const int64_t pairs = BlockPairs(blocks);
  const int64_t macs = MacsPerBlockPair(args);
  return ParallelForUnits(&pairs, &macs, 1, [&](int, int64_t begin, int64_t end) {
    RunBlockPairs(kernel, args, blocks, begin, end);
  });
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

I8GemvArgs W8A8Args(const QuantizedActivation& x, const W8A8Gemv& gemv) {
  I8GemvArgs args;
  args.w = gemv.weights.data;
  args.chunks = gemv.weights.layout.chunks;
  args.n = gemv.weights.layout.n;
  args.k = x.k;
  args.x = x.q;
  args.x_prepared = x.prepared;
  args.y_bf16 = gemv.y;
  args.y_f32 = gemv.y != nullptr ? nullptr : gemv.y_f32;
  args.w_scales = gemv.scales;
  args.x_scale = x.scale;
  return args;
}

}  // namespace tcpu::gemv
