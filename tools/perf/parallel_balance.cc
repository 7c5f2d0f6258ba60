// How evenly a decode step and a prefill block spread over the thread pool, at MiniCPM5-1B's
// layer shapes: one layer and a 32768-token vocabulary (every layer of the real model has the
// same parallel regions, and the lm_head's rows split the same way at 130560), INT8 and INT4.
// Regions (tcpu/perf.h): "decode_step int8|int4", one step at the last position of a 512-token
// context; "prefill_block int8|int4", one 64-token block from position 0. Counted with
//   bazel run //tools/perf:count -- --threads=8 bazel-bin/tools/perf/parallel_balance
// and held by //tools/perf:parallel_balance_gate (busiest worker / mean worker <= 1.05).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/model/prefill.h"
#include "kernels/decode_step/synthetic_model.h"
#include "tcpu/perf.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/transformer.h"

namespace {

constexpr int64_t kLayers = 1, kVocab = 32768, kContext = 512, kBlock = 64;

using AlignedBytes = std::unique_ptr<uint8_t, decltype(&std::free)>;
AlignedBytes Aligned(int64_t bytes) {
  return AlignedBytes(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)),
                      &std::free);
}

int Fail(const char* what) {
  std::fprintf(stderr, "parallel_balance: %s: %s\n", what, tcpu_last_error_detail());
  return 1;
}

int Measure(bool int4) {
  const tcpu_layer_shape& shape = tcpu::testing::kMiniCpm5_1BLayer;
  const std::unique_ptr<tcpu::testing::SyntheticModel> model =
      tcpu::testing::MakeSyntheticModel(shape, kLayers, kVocab, int4);
  if (model == nullptr) {
    std::fprintf(stderr, "parallel_balance: cannot build the model (out of memory?)\n");
    return 1;
  }
  const tcpu_model_weights& w = model->weights;
  const int64_t cache = kLayers * shape.num_kv_heads * kContext * shape.head_dim;
  std::vector<uint16_t> k_cache(cache, 0x3c00), v_cache(cache, 0x3c00);
  std::vector<float> logits(kVocab);
  int32_t next = 0;

  const int64_t step_bytes = tcpu_decode_step_workspace_size(&w);
  const int64_t block_bytes = tcpu::model::PrefillWorkspaceSize(w);
  if (step_bytes < 0 || block_bytes < 0) return Fail("workspace size");
  AlignedBytes ws = Aligned(step_bytes > block_bytes ? step_bytes : block_bytes);
  if (ws == nullptr ||
      tcpu_scratch_reserve(tcpu::model::PrefillGemmScratchSize(w)) != TCPU_OK) {
    std::fprintf(stderr, "parallel_balance: out of memory\n");
    return 1;
  }

  const char* step_region = int4 ? "decode_step int4" : "decode_step int8";
  tcpu_perf_region_begin(step_region);
  int status = tcpu_decode_step(&w, k_cache.data(), v_cache.data(), kContext, kContext - 1, 17,
                                logits.data(), &next, ws.get(), step_bytes);
  tcpu_perf_region_end(step_region);
  if (status != TCPU_OK) return Fail("decode step");

  std::vector<int32_t> tokens(kBlock);
  for (int64_t t = 0; t < kBlock; ++t) tokens[t] = static_cast<int32_t>((t * 7919) % kVocab);
  const char* block_region = int4 ? "prefill_block int4" : "prefill_block int8";
  tcpu_perf_region_begin(block_region);
  status = tcpu::model::Prefill(w, k_cache.data(), v_cache.data(), kContext, 0, tokens.data(),
                                kBlock, logits.data(), &next, ws.get());
  tcpu_perf_region_end(block_region);
  if (status != TCPU_OK) return Fail("prefill block");
  return 0;
}

}  // namespace

int main() {
  if (int s = Measure(false); s != 0) return s;
  return Measure(true);
}
