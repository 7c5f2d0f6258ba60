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
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/testing/benchmark_util.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/transformer.h"

namespace {

constexpr tcpu_layer_shape kShape = {1536, 4608, 16, 2, 128, 1e-6f, 1000000.0f, 0.0f, nullptr, 0.0};
constexpr int64_t kLayers = 24, kVocab = 130560, kContext = 512;

struct Linear {
  std::unique_ptr<uint8_t, decltype(&std::free)> packed{nullptr, &std::free};
  std::vector<float> scales;  // int8 only
  int64_t bytes = 0;          // packed bytes plus the scales the step reads
};

// Cheap deterministic weights (random generators are far too slow under emulation at
// 880 MB), packed into 64-byte aligned memory: int8, or int4 (the same values / 16, one scale
// per group).
bool MakeLinear(int64_t n, int64_t k, uint32_t seed, bool int4, Linear* l) {
  std::vector<int8_t> w = tcpu::testing::CheapInt8(n * k, seed);
  const int64_t packed = int4 ? tcpu_q4_packed_size(n, k) : tcpu_packed_weights_size(n, k);
  l->packed.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (packed + 63) / 64 * 64)));
  if (l->packed == nullptr) return false;
  if (int4) {
    for (int8_t& v : w) v = static_cast<int8_t>(v >> 4);  // [-8, 7]
    const std::vector<uint16_t> scales(n * tcpu_q4_groups(k), 0x2000);  // fp16 1 / 128
    l->bytes = packed;  // the scales are inside
    return tcpu_pack_q4(w.data(), scales.data(), n, k, l->packed.get(), packed) == TCPU_OK;
  }
  l->scales.assign(n, 1.0f / 2048);
  l->bytes = packed + 4 * n;
  return tcpu_pack_weights_i8(w.data(), n, k, l->packed.get(), packed) == TCPU_OK;
}

tcpu_linear View(const Linear& l) {
  return {l.packed.get(), l.scales.empty() ? nullptr : l.scales.data()};
}

struct Model {
  std::vector<uint16_t> embed, norm;
  std::vector<Linear> linears;
  std::vector<tcpu_layer_weights> layers;
  tcpu_model_weights weights{};
  int64_t bytes_per_token = 0;
};

bool MakeModel(bool int4, Model* m) {
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
      if (!MakeLinear(shapes[j][0], shapes[j][1], seed++, int4, &l[j])) return false;
      m->bytes_per_token += l[j].bytes;
    }
    m->layers.push_back({m->norm.data(), View(l[0]), View(l[1]), View(l[2]), nullptr, nullptr,
                         View(l[3]), m->norm.data(), View(l[4]), View(l[5]), View(l[6]), nullptr,
                         nullptr, nullptr, nullptr});
    m->bytes_per_token += 2 * 2 * h;  // the two norms
  }
  Linear& head = m->linears.back();
  if (!MakeLinear(kVocab, h, seed, int4, &head)) return false;
  m->bytes_per_token += head.bytes + 2 * h /* final norm */ + 2 * h /* embedding */;
  m->weights = {kShape,     kLayers, kVocab, m->embed.data(), m->layers.data(), m->norm.data(),
                View(head), 0.0f,    0.0f};
  return true;
}

// Built on first use (only the formats a run's filter selects take memory).
Model* GetModel(bool int4) {
  static Model* models[2] = {nullptr, nullptr};
  static bool tried[2] = {false, false};
  if (!tried[int4]) {
    tried[int4] = true;
    auto* m = new Model();
    if (MakeModel(int4, m)) {
      models[int4] = m;
    } else {
      delete m;
    }
  }
  return models[int4];
}

void BM_DecodeStepMiniCPM5_1B(benchmark::State& state) {
  if (!tcpu::testing::SetBenchmarkThreads(state, state.range(0))) return;
  Model* model = GetModel(state.range(1) != 0);
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
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->ArgNames({"threads", "weights"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
