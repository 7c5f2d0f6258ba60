// The fused MLP at MiniCPM5-1B's decode shape (hidden 1536, intermediate 4608): weight bytes
// streamed per second (3 x 7 MB per token, the MLP's share of decode) on 1 thread and on the
// pool's default thread count.
//   bazel build --config=aarch64 //kernels/fused_mlp:fused_mlp_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "runtime/testing/benchmark_util.h"
#include "tcpu/fused_mlp.h"
#include "tcpu/gemv.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

// Cheap deterministic int8 weights, packed.
std::vector<uint8_t> PackedFill(int64_t n, int64_t k, uint32_t seed) {
  const std::vector<int8_t> w = tcpu::testing::CheapInt8(n * k, seed);
  std::vector<uint8_t> packed(tcpu_packed_weights_size(n, k));
  tcpu_pack_weights_i8(w.data(), n, k, packed.data(), static_cast<int64_t>(packed.size()));
  return packed;
}

void BM_FusedMlp(benchmark::State& state) {
  constexpr int64_t kHidden = 1536, kIntermediate = 4608;
  if (!tcpu::testing::SetBenchmarkThreads(state, state.range(0))) return;
  const std::vector<uint8_t> gate = PackedFill(kIntermediate, kHidden, 1);
  const std::vector<uint8_t> up = PackedFill(kIntermediate, kHidden, 2);
  const std::vector<uint8_t> down = PackedFill(kHidden, kIntermediate, 3);
  const std::vector<float> scales(kIntermediate, 1.0f / 4096);
  std::vector<uint16_t> x(kHidden, 0x3f80), y(kHidden);  // x = 1.0
  tcpu_scratch_reserve(tcpu_fused_mlp_bf16_scratch_size(kHidden, kIntermediate));
  for (auto _ : state) {
    if (tcpu_fused_mlp_bf16(gate.data(), scales.data(), up.data(), scales.data(), down.data(),
                            scales.data(), x.data(), y.data(), kHidden,
                            kIntermediate) != TCPU_OK) {
      state.SkipWithError(tcpu_last_error_detail());
      return;
    }
    benchmark::DoNotOptimize(y.data());
  }
  const double bytes = static_cast<double>(gate.size() + up.size() + down.size());
  state.counters["bytes/s"] =
      benchmark::Counter(bytes * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate, benchmark::Counter::kIs1024);
  state.counters["threads"] = tcpu_get_num_threads();
}
BENCHMARK(BM_FusedMlp)->Arg(1)->Arg(0)->ArgName("threads")->UseRealTime();

}  // namespace
