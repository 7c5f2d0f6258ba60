// One decode step of a model with MiniCPM5-1B's shapes (hidden 1536, 24 layers, 16 heads, 2 kv
// heads, head_dim 128, intermediate 4608, vocab 130560; INT8 weights generated in memory, every
// layer its own), at a context of 512 tokens. Reports the weight bytes each token reads
// (every packed matrix with its scales, the norms and one embedding row; the step reads each
// once) and tokens/s, so bytes/token x tokens/s against the board's DRAM bandwidth says how
// close decode runs to its bound.
//   bazel build --config=aarch64 //kernels/decode_step:decode_step_benchmark
//   bazel run //kernels/decode_step:decode_step_benchmark_qemu   (emulated: time means little)
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/testing/benchmark_util.h"
#include "tcpu/gemv.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/transformer.h"

namespace {

constexpr tcpu_layer_shape kShape = {1536, 4608, 16, 2, 128, 1e-6f, 1000000.0f, 0.0f, nullptr, 0.0};
constexpr int64_t kLayers = 24, kVocab = 130560, kContext = 512;

struct Linear {
  std::unique_ptr<uint8_t, decltype(&std::free)> packed{nullptr, &std::free};
  std::vector<float> scales;
  int64_t bytes = 0;
};

// Cheap deterministic int8 weights (random generators are far too slow under emulation at
// 880 MB), packed into 64-byte aligned memory.
bool MakeLinear(int64_t n, int64_t k, uint32_t seed, Linear* l) {
  const std::vector<int8_t> w = tcpu::testing::CheapInt8(n * k, seed);
  l->bytes = tcpu_packed_weights_size(n, k);
  l->packed.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (l->bytes + 63) / 64 * 64)));
  l->scales.assign(n, 1.0f / 2048);
  return l->packed != nullptr &&
         tcpu_pack_weights_i8(w.data(), n, k, l->packed.get(), l->bytes) == TCPU_OK;
}

struct Model {
  std::vector<uint16_t> embed, norm;
  std::vector<Linear> linears;
  std::vector<tcpu_layer_weights> layers;
  tcpu_model_weights weights{};
  int64_t bytes_per_token = 0;
};

bool MakeModel(Model* m) {
  const int64_t h = kShape.hidden, qd = kShape.num_heads * kShape.head_dim;
  const int64_t kvd = kShape.num_kv_heads * kShape.head_dim, i = kShape.intermediate;
  m->embed.assign(kVocab * h, 0x3c00);  // 2^-7
  m->norm.assign(h, 0x3f80);            // 1.0
  m->linears.resize(7 * kLayers + 1);
  const int64_t shapes[7][2] = {{qd, h}, {kvd, h}, {kvd, h}, {h, qd}, {i, h}, {i, h}, {h, i}};
  uint32_t seed = 1;
  for (int64_t layer = 0; layer < kLayers; ++layer) {
    Linear* l = &m->linears[7 * layer];
    for (int j = 0; j < 7; ++j) {
      if (!MakeLinear(shapes[j][0], shapes[j][1], seed++, &l[j])) return false;
      m->bytes_per_token += l[j].bytes + 4 * shapes[j][0];
    }
    auto lin = [](const Linear& x) { return tcpu_linear{x.packed.get(), x.scales.data()}; };
    m->layers.push_back({m->norm.data(), lin(l[0]), lin(l[1]), lin(l[2]), nullptr, nullptr,
                         lin(l[3]), m->norm.data(), lin(l[4]), lin(l[5]), lin(l[6]),
                         nullptr, nullptr, nullptr, nullptr});
    m->bytes_per_token += 2 * 2 * h;  // the two norms
  }
  Linear& head = m->linears.back();
  if (!MakeLinear(kVocab, h, seed, &head)) return false;
  m->bytes_per_token += head.bytes + 4 * kVocab + 2 * h /* final norm */ + 2 * h /* embedding */;
  m->weights = {kShape, kLayers, kVocab, m->embed.data(), m->layers.data(), m->norm.data(),
                {head.packed.get(), head.scales.data()}, 0.0f, 0.0f};
  return true;
}

void BM_DecodeStepMiniCPM5_1B(benchmark::State& state) {
  if (!tcpu::testing::SetBenchmarkThreads(state, state.range(0))) return;
  static Model* model = [] {
    auto* m = new Model();
    return MakeModel(m) ? m : nullptr;
  }();
  if (model == nullptr) {
    state.SkipWithError("cannot build the model (out of memory?)");
    return;
  }
  const int64_t cache = kLayers * kShape.num_kv_heads * kContext * kShape.head_dim;
  std::vector<uint16_t> k_cache(cache, 0x3c00), v_cache(cache, 0x3c00);
  std::vector<float> logits(kVocab);
  const int64_t ws_bytes = tcpu_decode_step_workspace_size(&model->weights);
  std::unique_ptr<uint8_t, decltype(&std::free)> ws(
      static_cast<uint8_t*>(std::aligned_alloc(64, (ws_bytes + 63) / 64 * 64)), &std::free);
  int32_t token = 17;
  for (auto _ : state) {
    // The last position of the context: attention reads all 512 cached tokens.
    if (tcpu_decode_step(&model->weights, k_cache.data(), v_cache.data(), kContext,
                         kContext - 1, token, logits.data(), &token, ws.get(),
                         ws_bytes) != TCPU_OK) {
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
    ->Arg(0)
    ->Arg(1)
    ->ArgName("threads")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
