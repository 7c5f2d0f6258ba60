// One decode step of a model with MiniCPM5-1B's shapes (hidden 1536, 24 layers, 16 heads, 2 kv
// heads, head_dim 128, intermediate 4608, vocab 130560; weights generated in memory, every
// layer its own), at a context of 512 tokens, with INT8 (weights:0, W8A8) and INT4 (weights:1,
// W4A8, an fp16 scale per 32 weights) linear layers. Reports the weight bytes each token reads
// (every packed matrix with its scales, the norms and one embedding row; the step reads each
// once) and tokens/s, so bytes/token x tokens/s against the board's DRAM bandwidth says how
// close decode runs to its bound. bytes/token: int8 882,129,472 (882 MB), int4 495,174,208
// (495 MB: 0.5625 bytes per weight, the fp16 group scales included).
//   bazel build --config=aarch64 //kernels/decode_step:decode_step_benchmark
//   bazel run //kernels/decode_step:decode_step_benchmark_qemu   (emulated: time means little)
// Each step is the perf region "decode_step": instructions per token, and at more than one
// thread how evenly the step's parallel regions spread over the workers:
//   bazel build --config=aarch64 -c opt //kernels/decode_step:decode_step_benchmark
//   bazel run -c opt //tools/perf:count -- --threads=8 bazel-bin/kernels/decode_step/decode_step_benchmark \
//       --benchmark_filter='threads:0/weights:0' --benchmark_min_time=0
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/testing/benchmark_util.h"
#include "kernels/decode_step/synthetic_model.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/transformer.h"

namespace {

using tcpu::testing::kMiniCpm5_1BLayer;
using tcpu::testing::kMiniCpm5_1BLayers;
using tcpu::testing::kMiniCpm5_1BVocab;
using tcpu::testing::SyntheticModel;

constexpr int64_t kContext = 512;

// Built on first use (only the formats a run's filter selects take memory).
SyntheticModel* GetModel(bool int4) {
  static std::unique_ptr<SyntheticModel> models[2];
  static bool tried[2] = {false, false};
  if (!tried[int4]) {
    tried[int4] = true;
    models[int4] =
        tcpu::testing::MakeSyntheticModel(kMiniCpm5_1BLayer, kMiniCpm5_1BLayers, kMiniCpm5_1BVocab,
                                          int4);
  }
  return models[int4].get();
}

void BM_DecodeStepMiniCPM5_1B(benchmark::State& state) {
  if (!tcpu::testing::SetBenchmarkThreads(state, state.range(0))) return;
  SyntheticModel* model = GetModel(state.range(1) != 0);
  if (model == nullptr) {
    state.SkipWithError("cannot build the model (out of memory?)");
    return;
  }
  const int64_t cache =
      kMiniCpm5_1BLayers * kMiniCpm5_1BLayer.num_kv_heads * kContext * kMiniCpm5_1BLayer.head_dim;
  std::vector<uint16_t> k_cache(cache, 0x3c00), v_cache(cache, 0x3c00);
  std::vector<float> logits(kMiniCpm5_1BVocab);
  const int64_t ws_bytes = tcpu_decode_step_workspace_size(&model->weights);
  std::unique_ptr<uint8_t, decltype(&std::free)> ws(
      static_cast<uint8_t*>(std::aligned_alloc(64, (ws_bytes + 63) / 64 * 64)), &std::free);
  int32_t token = 17;
  for (auto _ : state) {
    // The last position of the context: attention reads all 512 cached tokens.
    tcpu_perf_region_begin("decode_step");
    const int status =
        tcpu_decode_step(&model->weights, k_cache.data(), v_cache.data(), kContext, kContext - 1,
                         token, logits.data(), &token, ws.get(), ws_bytes);
    tcpu_perf_region_end("decode_step");
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      return;
    }
  }
  const double tokens = static_cast<double>(state.iterations());
  state.counters["bytes/token"] = static_cast<double>(model->bytes_per_token);
  state.counters["tokens/s"] = benchmark::Counter(tokens, benchmark::Counter::kIsRate);
  state.counters["weight_bytes/s"] =
      benchmark::Counter(tokens * static_cast<double>(model->bytes_per_token),
                         benchmark::Counter::kIsRate, benchmark::Counter::kIs1024);
  state.counters["threads"] = tcpu_get_num_threads();
}
BENCHMARK(BM_DecodeStepMiniCPM5_1B)
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->ArgNames({"threads", "weights"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
