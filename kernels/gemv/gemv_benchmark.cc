// GEMV at the decode shapes of MiniCPM5-1B (hidden 1536, intermediate 4608, 2 KV heads of
// 128, vocab 130560): weight bytes streamed per second (decode is bound by them) and int8
// MACs per second, on 1 thread and on the pool's default thread count.
//   bazel build --config=aarch64 //kernels/gemv:gemv_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/testing/benchmark_util.h"
#include "runtime/kernel_variants.h"
#include "tcpu/bf16.h"
#include "tcpu/gemv.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

using ::tcpu::testing::CheapInt8;
using ::tcpu::testing::SetBenchmarkThreads;

struct PackedMatrix {
  std::vector<uint8_t> packed;
  int64_t n, k;
};

PackedMatrix MakeWeights(benchmark::State& state, int64_t n, int64_t k) {
  const std::vector<int8_t> w = CheapInt8(n * k, 1);
  PackedMatrix m{std::vector<uint8_t>(tcpu_packed_weights_size(n, k)), n, k};
  if (tcpu_pack_weights_i8(w.data(), n, k, m.packed.data(),
                           static_cast<int64_t>(m.packed.size())) != TCPU_OK) {
    state.SkipWithError(tcpu_last_error_detail());
  }
  return m;
}

void Report(benchmark::State& state, const PackedMatrix& m, const char* variant) {
  const double iterations = static_cast<double>(state.iterations());
  state.counters["bytes/s"] =
      benchmark::Counter(iterations * static_cast<double>(m.packed.size()),
                         benchmark::Counter::kIsRate, benchmark::Counter::kIs1024);
  state.counters["MACs/s"] =
      benchmark::Counter(iterations * static_cast<double>(m.n) * static_cast<double>(m.k),
                         benchmark::Counter::kIsRate);
  state.counters["threads"] = tcpu_get_num_threads();
  state.SetLabel(variant);
}

// Args: k, n, threads.
void BM_GemvI8(benchmark::State& state) {
  const int64_t k = state.range(0), n = state.range(1);
  if (!SetBenchmarkThreads(state, state.range(2))) return;
  const PackedMatrix m = MakeWeights(state, n, k);
  const std::vector<int8_t> x = CheapInt8(k, 2);
  std::vector<int32_t> y(n);
  for (auto _ : state) {
    const int status = tcpu_gemv_i8(m.packed.data(), x.data(), y.data(), n, k);
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      break;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Report(state, m, tcpu::GemvI8Variant());
}

void BM_GemvBf16W8(benchmark::State& state) {
  const int64_t k = state.range(0), n = state.range(1);
  if (!SetBenchmarkThreads(state, state.range(2))) return;
  const PackedMatrix m = MakeWeights(state, n, k);
  std::vector<uint16_t> x(k);
  const std::vector<int8_t> noise = CheapInt8(k, 3);
  for (int64_t j = 0; j < k; ++j) x[j] = tcpu_f32_to_bf16(noise[j] / 37.0f);
  const std::vector<float> scales(n, 0.01f);
  std::vector<uint16_t> y(n);
  tcpu_scratch_reserve(tcpu_gemv_bf16_w8_scratch_size(k));  // allocate outside the loop
  for (auto _ : state) {
    const int status = tcpu_gemv_bf16_w8(m.packed.data(), scales.data(), x.data(), y.data(), n, k);
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      break;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Report(state, m, tcpu::GemvBf16W8Variant());
}

// k x n of the decode GEMVs: q/o projections, k/v projections, gate/up, down, lm_head.
void DecodeShapes(benchmark::internal::Benchmark* b) {
  const int64_t shapes[][2] = {
      {1536, 1536}, {1536, 256}, {1536, 4608}, {4608, 1536}, {1536, 130560}};
  for (const auto& s : shapes) {
    for (int64_t threads : {1, 0}) b->Args({s[0], s[1], threads});
  }
  b->ArgNames({"k", "n", "threads"})->Unit(benchmark::kMicrosecond)->UseRealTime();
}

BENCHMARK(BM_GemvI8)->Apply(DecodeShapes);
BENCHMARK(BM_GemvBf16W8)->Apply(DecodeShapes);

}  // namespace
