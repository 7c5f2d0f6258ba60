// tcpu_swiglu_bf16 at MiniCPM5-1B's intermediate size (n = 4608), through the public entry
// point and through each variant the CPU supports. Bytes: gate and up read, out written (6 n).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/swiglu/swiglu_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "tcpu/bf16.h"
#include "tcpu/swiglu.h"

namespace {

constexpr int64_t kIntermediate = 4608;

std::vector<uint16_t> Data(int64_t n, float scale) {
  std::vector<uint16_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = tcpu_f32_to_bf16(scale * static_cast<float>(i % 23 - 11));
  return v;
}

void BM_SwigluPublic(benchmark::State& state) {
  const int64_t n = state.range(0);
  const auto gate = Data(n, 0.5f), up = Data(n, 0.2f);
  std::vector<uint16_t> out(n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(tcpu_swiglu_bf16(gate.data(), up.data(), out.data(), n));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 6 * n);
  state.SetLabel(tcpu::SwigluBf16Variant());
}
BENCHMARK(BM_SwigluPublic)->Arg(kIntermediate);

void BM_SwigluVariant(benchmark::State& state, tcpu::swiglu::SwigluFn kernel, const char* name) {
  const int64_t n = state.range(0);
  const auto gate = Data(n, 0.5f), up = Data(n, 0.2f);
  std::vector<uint16_t> out(n);
  for (auto _ : state) {
    kernel(gate.data(), up.data(), out.data(), n);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 6 * n);
  state.SetLabel(name);
}

// One benchmark per variant this CPU can run, named after it.
const bool kRegistered = [] {
  int count = 0;
  const auto* table = tcpu::swiglu::SwigluVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) != table[i].required) continue;
    benchmark::RegisterBenchmark((std::string("BM_SwigluVariant/") + table[i].name).c_str(),
                                 BM_SwigluVariant, table[i].fn, table[i].name)
        ->Arg(kIntermediate);
  }
  return true;
}();

}  // namespace
