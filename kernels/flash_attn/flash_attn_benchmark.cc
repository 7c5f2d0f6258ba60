// tcpu_flash_attn_decode_bf16 at MiniCPM5-1B's decode shape (16 heads, 2 kv heads, head_dim
// 128) for seq_len 512 and 4096, through the public entry point and each variant the CPU
// supports. Bytes: K and V read once per kv head (4 * kv_heads * seq_len * head_dim).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/flash_attn/flash_attn_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "tcpu/attention.h"
#include "tcpu/bf16.h"

namespace {

constexpr int64_t kHeads = 16, kKvHeads = 2, kDim = 128;

std::vector<uint16_t> Data(int64_t n, float scale) {
  std::vector<uint16_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = tcpu_f32_to_bf16(scale * static_cast<float>(i % 17 - 8));
  return v;
}

void Run(benchmark::State& state, const tcpu::flash_attn::FlashAttnKernel* kernel,
         const char* name) {
  const int64_t seq = state.range(0);
  const auto q = Data(kHeads * kDim, 0.1f);
  const auto k = Data(kKvHeads * seq * kDim, 0.05f), v = Data(kKvHeads * seq * kDim, 0.2f);
  std::vector<uint16_t> out(kHeads * kDim);
  const float scale = 1.0f / std::sqrt(static_cast<float>(kDim));
  for (auto _ : state) {
    int st = kernel == nullptr
                 ? tcpu_flash_attn_decode_bf16(q.data(), k.data(), v.data(), out.data(), kHeads,
                                               kKvHeads, kDim, seq, seq * kDim, kDim, seq * kDim,
                                               kDim, scale)
                 : tcpu::flash_attn::FlashAttnWith(*kernel, q.data(), k.data(), v.data(),
                                                   out.data(), kHeads, kKvHeads, kDim, seq,
                                                   seq * kDim, kDim, seq * kDim, kDim, scale);
    benchmark::DoNotOptimize(st);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 4 * kKvHeads * seq * kDim);
  state.SetLabel(name);
}

void BM_FlashAttnPublic(benchmark::State& state) {
  Run(state, nullptr, tcpu::FlashAttnDecodeBf16Variant());
}
BENCHMARK(BM_FlashAttnPublic)->Arg(512)->Arg(4096);

const bool kRegistered = [] {
  int count = 0;
  const auto* table = tcpu::flash_attn::FlashAttnVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) != table[i].required) continue;
    benchmark::RegisterBenchmark((std::string("BM_FlashAttnVariant/") + table[i].name).c_str(),
                                 Run, table[i].fn, table[i].name)
        ->Arg(512)
        ->Arg(4096);
  }
  return true;
}();

}  // namespace
