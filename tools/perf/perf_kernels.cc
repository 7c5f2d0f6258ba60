// The program the instruction-count gates and the report run: each kernel family at fixed
// shapes, one call per shape inside a tcpu/perf.h region (after one warm-up call, so dispatch
// and scratch setup stay outside), inputs from a fixed seed.
//
//   perf_kernels --family=gemv|gemv_w8a8|gemm|gemv_w4a8|gemm_w4a8|gemv_q8|gemm_q8|rms_norm|
//                         swiglu|rope|flash_attn|fused_mlp
//                --shapes=gate|decode|prefill|issue
//
// gate: small shapes for the `bazel test` gates; decode / prefill: MiniCPM5-1B (hidden 1536,
// 16/2 heads of 128, intermediate 4608; prefill 64 tokens); issue: N=512 K=2048 and GEMM at
// M = 1, 4, 16, 64, 512. Prints one JSON line per region: its name, the variant that ran and
// the weight bytes and MACs (or elements) it processed, which the report divides by.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tcpu/fp16.h"
#include "tcpu/tcpu.h"

namespace {

struct Work {
  int64_t weight_bytes = 0;  // bytes of weights read (0: none)
  int64_t macs = 0;          // multiply-accumulates (0: not a matmul)
  int64_t elements = 0;      // elements of the output (element-wise kernels)
};

std::mt19937 rng(12345);  // fixed seed: the same inputs in every run

std::vector<int8_t> RandomI8(int64_t n) {
  std::uniform_int_distribution<int> d(-127, 127);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

std::vector<uint16_t> RandomBf16(int64_t n, float scale = 1.0f) {
  std::uniform_real_distribution<float> d(-scale, scale);
  std::vector<uint16_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = tcpu_f32_to_bf16(d(rng));
  return v;
}

std::vector<float> RandomScales(int64_t n) {
  std::uniform_real_distribution<float> d(0.001f, 0.01f);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

std::vector<uint8_t> Pack(int64_t n, int64_t k) {
  const std::vector<int8_t> w = RandomI8(n * k);
  std::vector<uint8_t> packed(static_cast<size_t>(tcpu_packed_weights_size(n, k)));
  if (tcpu_pack_weights_i8(w.data(), n, k, packed.data(), static_cast<int64_t>(packed.size())) !=
      0) {
    std::fprintf(stderr, "perf_kernels: packing %lldx%lld failed: %s\n",
                 static_cast<long long>(n), static_cast<long long>(k), tcpu_last_error_detail());
    std::exit(1);
  }
  return packed;
}

bool failed = false;

// The variant tcpu_kernel_variant reports for `op`, or "-" for ops without variants.
const char* VariantName(const char* op) {
  const char* variant = op != nullptr ? tcpu_kernel_variant(op) : nullptr;
  return variant != nullptr ? variant : "-";
}

// Runs `call` once to warm up, then once inside region `name`, and prints the region's line.
template <typename Call>
void Measure(const std::string& name, const char* op, const Work& work, Call call) {
  if (call() != 0) {
    std::fprintf(stderr, "perf_kernels: %s failed: %s\n", name.c_str(), tcpu_last_error_detail());
    failed = true;
    return;
  }
  tcpu_perf_region_begin(name.c_str());
  const int status = call();
  tcpu_perf_region_end(name.c_str());
  if (status != 0) failed = true;
  std::printf(
      "{\"region\": \"%s\", \"variant\": \"%s\", \"weight_bytes\": %lld, \"macs\": %lld, "
      "\"elements\": %lld}\n",
      name.c_str(), VariantName(op), static_cast<long long>(work.weight_bytes),
      static_cast<long long>(work.macs), static_cast<long long>(work.elements));
}

std::string Shape(const char* op, const char* dims, std::initializer_list<int64_t> values) {
  std::string s = op;
  const char* d = dims;
  for (int64_t v : values) {
    s += ' ';
    s += *d++;
    s += '=';
    s += std::to_string(v);
  }
  return s;
}

void Gemv(int64_t n, int64_t k) {
  const std::vector<uint8_t> packed = Pack(n, k);
  const std::vector<int8_t> x = RandomI8(k);
  std::vector<int32_t> y(static_cast<size_t>(n));
  Measure(Shape("gemv_i8", "nk", {n, k}), "gemv_i8", {n * k, n * k, n},
          [&] { return tcpu_gemv_i8(packed.data(), x.data(), y.data(), n, k); });
}

void GemvW8A8(int64_t n, int64_t k) {
  const std::vector<uint8_t> packed = Pack(n, k);
  const std::vector<float> scales = RandomScales(n);
  const std::vector<uint16_t> x = RandomBf16(k);
  std::vector<uint16_t> y(static_cast<size_t>(n));
  Measure(Shape("gemv_bf16_w8", "nk", {n, k}), "gemv_bf16_w8", {n * k, n * k, n}, [&] {
    return tcpu_gemv_bf16_w8(packed.data(), scales.data(), x.data(), y.data(), n, k);
  });
}

void Gemm(int64_t m, int64_t n, int64_t k) {
  const std::vector<uint8_t> packed = Pack(n, k);
  const std::vector<int8_t> x = RandomI8(m * k);
  std::vector<int32_t> y(static_cast<size_t>(m * n));
  Measure(Shape("gemm_i8", "mnk", {m, n, k}), "gemm_i8", {n * k, m * n * k, m * n},
          [&] { return tcpu_gemm_i8(packed.data(), x.data(), y.data(), m, n, k); });
}

// A grouped-scale matrix of random q in [q_min, q_max] and fp16 group scales: int4
// (tcpu/gemv_q4.h) or block-Q8 (tcpu/gemv_q8.h), packed by `pack`.
struct GroupedFormat {
  const char* what;
  int q_min, q_max;
  int64_t (*packed_size)(int64_t n, int64_t k);
  int (*pack)(const int8_t*, const uint16_t*, int64_t, int64_t, void*, int64_t);
  int (*gemv)(const void*, const int8_t*, float, float*, int64_t, int64_t);
  int (*gemm)(const void*, const int8_t*, const float*, float*, int64_t, int64_t, int64_t);
};

constexpr GroupedFormat kInt4 = {"int4", -8, 7, tcpu_q4_packed_size, tcpu_pack_q4,
                                 tcpu_gemv_w4a8, tcpu_gemm_w4a8};
constexpr GroupedFormat kBlockQ8 = {"block-Q8", -127, 127, tcpu_q8_packed_size, tcpu_pack_q8,
                                    tcpu_gemv_q8, tcpu_gemm_q8};

std::vector<uint8_t> PackGrouped(const GroupedFormat& f, int64_t n, int64_t k) {
  std::uniform_int_distribution<int> d(f.q_min, f.q_max);
  std::vector<int8_t> q(static_cast<size_t>(n * k));
  for (auto& v : q) v = static_cast<int8_t>(d(rng));
  std::vector<uint16_t> scales;  // fp16
  for (float s : RandomScales(n * ((k + 31) / 32))) scales.push_back(tcpu_f32_to_f16(s));
  std::vector<uint8_t> packed(static_cast<size_t>(f.packed_size(n, k)));
  if (f.pack(q.data(), scales.data(), n, k, packed.data(), static_cast<int64_t>(packed.size())) !=
      0) {
    std::fprintf(stderr, "perf_kernels: %s packing %lldx%lld failed: %s\n", f.what,
                 static_cast<long long>(n), static_cast<long long>(k), tcpu_last_error_detail());
    std::exit(1);
  }
  return packed;
}

// weight_bytes: the packed data (0.5625 bytes per weight for int4, 1.0625 for block-Q8); the
// report counts per weight.
void GroupedGemv(const GroupedFormat& f, const char* op, int64_t n, int64_t k) {
  const std::vector<uint8_t> packed = PackGrouped(f, n, k);
  const std::vector<int8_t> x = RandomI8(k);
  std::vector<float> y(static_cast<size_t>(n));
  Measure(Shape(op, "nk", {n, k}), op, {static_cast<int64_t>(packed.size()) - 64, n * k, n},
          [&] { return f.gemv(packed.data(), x.data(), 0.01f, y.data(), n, k); });
}

void GroupedGemm(const GroupedFormat& f, const char* op, int64_t m, int64_t n, int64_t k) {
  const std::vector<uint8_t> packed = PackGrouped(f, n, k);
  const std::vector<int8_t> x = RandomI8(m * k);
  const std::vector<float> x_scales = RandomScales(m);
  std::vector<float> y(static_cast<size_t>(m * n));
  Measure(Shape(op, "mnk", {m, n, k}), op,
          {static_cast<int64_t>(packed.size()) - 64, m * n * k, m * n},
          [&] { return f.gemm(packed.data(), x.data(), x_scales.data(), y.data(), m, n, k); });
}

void GemvW4A8(int64_t n, int64_t k) { GroupedGemv(kInt4, "gemv_w4a8", n, k); }
void GemmW4A8(int64_t m, int64_t n, int64_t k) { GroupedGemm(kInt4, "gemm_w4a8", m, n, k); }
void GemvQ8(int64_t n, int64_t k) { GroupedGemv(kBlockQ8, "gemv_q8", n, k); }
void GemmQ8(int64_t m, int64_t n, int64_t k) { GroupedGemm(kBlockQ8, "gemm_q8", m, n, k); }

void RmsNorm(int64_t d) {
  const std::vector<uint16_t> x = RandomBf16(d), w = RandomBf16(d);
  std::vector<uint16_t> out(static_cast<size_t>(d));
  Measure(Shape("rms_norm_bf16", "d", {d}), "rms_norm_bf16", {0, 0, d},
          [&] { return tcpu_rms_norm_bf16(x.data(), w.data(), out.data(), d, 1e-6f); });
}

void Swiglu(int64_t n) {
  const std::vector<uint16_t> gate = RandomBf16(n, 4.0f), up = RandomBf16(n);
  std::vector<uint16_t> out(static_cast<size_t>(n));
  Measure(Shape("swiglu_bf16", "n", {n}), "swiglu_bf16", {0, 0, n},
          [&] { return tcpu_swiglu_bf16(gate.data(), up.data(), out.data(), n); });
}

void Rope(int64_t heads, int64_t head_dim) {
  std::vector<uint16_t> x = RandomBf16(heads * head_dim);
  Measure(Shape("rope_bf16", "hd", {heads, head_dim}), nullptr, {0, 0, heads * head_dim},
          [&] { return tcpu_rope_bf16(x.data(), heads, head_dim, 17, 10000.0f); });
}

void FlashAttn(int64_t heads, int64_t kv_heads, int64_t head_dim, int64_t seq) {
  const std::vector<uint16_t> q = RandomBf16(heads * head_dim);
  const std::vector<uint16_t> k = RandomBf16(kv_heads * seq * head_dim);
  const std::vector<uint16_t> v = RandomBf16(kv_heads * seq * head_dim);
  std::vector<uint16_t> out(static_cast<size_t>(heads * head_dim));
  const float scale = 1.0f / 11.3137085f;
  Measure(Shape("flash_attn_decode_bf16", "hkds", {heads, kv_heads, head_dim, seq}),
          "flash_attn_decode_bf16", {0, 2 * heads * seq * head_dim, heads * head_dim}, [&] {
            return tcpu_flash_attn_decode_bf16(q.data(), k.data(), v.data(), out.data(), heads,
                                               kv_heads, head_dim, seq, seq * head_dim, head_dim,
                                               seq * head_dim, head_dim, scale);
          });
}

// A block of `queries` query tokens at positions first .. first + queries - 1, causal.
void FlashAttnPrefill(int64_t heads, int64_t kv_heads, int64_t head_dim, int64_t queries,
                      int64_t first) {
  const int64_t seq = first + queries;
  const std::vector<uint16_t> q = RandomBf16(queries * heads * head_dim);
  const std::vector<uint16_t> k = RandomBf16(kv_heads * seq * head_dim);
  const std::vector<uint16_t> v = RandomBf16(kv_heads * seq * head_dim);
  std::vector<uint16_t> out(static_cast<size_t>(queries * heads * head_dim));
  const float scale = 1.0f / 11.3137085f;
  const int64_t positions = queries * first + queries * (queries + 1) / 2;  // summed over queries
  Measure(Shape("flash_attn_prefill_bf16", "hkdtp", {heads, kv_heads, head_dim, queries, first}),
          "flash_attn_decode_bf16",
          {0, 2 * heads * positions * head_dim, queries * heads * head_dim}, [&] {
            return tcpu_flash_attn_prefill_bf16(q.data(), k.data(), v.data(), out.data(), queries,
                                                heads, kv_heads, head_dim, first, seq * head_dim,
                                                head_dim, seq * head_dim, head_dim, scale);
          });
}

void FusedMlp(int64_t hidden, int64_t intermediate) {
  const std::vector<uint8_t> gate = Pack(intermediate, hidden), up = Pack(intermediate, hidden),
                             down = Pack(hidden, intermediate);
  const std::vector<float> gs = RandomScales(intermediate), us = RandomScales(intermediate),
                           ds = RandomScales(hidden);
  const std::vector<uint16_t> x = RandomBf16(hidden);
  std::vector<uint16_t> y(static_cast<size_t>(hidden));
  const int64_t bytes = 3 * hidden * intermediate;
  Measure(Shape("fused_mlp_bf16", "hi", {hidden, intermediate}), "fused_mlp_bf16",
          {bytes, bytes, hidden}, [&] {
            return tcpu_fused_mlp_bf16(gate.data(), gs.data(), up.data(), us.data(), down.data(),
                                       ds.data(), x.data(), y.data(), hidden, intermediate);
          });
}

// MiniCPM5-1B.
constexpr int64_t kHidden = 1536, kHeads = 16, kKvHeads = 2, kHeadDim = 128,
                  kIntermediate = 4608, kPrefill = 64;

bool Run(const std::string& family, const std::string& shapes) {
  const bool gate = shapes == "gate", decode = shapes == "decode", prefill = shapes == "prefill",
             issue = shapes == "issue";
  if (!gate && !decode && !prefill && !issue) {
    std::fprintf(stderr, "perf_kernels: --shapes must be gate, decode, prefill or issue, got '%s'\n",
                 shapes.c_str());
    return false;
  }
  // The projections of one layer: q, k and v, o, gate and up, down.
  const std::vector<std::pair<int64_t, int64_t>> layer = {
      {kHeads * kHeadDim, kHidden}, {kKvHeads * kHeadDim, kHidden}, {kHidden, kHeads * kHeadDim},
      {kIntermediate, kHidden},     {kHidden, kIntermediate}};
  if (family == "gemv" || family == "gemv_w8a8") {
    auto run = family == "gemv" ? Gemv : GemvW8A8;
    if (gate) {
      run(64, 512);
      run(36, 200);  // partial blocks and chunks
    } else if (issue) {
      run(512, 2048);
    } else if (decode) {
      for (const auto& [n, k] : layer) run(n, k);
    } else {
      return true;  // GEMV has no prefill shape
    }
  } else if (family == "gemm") {
    if (gate) {
      Gemm(16, 64, 512);
      Gemm(5, 36, 200);
    } else if (issue) {
      for (int64_t m : {1, 4, 16, 64, 512}) Gemm(m, 512, 2048);
    } else if (prefill) {
      for (const auto& [n, k] : layer) Gemm(kPrefill, n, k);
    } else {
      for (const auto& [n, k] : layer) Gemm(1, n, k);
    }
  } else if (family == "gemv_w4a8") {
    if (gate) {
      GemvW4A8(64, 512);
      GemvW4A8(36, 200);  // partial tiles and groups
    } else if (issue) {
      GemvW4A8(512, 2048);
    } else if (decode) {
      for (const auto& [n, k] : layer) GemvW4A8(n, k);
    }
  } else if (family == "gemm_w4a8") {
    if (gate) {
      GemmW4A8(16, 64, 512);
      GemmW4A8(5, 36, 200);
    } else if (issue) {
      for (int64_t m : {1, 4, 16, 64, 512}) GemmW4A8(m, 512, 2048);
    } else if (prefill) {
      for (const auto& [n, k] : layer) GemmW4A8(kPrefill, n, k);
    } else {
      for (const auto& [n, k] : layer) GemmW4A8(1, n, k);
    }
  } else if (family == "gemv_q8") {
    if (gate) {
      GemvQ8(64, 512);
      GemvQ8(36, 200);  // partial tiles and groups
    } else if (issue) {
      GemvQ8(512, 2048);
    } else if (decode) {
      for (const auto& [n, k] : layer) GemvQ8(n, k);
    }
  } else if (family == "gemm_q8") {
    if (gate) {
      GemmQ8(16, 64, 512);
      GemmQ8(5, 36, 200);
    } else if (issue) {
      for (int64_t m : {1, 4, 16, 64, 512}) GemmQ8(m, 512, 2048);
    } else if (prefill) {
      for (const auto& [n, k] : layer) GemmQ8(kPrefill, n, k);
    } else {
      for (const auto& [n, k] : layer) GemmQ8(1, n, k);
    }
  } else if (family == "rms_norm") {
    RmsNorm(gate ? 512 : kHidden);
  } else if (family == "swiglu") {
    Swiglu(gate ? 1024 : kIntermediate);
  } else if (family == "rope") {
    Rope(gate ? 4 : kHeads, gate ? 64 : kHeadDim);
  } else if (family == "flash_attn") {
    FlashAttn(gate ? 4 : kHeads, gate ? 2 : kKvHeads, gate ? 64 : kHeadDim,
              gate ? 128 : (prefill ? 4096 : 1024));
    // Prefill: a 16-query block ending at the decode gate's position (positions 113..128);
    // MiniCPM5-1B's first 64-token block.
    if (gate) FlashAttnPrefill(4, 2, 64, 16, 112);
    if (prefill) FlashAttnPrefill(kHeads, kKvHeads, kHeadDim, kPrefill, 0);
  } else if (family == "fused_mlp") {
    if (gate) {
      FusedMlp(256, 512);
    } else {
      FusedMlp(kHidden, kIntermediate);
    }
  } else {
    std::fprintf(stderr,
                 "perf_kernels: unknown --family '%s' (gemv, gemv_w8a8, gemm, gemv_w4a8, "
                 "gemm_w4a8, gemv_q8, gemm_q8, rms_norm, swiglu, rope, flash_attn, fused_mlp)\n",
                 family.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string family, shapes = "gate";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--family=", 9) == 0) {
      family = argv[i] + 9;
    } else if (std::strncmp(argv[i], "--shapes=", 9) == 0) {
      shapes = argv[i] + 9;
    } else {
      std::fprintf(stderr, "perf_kernels: unknown argument '%s' (--family=F --shapes=S)\n",
                   argv[i]);
      return 2;
    }
  }
  if (tcpu_set_num_threads(1) != 0) {
    std::fprintf(stderr, "perf_kernels: tcpu_set_num_threads(1): %s\n", tcpu_last_error_detail());
    return 1;
  }
  if (!Run(family, shapes)) return 2;
  return failed ? 1 : 0;
}
