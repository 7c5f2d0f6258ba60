// Packing throughput at the MiniCPM5-1B weight shapes (k x n), on 1 thread and on the pool's
// default thread count, from w as [n, k] and k-major: bytes packed per second (a 1B-parameter
// model is ~1 GB).
//   bazel build --config=aarch64 //kernels/pack:pack_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/kernel_variants.h"
#include "tcpu/gemv.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

using PackFn = int (*)(const int8_t*, int64_t, int64_t, void*, int64_t);

void BM_Pack(benchmark::State& state, PackFn pack, const char* (*variant)()) {
  static const int default_threads = tcpu_get_num_threads();  // before anything changes it
  const int64_t k = state.range(0), n = state.range(1);
  const int threads = state.range(2) > 0 ? static_cast<int>(state.range(2)) : default_threads;
  if (threads < 1 || tcpu_set_num_threads(threads) != TCPU_OK) {
    state.SkipWithError(tcpu_last_error_detail());
    return;
  }
  std::vector<int8_t> w(n * k);
  for (int64_t i = 0; i < n * k; ++i) w[i] = static_cast<int8_t>(i * 7 + (i >> 9));
  std::vector<uint8_t> packed(tcpu_packed_weights_size(n, k));
  for (auto _ : state) {
    if (pack(w.data(), n, k, packed.data(), static_cast<int64_t>(packed.size())) != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      break;
    }
    benchmark::ClobberMemory();
  }
  state.counters["bytes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n * k),
                         benchmark::Counter::kIsRate, benchmark::Counter::kIs1024);
  state.counters["threads"] = tcpu_get_num_threads();
  state.SetLabel(variant());
}

void Shapes(benchmark::internal::Benchmark* b) {
  const int64_t shapes[][2] = {{1536, 1536}, {1536, 4608}, {4608, 1536}, {1536, 130560}};
  for (const auto& s : shapes) {
    for (int64_t threads : {1, 0}) b->Args({s[0], s[1], threads});
  }
  b->ArgNames({"k", "n", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK_CAPTURE(BM_Pack, rows, tcpu_pack_weights_i8, tcpu::PackWeightsI8Variant)->Apply(Shapes);
BENCHMARK_CAPTURE(BM_Pack, k_major, tcpu_pack_weights_i8_kn, tcpu::PackWeightsI8KnVariant)
    ->Apply(Shapes);

}  // namespace
