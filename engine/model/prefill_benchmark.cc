// A 128-token prompt through a model with MiniCPM5-1B's shapes (hidden 1536, 24 layers, 16
// heads, 2 kv heads, head_dim 128, intermediate 4608, vocab 130560; INT8 weights generated in
// memory), batched (tcpu::model::Prefill: one GEMM per projection per 64 tokens, the logits
// of the last token only) against token by token (128 tcpu_decode_step calls, the
// logits of every token, as tcpu_decoder_step does). Reports prompt tokens/s.
//   bazel build --config=aarch64 //engine/model:prefill_benchmark      (boards)
//   bazel run //engine/model:prefill_benchmark_qemu -- --benchmark_min_time=0
// Guest instructions per prompt token (QEMU, VL128): count one run of
//   --benchmark_filter='BM_Prompt128/mode:1/threads:1/' --benchmark_min_time=0   (batched)
//   --benchmark_filter='BM_Prompt128/mode:0/threads:1/' --benchmark_min_time=0   (stepwise)
//   --benchmark_filter='BM_BuildModel' --benchmark_min_time=0                    (setup only)
// each makes exactly one iteration; (count - setup count) / 128 is instructions per token.
// Each prompt is the perf region "prompt"; with --threads=N (and threads:0 in the filter) the
// count also says how evenly its parallel regions spread over N workers.
// BM_StepBatch8: one batched decode step of 8 concurrent streams (what tcpu_decoder_step_batch
// runs: every linear layer one GEMM of 8 rows, attention per stream over its own KV cache at a
// context of 512, the 8 rows' logits), the perf region "step_batch" (8 tokens). bytes/token:
// the weights read once per step / 8, plus each stream's embedding row and its KV cache
// (//tools/perf:board_prediction's 8-stream row).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/model/prefill.h"
#include "engine/model/rows.h"
#include "kernels/decode_step/synthetic_model.h"
#include "runtime/testing/benchmark_util.h"
#include "tcpu/perf.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/transformer.h"

namespace {

using tcpu::testing::kMiniCpm5_1BLayer;
using tcpu::testing::kMiniCpm5_1BLayers;
using tcpu::testing::kMiniCpm5_1BVocab;
using tcpu::testing::SyntheticModel;

constexpr int64_t kPrompt = 128;

SyntheticModel* TheModel() {  // INT8, built once
  static SyntheticModel* model = tcpu::testing::MakeSyntheticModel(
                                     kMiniCpm5_1BLayer, kMiniCpm5_1BLayers, kMiniCpm5_1BVocab,
                                     false)
                                     .release();
  return model;
}

using AlignedBytes = std::unique_ptr<uint8_t, decltype(&std::free)>;
AlignedBytes Aligned(int64_t bytes) {
  return AlignedBytes(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)),
                      &std::free);
}

void BM_BuildModel(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(TheModel());
}
BENCHMARK(BM_BuildModel)->Iterations(1);

// mode 0: token by token (tcpu_decode_step), 1: batched (Prefill).
void BM_Prompt128(benchmark::State& state) {
  if (!tcpu::testing::SetBenchmarkThreads(state, state.range(1))) return;
  SyntheticModel* model = TheModel();
  if (model == nullptr) {
    state.SkipWithError("cannot build the model (out of memory?)");
    return;
  }
  const tcpu_model_weights& w = model->weights;
  const int64_t cache =
      kMiniCpm5_1BLayers * kMiniCpm5_1BLayer.num_kv_heads * kPrompt * kMiniCpm5_1BLayer.head_dim;
  std::vector<uint16_t> k_cache(cache), v_cache(cache);
  std::vector<float> logits(kMiniCpm5_1BVocab);
  std::vector<int32_t> prompt(kPrompt);
  for (int64_t t = 0; t < kPrompt; ++t) prompt[t] = static_cast<int32_t>((t * 7919) % kMiniCpm5_1BVocab);
  const bool batched = state.range(0) == 1;
  const int64_t ws_bytes = batched ? tcpu::model::PrefillWorkspaceSize(w)
                                   : tcpu_decode_step_workspace_size(&w);
  AlignedBytes ws = Aligned(ws_bytes);
  if (ws == nullptr ||
      tcpu_scratch_reserve(tcpu::model::PrefillGemmScratchSize(w)) != TCPU_OK) {
    state.SkipWithError("out of memory");
    return;
  }
  int32_t next = 0;
  for (auto _ : state) {
    int status = TCPU_OK;
    tcpu_perf_region_begin("prompt");
    if (batched) {
      status = tcpu::model::Prefill(w, k_cache.data(), v_cache.data(), kPrompt, 0, prompt.data(),
                                    kPrompt, logits.data(), &next, ws.get());
    } else {
      for (int64_t t = 0; t < kPrompt && status == TCPU_OK; ++t) {
        status = tcpu_decode_step(&w, k_cache.data(), v_cache.data(), kPrompt, t, prompt[t],
                                  logits.data(), &next, ws.get(), ws_bytes);
      }
    }
    tcpu_perf_region_end("prompt");
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      return;
    }
  }
  state.counters["tokens/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kPrompt), benchmark::Counter::kIsRate);
  state.counters["threads"] = tcpu_get_num_threads();
}
BENCHMARK(BM_Prompt128)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"mode", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

constexpr int64_t kStreams = 8, kContext = 512;

void BM_StepBatch8(benchmark::State& state) {
  if (!tcpu::testing::SetBenchmarkThreads(state, state.range(0))) return;
  SyntheticModel* model = TheModel();
  if (model == nullptr) {
    state.SkipWithError("cannot build the model (out of memory?)");
    return;
  }
  namespace tm = tcpu::model;
  const tcpu_model_weights& w = model->weights;
  const tcpu_layer_shape& shape = kMiniCpm5_1BLayer;
  const int64_t cache = kMiniCpm5_1BLayers * shape.num_kv_heads * kContext * shape.head_dim;
  std::vector<std::vector<uint16_t>> k_caches(kStreams, std::vector<uint16_t>(cache, 0x3c00));
  std::vector<std::vector<uint16_t>> v_caches(kStreams, std::vector<uint16_t>(cache, 0x3c00));
  const int64_t ws_bytes = tm::RowsWorkspaceSize(w);
  AlignedBytes ws = Aligned(ws_bytes);
  if (ws_bytes < 0 || ws == nullptr ||
      tcpu_scratch_reserve(tm::RowsGemmScratchSize(w)) != TCPU_OK) {
    state.SkipWithError("out of memory");
    return;
  }
  tm::RowCache caches[kStreams];
  int32_t tokens[kStreams];
  for (int64_t s = 0; s < kStreams; ++s) {
    // The last position of the context: attention reads all 512 cached tokens of the stream.
    caches[s] = {k_caches[s].data(), v_caches[s].data(), kContext, kContext - 1};
    tokens[s] = static_cast<int32_t>((s * 7919 + 17) % kMiniCpm5_1BVocab);
  }
  for (auto _ : state) {
    tcpu_perf_region_begin("step_batch");
    int status = tm::RunRows(w, tokens, caches, kStreams, tm::RowAttention::kIndependent, ws.get());
    if (status == TCPU_OK) {
      status = tm::RowLogits(w, 0, kStreams, ws.get(), tm::RowLogitsBuffer(w, ws.get()));
    }
    tcpu_perf_region_end("step_batch");
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      return;
    }
  }
  const int64_t embed_row = 2 * shape.hidden;                      // bf16, read by each stream
  const int64_t kv_bytes = 2 * cache * int64_t{sizeof(uint16_t)};  // k and v, read by each stream
  const double tokens_done = static_cast<double>(state.iterations() * kStreams);
  state.counters["bytes/token"] =
      static_cast<double>((model->bytes_per_token - embed_row) / kStreams + embed_row + kv_bytes);
  state.counters["weight_bytes/token"] =
      static_cast<double>((model->bytes_per_token - embed_row) / kStreams + embed_row);
  state.counters["kv_bytes/token"] = static_cast<double>(kv_bytes);
  state.counters["tokens/s"] = benchmark::Counter(tokens_done, benchmark::Counter::kIsRate);
  state.counters["threads"] = tcpu_get_num_threads();
}
BENCHMARK(BM_StepBatch8)
    ->Arg(0)
    ->Arg(1)
    ->ArgNames({"threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
