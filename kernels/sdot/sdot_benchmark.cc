// tcpu_sdot_i8x16 and each variant the CPU supports: one call per iteration (32 input bytes,
// 16 output bytes), so this measures call overhead as much as the SDOT itself.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "kernels/sdot/sdot_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "tcpu/sdot.h"

namespace {

constexpr int64_t kBytesPerCall = 4 * 4 + 16 + 16;  // acc + a + b

void BM_SdotPublic(benchmark::State& state) {
  int32_t acc[4] = {1, 2, 3, 4};
  int8_t a[16], b[16];
  for (int i = 0; i < 16; ++i) {
    a[i] = static_cast<int8_t>(i * 7 - 50);
    b[i] = static_cast<int8_t>(90 - i * 11);
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(tcpu_sdot_i8x16(acc, a, b, acc));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytesPerCall);
  state.SetLabel(tcpu::SdotVariant());
}
BENCHMARK(BM_SdotPublic);

void BM_SdotVariant(benchmark::State& state, tcpu::sdot::SdotFn fn, const char* name) {
  int32_t acc[4] = {1, 2, 3, 4};
  int8_t a[16], b[16];
  for (int i = 0; i < 16; ++i) {
    a[i] = static_cast<int8_t>(i * 7 - 50);
    b[i] = static_cast<int8_t>(90 - i * 11);
  }
  for (auto _ : state) {
    fn(acc, a, b, acc);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytesPerCall);
  state.SetLabel(name);
}

// One benchmark per variant this CPU can run, named after it.
const bool kRegistered = [] {
  int count = 0;
  const auto* table = tcpu::sdot::SdotVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) != table[i].required) continue;
    benchmark::RegisterBenchmark((std::string("BM_SdotVariant/") + table[i].name).c_str(),
                                 BM_SdotVariant, table[i].fn, table[i].name);
  }
  return true;
}();

}  // namespace
