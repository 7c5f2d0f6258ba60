// W4A8 GEMV at the decode shapes of MiniCPM5-1B (as //kernels/gemv:gemv_benchmark): packed
// weight bytes streamed per second (decode is bound by them; 0.5625 bytes per weight) and MACs
// per second, on 1 thread and on the pool's default thread count.
//   bazel build --config=aarch64 -c opt //kernels/q4:q4_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/benchmark_util.h"
#include "tcpu/bf16.h"
#include "tcpu/gemv_q4.h"
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
  std::vector<int8_t> q = CheapInt8(n * k, 1);
  for (int8_t& v : q) v = static_cast<int8_t>(v >> 4);  // -8 .. 7
  const std::vector<uint16_t> scales(n * tcpu_q4_groups(k), 0x211f);  // fp16 ~0.01
  PackedMatrix m{std::vector<uint8_t>(tcpu_q4_packed_size(n, k)), n, k};
  if (tcpu_pack_q4(q.data(), scales.data(), n, k, m.packed.data(),
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

// Args: k, n, threads. The decode form: bf16 x quantized per call, bf16 y.
void BM_GemvBf16W4(benchmark::State& state) {
  const int64_t k = state.range(0), n = state.range(1);
  if (!SetBenchmarkThreads(state, state.range(2))) return;
  const PackedMatrix m = MakeWeights(state, n, k);
  std::vector<uint16_t> x(k);
  const std::vector<int8_t> noise = CheapInt8(k, 3);
  for (int64_t j = 0; j < k; ++j) x[j] = tcpu_f32_to_bf16(noise[j] / 37.0f);
  std::vector<uint16_t> y(n);
  tcpu_scratch_reserve(k + 64 + n * 4 + 64);  // allocate outside the loop
  for (auto _ : state) {
    const int status = tcpu_gemv_bf16_w4(m.packed.data(), x.data(), y.data(), n, k);
    if (status != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      break;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Report(state, m, tcpu::GemvW4A8Variant());
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

BENCHMARK(BM_GemvBf16W4)->Apply(DecodeShapes);

}  // namespace
