// GEMM at the prefill shapes of MiniCPM5-1B (m = 16 and 128 tokens; k x n of the q/o
// projection, gate/up and down): int8 MACs per second and weight bytes per second, on 1
// thread and on the pool's default thread count.
//   bazel build --config=aarch64 //kernels/gemm:gemm_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/testing/benchmark_util.h"
#include "runtime/kernel_variants.h"
#include "tcpu/gemm.h"
#include "tcpu/gemv.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

using ::tcpu::testing::CheapInt8;
using ::tcpu::testing::SetBenchmarkThreads;

// Args: m, k, n, threads.
void BM_GemmI8(benchmark::State& state) {
  const int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  if (!SetBenchmarkThreads(state, state.range(3))) return;
  std::vector<uint8_t> packed(tcpu_packed_weights_size(n, k));
  {
    const std::vector<int8_t> w = CheapInt8(n * k, 1);
    if (tcpu_pack_weights_i8(w.data(), n, k, packed.data(), static_cast<int64_t>(packed.size())) !=
        TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      return;
    }
  }
  const std::vector<int8_t> x = CheapInt8(m * k, 2);
  std::vector<int32_t> y(m * n);
  tcpu_scratch_reserve(tcpu_gemm_i8_scratch_size(m, k));  // allocate outside the loop
  for (auto _ : state) {
    const int status = tcpu_gemm_i8(packed.data(), x.data(), y.data(), m, n, k);
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      break;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["MACs/s"] = benchmark::Counter(
      iterations * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k),
      benchmark::Counter::kIsRate);
  state.counters["bytes/s"] =
      benchmark::Counter(iterations * static_cast<double>(packed.size()),
                         benchmark::Counter::kIsRate, benchmark::Counter::kIs1024);
  state.counters["threads"] = tcpu_get_num_threads();
  state.SetLabel(tcpu::GemmI8Variant());
}

void PrefillShapes(benchmark::internal::Benchmark* b) {
  const int64_t shapes[][2] = {{1536, 1536}, {1536, 4608}, {4608, 1536}};  // k x n
  for (int64_t m : {16, 128}) {
    for (const auto& s : shapes) {
      for (int64_t threads : {1, 0}) b->Args({m, s[0], s[1], threads});
    }
  }
  b->ArgNames({"m", "k", "n", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_GemmI8)->Apply(PrefillShapes);

}  // namespace
