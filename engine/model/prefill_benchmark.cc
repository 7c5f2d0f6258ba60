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
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/model/prefill.h"
#include "runtime/testing/benchmark_util.h"
#include "tcpu/gemv.h"
#include "tcpu/perf.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/transformer.h"

namespace {

constexpr tcpu_layer_shape kShape = {1536, 4608, 16, 2, 128, 1e-6f, 1000000.0f,
                                     0.0f, nullptr, 0.0};
constexpr int64_t kLayers = 24, kVocab = 130560, kPrompt = 128;

struct Linear {
  std::unique_ptr<uint8_t, decltype(&std::free)> packed{nullptr, &std::free};
  std::vector<float> scales;
};

// Cheap deterministic int8 weights (random generators are far too slow under emulation),
// packed into 64-byte aligned memory.
bool MakeLinear(int64_t n, int64_t k, uint32_t seed, Linear* l) {
  const std::vector<int8_t> w = tcpu::testing::CheapInt8(n * k, seed);
  const int64_t bytes = tcpu_packed_weights_size(n, k);
  l->packed.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  l->scales.assign(n, 1.0f / 2048);
  return l->packed != nullptr &&
         tcpu_pack_weights_i8(w.data(), n, k, l->packed.get(), bytes) == TCPU_OK;
}

struct Model {
  std::vector<uint16_t> embed, norm;
  std::vector<Linear> linears;
  std::vector<tcpu_layer_weights> layers;
  tcpu_model_weights weights{};
};

Model* BuildModel() {
  auto* m = new Model();
  const int64_t h = kShape.hidden, qd = kShape.num_heads * kShape.head_dim;
  const int64_t kvd = kShape.num_kv_heads * kShape.head_dim, i = kShape.intermediate;
  m->embed.assign(kVocab * h, 0x3c00);  // 2^-7
  m->norm.assign(h, 0x3f80);            // 1.0
  m->linears.resize(7 * kLayers + 1);
  const int64_t shapes[7][2] = {{qd, h}, {kvd, h}, {kvd, h}, {h, qd}, {i, h}, {i, h}, {h, i}};
  uint32_t seed = 1;
  auto lin = [](const Linear& x) { return tcpu_linear{x.packed.get(), x.scales.data()}; };
  for (int64_t layer = 0; layer < kLayers; ++layer) {
    Linear* l = &m->linears[7 * layer];
    for (int j = 0; j < 7; ++j) {
      if (!MakeLinear(shapes[j][0], shapes[j][1], seed++, &l[j])) return nullptr;
    }
    m->layers.push_back({m->norm.data(), lin(l[0]), lin(l[1]), lin(l[2]), nullptr, nullptr,
                         lin(l[3]), m->norm.data(), lin(l[4]), lin(l[5]), lin(l[6]), nullptr,
                         nullptr, nullptr, nullptr});
  }
  if (!MakeLinear(kVocab, h, seed, &m->linears.back())) return nullptr;
  m->weights = {kShape, kLayers, kVocab, m->embed.data(), m->layers.data(), m->norm.data(),
                lin(m->linears.back()), 0.0f, 0.0f};
  return m;
}

Model* TheModel() {
  static Model* model = BuildModel();
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
  Model* model = TheModel();
  if (model == nullptr) {
    state.SkipWithError("cannot build the model (out of memory?)");
    return;
  }
  const tcpu_model_weights& w = model->weights;
  const int64_t cache = kLayers * kShape.num_kv_heads * kPrompt * kShape.head_dim;
  std::vector<uint16_t> k_cache(cache), v_cache(cache);
  std::vector<float> logits(kVocab);
  std::vector<int32_t> prompt(kPrompt);
  for (int64_t t = 0; t < kPrompt; ++t) prompt[t] = static_cast<int32_t>((t * 7919) % kVocab);
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

}  // namespace
