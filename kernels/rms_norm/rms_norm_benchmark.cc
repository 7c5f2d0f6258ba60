// tcpu_rms_norm_bf16 at MiniCPM5-1B's hidden size (d = 1536), through the public entry point
// and through each variant the CPU supports. Bytes: x and w read, out written (6 d).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/rms_norm/rms_norm_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "tcpu/bf16.h"
#include "tcpu/rms_norm.h"

namespace {

constexpr int64_t kHidden = 1536;

std::vector<uint16_t> Data(int64_t d, float scale) {
  std::vector<uint16_t> v(d);
  for (int64_t i = 0; i < d; ++i) v[i] = tcpu_f32_to_bf16(scale * static_cast<float>(i % 17 - 8));
  return v;
}

void BM_RmsNormPublic(benchmark::State& state) {
  const int64_t d = state.range(0);
  const auto x = Data(d, 0.25f), w = Data(d, 0.1f);
  std::vector<uint16_t> out(d);
  for (auto _ : state) {
    benchmark::DoNotOptimize(tcpu_rms_norm_bf16(x.data(), w.data(), out.data(), d, 1e-6f));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 6 * d);
  state.SetLabel(tcpu::RmsNormBf16Variant());
}
BENCHMARK(BM_RmsNormPublic)->Arg(kHidden);

void BM_RmsNormVariant(benchmark::State& state, const tcpu::rms_norm::RmsNormKernel* kernel,
                       const char* name) {
  const int64_t d = state.range(0);
  const auto x = Data(d, 0.25f), w = Data(d, 0.1f);
  std::vector<uint16_t> out(d);
  for (auto _ : state) {
    tcpu::rms_norm::RmsNormWith(*kernel, x.data(), w.data(), out.data(), d, 1e-6f);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 6 * d);
  state.SetLabel(name);
}

// One benchmark per variant this CPU can run, named after it.
const bool kRegistered = [] {
  int count = 0;
  const auto* table = tcpu::rms_norm::RmsNormVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) != table[i].required) continue;
    benchmark::RegisterBenchmark((std::string("BM_RmsNormVariant/") + table[i].name).c_str(),
                                 BM_RmsNormVariant, table[i].fn, table[i].name)
        ->Arg(kHidden);
  }
  return true;
}();

}  // namespace
