// tcpu_quantize_weights_bf16 at a MiniCPM5-1B FFN shape (n = 1536 rows, k = 4608), through
// the public entry point (multithreaded) and each variant the CPU supports on one thread.
// Bytes: bf16 weights read, int8 weights and fp32 scales written (3 n k + 4 n).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/quantize/quantize_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "tcpu/bf16.h"
#include "tcpu/gemv.h"

namespace {

constexpr int64_t kRows = 1536;
constexpr int64_t kCols = 4608;

std::vector<uint16_t> Weights(int64_t count) {
  std::vector<uint16_t> w(count);
  for (int64_t i = 0; i < count; ++i) {
    w[i] = tcpu_f32_to_bf16(0.01f * static_cast<float>(i % 101 - 50));
  }
  return w;
}

int64_t Bytes(int64_t n, int64_t k) { return 3 * n * k + 4 * n; }

void BM_QuantizePublic(benchmark::State& state) {
  const int64_t n = state.range(0), k = state.range(1);
  const auto w = Weights(n * k);
  std::vector<int8_t> q(n * k);
  std::vector<float> scales(n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(tcpu_quantize_weights_bf16(w.data(), n, k, q.data(), scales.data()));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * Bytes(n, k));
  state.SetLabel(tcpu::QuantizeWeightsBf16Variant());
}
BENCHMARK(BM_QuantizePublic)->Args({kRows, kCols})->UseRealTime();

// One variant on the calling thread only: the rows of QuantizeWith without the pool.
void BM_QuantizeVariant(benchmark::State& state, const tcpu::quantize::QuantizeKernel* kernel,
                        const char* name) {
  const int64_t n = state.range(0), k = state.range(1);
  const auto w = Weights(n * k);
  std::vector<int8_t> q(n * k);
  std::vector<float> scales(n);
  for (auto _ : state) {
    for (int64_t row = 0; row < n; ++row) {
      const uint16_t bits = kernel->absmax_bits(w.data() + row * k, k);
      scales[row] = tcpu_bf16_to_f32(bits) / 127.0f;
      kernel->quantize_row(w.data() + row * k, k, scales[row], q.data() + row * k);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * Bytes(n, k));
  state.SetLabel(name);
}

// One benchmark per variant this CPU can run, named after it.
const bool kRegistered = [] {
  int count = 0;
  const auto* table = tcpu::quantize::QuantizeVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) != table[i].required) continue;
    benchmark::RegisterBenchmark((std::string("BM_QuantizeVariant/") + table[i].name).c_str(),
                                 BM_QuantizeVariant, table[i].fn, table[i].name)
        ->Args({kRows, kCols});
  }
  return true;
}();

}  // namespace
