// Guest-instruction counts of the Triton kernels beside their hand-written peers (issue 10's
// performance table): run under tools/perf's counting plugin, one thread, one region per call.
//   bazel build --config=aarch64 -c opt //kernels/triton:triton_perf
//   bazel run -c opt //tools/perf:count -- --variant=vl128 bazel-bin/kernels/triton/triton_perf
// `--shapes=gate` runs the same regions at small shapes (//tools/perf:triton_perf_gate).
// Regions: the int8 matmul (TTIR: b as [K, N], tutorial 03) and linear layer (TTIR: x times
// w transposed, w as [N, K]) and tcpu_gemm_i8 (x times w transposed, w packed) at M=16 N=512
// K=2048 (MACs), and tcpu_pack_weights_i8 packing that w; at table shapes, the hand kernel from
// each Triton kernel's own inputs (b or w packed, then tcpu_gemm_i8, in one region);
// tutorial 03 in bf16, f16 and f16 with an f16 accumulator (128x256x64, strip-mined by
// tt-strip-mine-tiles; BFMMLA, FMLAL or FMLA .8h where the CPU has bf16, fp16fml or fp16) at
// m=128 n=256, k 512 in the table and 256 in the gate (MACs);
// the other float matmuls at their own tiles (16x32x32) and at a GPU configuration (tutorial
// 09's persistent 128x128x64) and the split-K int8 matmul, table shapes only (MACs);
// softmax and layer norm (TTIR, vectorized) and the same TTIR compiled without NEON
// (NAME__scalar, from tcpu-compile --mattr=-neon), per element;
// attention forward, tutorial 06 at 128x64 blocks (fp16, descriptors) and the 16-query f32
// flash_attention.ttir, one head of n_ctx=256, table shapes only (MACs: Q K^T and P V).
// At the table shapes only, each kernel's peers (peer_regions.h): its computation as a plain C
// loop (plain_loops.h, region "clang -O3 WHAT") and the project's hand-written kernel where one
// computes the same (packing and tcpu_gemm_i8, and tcpu_gemm_i8 alone on weights packed ahead;
// tcpu_flash_attn_decode_bf16 and _prefill_bf16, on bf16 copies), each checked against the
// kernel's results; the gate's regions stay as they are.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/triton/attention_fwd.h"
#include "kernels/triton/attention_fwd_causal.h"
#include "kernels/triton/flash_attention.h"
#include "kernels/triton/layer_norm.h"
#include "kernels/triton/linear_i8.h"
#include "kernels/triton/matmul_bf16.h"
#include "kernels/triton/matmul_f32.h"
#include "kernels/triton/matmul_i8.h"
#include "kernels/triton/matmul_persistent_bf16.h"
#include "kernels/triton/matmul_splitk_i8.h"
#include "kernels/triton/matmul_tutorial_bf16.h"
#include "kernels/triton/matmul_tutorial_f16.h"
#include "kernels/triton/matmul_tutorial_f16acc.h"
#include "kernels/triton/peer_regions.h"
#include "kernels/triton/plain_loops.h"
#include "kernels/triton/softmax.h"
#include "tcpu/attention.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/fp16.h"
#include "tcpu/gemm.h"
#include "tcpu/gemv.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

// The same kernels lowered without vectorization (kernel ABI: arguments, then the program id
// and the grid).
extern "C" void softmax_kernel__scalar(void* output, void* input, int32_t input_row_stride,
                                       int32_t output_row_stride, int32_t n_rows, int32_t n_cols,
                                       int32_t pid_x, int32_t pid_y, int32_t pid_z, int32_t grid_x,
                                       int32_t grid_y, int32_t grid_z);
extern "C" void _layer_norm_fwd_fused__scalar(void* x, void* y, void* w, void* b, void* mean,
                                              void* rstd, int32_t stride, int32_t n, float eps,
                                              int32_t pid_x, int32_t pid_y, int32_t pid_z,
                                              int32_t grid_x, int32_t grid_y, int32_t grid_z);

namespace {

using tcpu::triton_peers::Agree;
using tcpu::triton_peers::CountPeer;
using tcpu::triton_peers::CountPlainLoop;
using tcpu::triton_peers::Decoded;
using tcpu::triton_peers::kPlainLoop;
using tcpu::triton_peers::PrintPeer;

bool Check(int status, const char* what) {
  if (status == TCPU_OK) return true;
  std::fprintf(stderr, "%s failed: %s\n", what, tcpu_status_string(status));
  return false;
}

// The problem sizes of one run: the table's (default) or the gate's (--shapes=gate).
struct Shapes {
  int32_t m, n, k;     // matmul and linear layer; m a multiple of 16, n of 32, k of 32
  int32_t tutorial_k;  // k of the bf16 tutorial matmul (one 128x256 block); a multiple of 64
  int32_t rows, cols;  // softmax and layer norm; cols at most the kernels' block (1024)
  bool peers;          // count the kernels' clang -O3 and hand-written peers beside them
};

constexpr Shapes kTableShapes = {16, 512, 2048, 512, 64, 1024, true};
constexpr Shapes kGateShapes = {16, 64, 256, 256, 4, 1024, false};

// A region's name: what ran and at which sizes, e.g. "triton matmul_i8 m=16 n=512 k=2048".
std::string Region(const char* what, const std::string& sizes) {
  return std::string(what) + " " + sizes;
}

// Runs `launch` (returning a tcpu_status) as the counted region "what sizes".
template <typename Launch>
bool Counted(const char* what, const std::string& sizes, Launch&& launch) {
  const std::string region = Region(what, sizes);
  tcpu_perf_region_begin(region.c_str());
  const int status = launch();
  tcpu_perf_region_end(region.c_str());
  return Check(status, what);
}

std::string MatmulSizes(int32_t m, int32_t n, int32_t k) {
  return "m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k);
}

enum class KMajor : bool { kNo, kYes };

// The hand kernel from a Triton int8 kernel's own inputs: the weights (b as [k, n] with
// k_major, else w as [n, k]) packed, then tcpu_gemm_i8, in one region ("hand"), checked
// against `c`, the kernels' result.
bool CountPackAndGemm(int64_t macs, std::initializer_list<std::string> kernels,
                      const std::vector<int8_t>& weights, KMajor k_major,
                      const std::vector<int8_t>& a, const std::vector<int32_t>& c, int32_t m,
                      int32_t n, int32_t k) {
  const bool kn = k_major == KMajor::kYes;
  const char* pack_name = kn ? "tcpu_pack_weights_i8_kn" : "tcpu_pack_weights_i8";
  std::vector<uint8_t> packed(static_cast<size_t>(tcpu_packed_weights_size(n, k)));
  std::vector<int32_t> c_hand(c.size());
  const std::string region = std::string(pack_name) + " + " + Region("tcpu_gemm_i8",
                                                                     MatmulSizes(m, n, k));
  const std::string checked = "from " + region;
  return CountPeer(
      "hand", region, macs, "MACs", kernels,
      [&] {
        const int64_t bytes = static_cast<int64_t>(packed.size());
        const int status = kn ? tcpu_pack_weights_i8_kn(weights.data(), n, k, packed.data(), bytes)
                              : tcpu_pack_weights_i8(weights.data(), n, k, packed.data(), bytes);
        return status != TCPU_OK ? status
                                 : tcpu_gemm_i8(packed.data(), a.data(), c_hand.data(), m, n, k);
      },
      [&] { return Agree("tcpu_gemm_i8", c, c_hand, 0.0, checked.c_str()); });
}

bool Matmul(const Shapes& shapes) {
  const int32_t m = shapes.m, n = shapes.n, k = shapes.k;
  const std::string sizes = MatmulSizes(m, n, k);
  const std::string triton_matmul_i8_region = Region("triton matmul_i8", sizes);
  const std::string triton_linear_i8_region = Region("triton linear_i8", sizes);
  const std::string tcpu_gemm_i8_region = Region("tcpu_gemm_i8", sizes);
  std::vector<int8_t> a(static_cast<size_t>(m) * k), b(static_cast<size_t>(k) * n),
      w(static_cast<size_t>(n) * k);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>((i * 37 + 11) % 255 - 127);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>((i * 53 + 7) % 255 - 127);
  for (int32_t p = 0; p < k; ++p) {
    for (int32_t j = 0; j < n; ++j)
      w[static_cast<size_t>(j) * k + p] = b[static_cast<size_t>(p) * n + j];
  }
  std::vector<int32_t> c_triton(static_cast<size_t>(m) * n), c_gemm(c_triton.size());
  tcpu_perf_region_begin(triton_matmul_i8_region.c_str());
  int status = tcpu_launch_matmul_kernel_i8(a.data(), b.data(), c_triton.data(), m, n, k, k, n, n,
                                            (m / 16) * (n / 32), 1, 1);
  tcpu_perf_region_end(triton_matmul_i8_region.c_str());
  if (!Check(status, "tcpu_launch_matmul_kernel_i8")) return false;
  std::vector<int32_t> c_linear(c_triton.size());
  tcpu_perf_region_begin(triton_linear_i8_region.c_str());
  status = tcpu_launch_linear_kernel_i8(a.data(), w.data(), c_linear.data(), m, n, k, k, k, n,
                                        (m / 8) * (n / 8), 1, 1);
  tcpu_perf_region_end(triton_linear_i8_region.c_str());
  if (!Check(status, "tcpu_launch_linear_kernel_i8")) return false;

  // tcpu_gemm_i8 reads w packed ahead of time (a model's weights, packed when it loads); the
  // packing is counted on its own, for the same product from the Triton kernels' inputs.
  std::vector<uint8_t> packed(static_cast<size_t>(tcpu_packed_weights_size(n, k)));
  if (!Counted("tcpu_pack_weights_i8", sizes, [&] {
        return tcpu_pack_weights_i8(w.data(), n, k, packed.data(), packed.size());
      })) {
    return false;
  }
  tcpu_perf_region_begin(tcpu_gemm_i8_region.c_str());
  status = tcpu_gemm_i8(packed.data(), a.data(), c_gemm.data(), m, n, k);
  tcpu_perf_region_end(tcpu_gemm_i8_region.c_str());
  if (!Check(status, "tcpu_gemm_i8")) return false;
  if (c_triton != c_gemm || c_linear != c_gemm) {
    std::fprintf(stderr, "the Triton int8 matmul or linear layer and tcpu_gemm_i8 disagree\n");
    return false;
  }
  std::printf("matmul: %lld MACs per call\n", static_cast<long long>(m) * n * k);
  if (!shapes.peers) return true;
  PrintPeer(triton_matmul_i8_region, "prepacked", tcpu_gemm_i8_region);
  PrintPeer(triton_linear_i8_region, "prepacked", tcpu_gemm_i8_region);
  const int64_t macs = int64_t{m} * n * k;
  std::vector<int32_t> c_plain(c_triton.size()), c_plain_linear(c_triton.size());
  return CountPackAndGemm(macs, {triton_matmul_i8_region}, b, KMajor::kYes, a, c_triton, m, n,
                          k) &&
         CountPackAndGemm(macs, {triton_linear_i8_region}, w, KMajor::kNo, a, c_linear, m, n,
                          k) &&
         CountPlainLoop(
             "matmul_i8 " + sizes, macs, "MACs", {triton_matmul_i8_region},
             [&] { plain_matmul_i8(a.data(), b.data(), c_plain.data(), m, n, k, k, n, n); },
             [&] { return Agree("matmul_i8", c_triton, c_plain, 0.0, kPlainLoop); }) &&
         CountPlainLoop(
             "linear_i8 " + sizes, macs, "MACs", {triton_linear_i8_region},
             [&] { plain_linear_i8(a.data(), w.data(), c_plain_linear.data(), m, n, k, k, k, n); },
             [&] { return Agree("linear_i8", c_linear, c_plain_linear, 0.0, kPlainLoop); });
}

// The float matmuls' inputs: a[i] = sin(0.7 i), b[i] = cos(0.3 i).
void FloatInputs(std::vector<float>& a, std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.7f * static_cast<float>(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.3f * static_cast<float>(i));
}

// Tutorial 03 on its one 128x256 block (grid 1), in bf16, in f16 and in f16 with an f16
// accumulator: in the gate too, so that their instructions per MAC (BFMMLA, FMLAL, FMLA .8h
// where the CPU has bf16, fp16fml, fp16) are held beside the int8 matmul's.
// The tutorial matmuls' clang -O3 loops on row-major A, B, C holding the element type's bits;
// `acc`: n floats of scratch.
using PlainMatmul = void (*)(const uint16_t* a, const uint16_t* b, uint16_t* c, float* acc,
                             int32_t m, int32_t n, int32_t k);

void PlainMatmulBf16(const uint16_t* a, const uint16_t* b, uint16_t* c, float* acc, int32_t m,
                     int32_t n, int32_t k) {
  plain_matmul_bf16(reinterpret_cast<const __bf16*>(a), reinterpret_cast<const __bf16*>(b),
                    reinterpret_cast<__bf16*>(c), acc, m, n, k, k, n, n);
}

void PlainMatmulF16(const uint16_t* a, const uint16_t* b, uint16_t* c, float* acc, int32_t m,
                    int32_t n, int32_t k) {
  plain_matmul_f16_f32acc(reinterpret_cast<const _Float16*>(a),
                          reinterpret_cast<const _Float16*>(b), reinterpret_cast<_Float16*>(c), acc,
                          m, n, k, k, n, n);
}

void PlainMatmulF16Acc(const uint16_t* a, const uint16_t* b, uint16_t* c, float* /*acc*/, int32_t m,
                       int32_t n, int32_t k) {
  plain_matmul_f16_f16acc(reinterpret_cast<const _Float16*>(a),
                          reinterpret_cast<const _Float16*>(b), reinterpret_cast<_Float16*>(c), m,
                          n, k, k, n, n);
}

struct TutorialKernel {
  const char* name;
  int (*launch)(void* a, void* b, void* c, int32_t m, int32_t n, int32_t k, int32_t lda,
                int32_t ldb, int32_t ldc, int32_t grid_x, int32_t grid_y, int32_t grid_z);
  const char* (*variant)(void);
  uint16_t (*from_f32)(float);  // the element type's bits
  float (*to_f32)(uint16_t);
  const char* plain_what;  // its clang -O3 peer: "clang -O3 PLAIN_WHAT m=.. n=.. k=.."
  PlainMatmul plain;
  double tolerance;  // of the kernel's C against the clang -O3 loop's (tcpu::triton_peers::Agree)
};

// Tolerances: f32 sums in other orders, one rounding of C: an ulp of C (bf16 2^-7, f16 2^-10 of
// max(1, |c|)). With an f16 accumulator every partial sum rounds (matmul_tutorial_test): in
// another order, a random walk of 512 half-ulp steps, 2^-4 of max(1, |c|) on these inputs (the
// kernel and the loop both add in k order with f16 FMAs, and agree bit for bit).
constexpr TutorialKernel kTutorialKernels[] = {
    {"matmul_tutorial_bf16", tcpu_launch_matmul_tutorial_kernel_bf16,
     tcpu_variant_matmul_tutorial_kernel_bf16, tcpu_f32_to_bf16, tcpu_bf16_to_f32, "matmul_bf16",
     PlainMatmulBf16, 0x1p-7},
    {"matmul_tutorial_f16", tcpu_launch_matmul_tutorial_kernel_f16,
     tcpu_variant_matmul_tutorial_kernel_f16, tcpu_f32_to_f16, tcpu_f16_to_f32, "matmul_f16",
     PlainMatmulF16, 0x1p-10},
    {"matmul_tutorial_f16acc", tcpu_launch_matmul_tutorial_kernel_f16acc,
     tcpu_variant_matmul_tutorial_kernel_f16acc, tcpu_f32_to_f16, tcpu_f16_to_f32, "matmul_f16acc",
     PlainMatmulF16Acc, 0x1p-4},
};

bool TutorialMatmul(const Shapes& shapes, const TutorialKernel& kernel) {
  const int32_t m = 128, n = 256, k = shapes.tutorial_k;
  std::vector<float> a32(static_cast<size_t>(m) * k), b32(static_cast<size_t>(k) * n);
  FloatInputs(a32, b32);
  std::vector<uint16_t> a(a32.size()), b(b32.size()), c(static_cast<size_t>(m) * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = kernel.from_f32(a32[i]);
  for (size_t i = 0; i < b.size(); ++i) b[i] = kernel.from_f32(b32[i]);
  const std::string region =
      Region((std::string("triton ") + kernel.name + " 128x256x64").c_str(), MatmulSizes(m, n, k));
  tcpu_perf_region_begin(region.c_str());
  const int status = kernel.launch(a.data(), b.data(), c.data(), m, n, k, k, n, n, 1, 1, 1);
  tcpu_perf_region_end(region.c_str());
  if (!Check(status, kernel.name)) return false;
  std::printf("%s (%s): %lld MACs per call\n", kernel.name, kernel.variant(),
              static_cast<long long>(m) * n * k);
  if (!shapes.peers) return true;
  std::vector<uint16_t> c_plain(c.size());
  std::vector<float> acc(n);
  return CountPlainLoop(
      std::string(kernel.plain_what) + " " + MatmulSizes(m, n, k), int64_t{m} * n * k, "MACs",
      {region}, [&] { kernel.plain(a.data(), b.data(), c_plain.data(), acc.data(), m, n, k); },
      [&] {
        return Agree(kernel.name, Decoded(c, kernel.to_f32), Decoded(c_plain, kernel.to_f32),
                     kernel.tolerance, kPlainLoop);
      });
}

bool TutorialMatmuls(const Shapes& shapes) {
  for (const TutorialKernel& kernel : kTutorialKernels) {
    if (!TutorialMatmul(shapes, kernel)) return false;
  }
  return true;
}

// The other float matmuls at m=128 n=256 k=512 (table only), with their peers: f32 and the
// split-K int8 matmul beside their clang -O3 loops (and the int8 one beside tcpu_gemm_i8); the
// bf16 kernels' clang -O3 peer is tutorial 03's (the same product of the same bf16 values), which
// also checks their results here.
bool FloatMatmul() {
  const int32_t m = 128, n = 256, k = 512;
  const std::string sizes = MatmulSizes(m, n, k);
  std::vector<float> a32(static_cast<size_t>(m) * k), b32(static_cast<size_t>(k) * n);
  FloatInputs(a32, b32);
  std::vector<uint16_t> a16(a32.size()), b16(b32.size());
  for (size_t i = 0; i < a32.size(); ++i) a16[i] = tcpu_f32_to_bf16(a32[i]);
  for (size_t i = 0; i < b32.size(); ++i) b16[i] = tcpu_f32_to_bf16(b32[i]);
  std::vector<float> c32(static_cast<size_t>(m) * n);
  std::vector<uint16_t> c16(c32.size());
  const int32_t small_grid = (m / 16) * (n / 32);
  auto timed = [&](const char* what, auto&& launch) { return Counted(what, sizes, launch); };
  bool ok = timed("triton matmul_f32 16x32x32", [&] {
    return tcpu_launch_matmul_kernel_f32(a32.data(), b32.data(), c32.data(), m, n, k, k, n, n,
                                         small_grid, 1, 1);
  });
  ok = ok && timed("triton matmul_bf16 16x32x32", [&] {
    return tcpu_launch_matmul_kernel_bf16(a16.data(), b16.data(), c16.data(), m, n, k, k, n, n,
                                          small_grid, 1, 1);
  });
  const std::vector<uint16_t> c16_small_tiles = c16;  // the persistent kernel writes c16 next
  ok = ok && timed("triton matmul_persistent_bf16 128x128x64", [&] {
    return tcpu_launch_matmul_persistent_kernel_bf16(a16.data(), b16.data(), c16.data(), m, n, k,
                                                     k, n, n, 1, 1, 1);
  });
  std::vector<int8_t> a8(a32.size()), b8(b32.size());
  for (size_t i = 0; i < a8.size(); ++i) a8[i] = static_cast<int8_t>((i * 37 + 11) % 255 - 127);
  for (size_t i = 0; i < b8.size(); ++i) b8[i] = static_cast<int8_t>((i * 53 + 7) % 255 - 127);
  std::vector<int32_t> c8(c32.size(), 0);
  ok = ok && timed("triton matmul_splitk_i8 64x64x32 split=4", [&] {
    return tcpu_launch_matmul_splitk_kernel_i8(a8.data(), b8.data(), c8.data(), m, n, k, k, n, n,
                                               (m / 64) * (n / 64), 4, 1);
  });
  if (!ok) return false;
  std::printf("float matmul: %lld MACs per call\n", static_cast<long long>(m) * n * k);

  const int64_t macs = int64_t{m} * n * k;
  const std::string f32_region = Region("triton matmul_f32 16x32x32", sizes);
  std::vector<float> c32_plain(c32.size()), acc(n);
  ok = CountPlainLoop(
      "matmul_f32 " + sizes, macs, "MACs", {f32_region},
      [&] { plain_matmul_f32(a32.data(), b32.data(), c32_plain.data(), m, n, k, k, n, n); },
      // Sums of 512 products of magnitude <= 1 in other orders.
      [&] { return Agree("matmul_f32", c32, c32_plain, 1e-5, kPlainLoop); });

  // The bf16 kernels' C against the loop's, run here uncounted (its region is tutorial 03's):
  // f32 sums in other orders, one bf16 rounding (an ulp: 2^-7 of max(1, |c|)).
  std::vector<uint16_t> c16_plain(c16.size());
  PlainMatmulBf16(a16.data(), b16.data(), c16_plain.data(), acc.data(), m, n, k);
  const std::vector<float> bf16_plain = Decoded(c16_plain, tcpu_bf16_to_f32);
  ok = ok &&
       Agree("matmul_bf16", Decoded(c16_small_tiles, tcpu_bf16_to_f32), bf16_plain, 0x1p-7,
             kPlainLoop) &&
       Agree("matmul_persistent_bf16", Decoded(c16, tcpu_bf16_to_f32), bf16_plain, 0x1p-7,
             kPlainLoop);
  for (const char* kernel :
       {"triton matmul_bf16 16x32x32", "triton matmul_persistent_bf16 128x128x64"}) {
    PrintPeer(Region(kernel, sizes), "clang", "clang -O3 matmul_bf16 " + sizes);
  }

  const std::string splitk_region = Region("triton matmul_splitk_i8 64x64x32 split=4", sizes);
  std::vector<int32_t> c8_plain(c8.size()), c8_gemm(c8.size());
  // tcpu_gemm_i8 on b packed ahead of time (its pack counted on its own), and from b as given.
  std::vector<uint8_t> packed(static_cast<size_t>(tcpu_packed_weights_size(n, k)));
  if (!timed("tcpu_pack_weights_i8_kn", [&] {
        return tcpu_pack_weights_i8_kn(b8.data(), n, k, packed.data(), packed.size());
      })) {
    return false;
  }
  return ok &&
         CountPlainLoop(
             "matmul_i8 " + sizes, macs, "MACs", {splitk_region},
             [&] { plain_matmul_i8(a8.data(), b8.data(), c8_plain.data(), m, n, k, k, n, n); },
             [&] { return Agree("matmul_splitk_i8", c8, c8_plain, 0.0, kPlainLoop); }) &&
         CountPeer(
             "prepacked", Region("tcpu_gemm_i8", sizes), macs, "MACs", {splitk_region},
             [&] { return tcpu_gemm_i8(packed.data(), a8.data(), c8_gemm.data(), m, n, k); },
             [&] { return Agree("matmul_splitk_i8", c8, c8_gemm, 0.0, "from tcpu_gemm_i8"); }) &&
         CountPackAndGemm(macs, {splitk_region}, b8, KMajor::kYes, a8, c8, m, n, k);
}

bool Softmax(const Shapes& shapes) {
  const int32_t rows = shapes.rows, cols = shapes.cols;
  const std::string sizes = "rows=" + std::to_string(rows) + " cols=" + std::to_string(cols);
  const std::string triton_softmax_region = Region("triton softmax", sizes);
  const std::string triton_softmax_without_neon_region =
      Region("triton softmax without NEON", sizes);
  std::vector<float> input(static_cast<size_t>(rows) * cols), vectorized(input.size()),
      scalar(input.size());
  for (size_t i = 0; i < input.size(); ++i) input[i] = std::sin(0.37f * static_cast<float>(i)) * 6;
  tcpu_perf_region_begin(triton_softmax_region.c_str());
  int status = tcpu_launch_softmax_kernel(vectorized.data(), input.data(), cols, cols, rows, cols,
                                          rows, 1, 1);
  tcpu_perf_region_end(triton_softmax_region.c_str());
  if (!Check(status, "tcpu_launch_softmax_kernel")) return false;
  tcpu_perf_region_begin(triton_softmax_without_neon_region.c_str());
  for (int32_t pid = 0; pid < rows; ++pid) {
    softmax_kernel__scalar(scalar.data(), input.data(), cols, cols, rows, cols, pid, 0, 0, rows, 1,
                           1);
  }
  tcpu_perf_region_end(triton_softmax_without_neon_region.c_str());
  for (size_t i = 0; i < input.size(); ++i) {
    if (std::fabs(vectorized[i] - scalar[i]) > 1e-6f * std::fabs(scalar[i]) + 1e-12f) {
      std::fprintf(stderr, "softmax: element %zu is %g vectorized, %g without NEON\n", i,
                   vectorized[i], scalar[i]);
      return false;
    }
  }
  std::printf("softmax: %d elements per call\n", rows * cols);
  if (!shapes.peers) return true;
  std::vector<float> plain(input.size());
  return CountPlainLoop(
      "softmax " + sizes, int64_t{rows} * cols, "elements", {triton_softmax_region},
      [&] { plain_softmax_rows_f32(input.data(), plain.data(), rows, cols, cols, cols); },
      // exp within an ulp on both sides, sums of 1024 terms in other orders, then a division:
      // within 1e-5 of each value (relative only: the values are below 1).
      [&] { return Agree("softmax", vectorized, plain, 1e-5, kPlainLoop, 0.0); });
}

bool LayerNorm(const Shapes& shapes) {
  const int32_t rows = shapes.rows, n = shapes.cols;
  const std::string sizes = "rows=" + std::to_string(rows) + " n=" + std::to_string(n);
  const std::string triton_layer_norm_region = Region("triton layer_norm", sizes);
  const std::string triton_layer_norm_without_neon_region =
      Region("triton layer_norm without NEON", sizes);
  constexpr float eps = 1e-5f;
  std::vector<float> x(static_cast<size_t>(rows) * n), w(n), b(n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.11f * static_cast<float>(i)) * 3 + 0.5f;
  for (int32_t i = 0; i < n; ++i) {
    w[i] = 1.0f + 0.01f * static_cast<float>(i % 17);
    b[i] = 0.1f * static_cast<float>(i % 5) - 0.2f;
  }
  std::vector<float> y(x.size()), y_scalar(x.size()), mean(rows), rstd(rows), mean_scalar(rows),
      rstd_scalar(rows);
  tcpu_perf_region_begin(triton_layer_norm_region.c_str());
  int status = tcpu_launch__layer_norm_fwd_fused(x.data(), y.data(), w.data(), b.data(),
                                                 mean.data(), rstd.data(), n, n, eps, rows, 1, 1);
  tcpu_perf_region_end(triton_layer_norm_region.c_str());
  if (!Check(status, "tcpu_launch__layer_norm_fwd_fused")) return false;
  tcpu_perf_region_begin(triton_layer_norm_without_neon_region.c_str());
  for (int32_t pid = 0; pid < rows; ++pid) {
    _layer_norm_fwd_fused__scalar(x.data(), y_scalar.data(), w.data(), b.data(), mean_scalar.data(),
                                  rstd_scalar.data(), n, n, eps, pid, 0, 0, rows, 1, 1);
  }
  tcpu_perf_region_end(triton_layer_norm_without_neon_region.c_str());
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::fabs(y[i] - y_scalar[i]) > 1e-5f * std::fabs(y_scalar[i]) + 1e-6f) {
      std::fprintf(stderr, "layer_norm: element %zu is %g vectorized, %g without NEON\n", i, y[i],
                   y_scalar[i]);
      return false;
    }
  }
  std::printf("layer_norm: %d elements per call\n", rows * n);
  if (!shapes.peers) return true;
  std::vector<float> y_plain(x.size()), mean_plain(rows), rstd_plain(rows);
  return CountPlainLoop(
      "layer_norm " + sizes, int64_t{rows} * n, "elements", {triton_layer_norm_region},
      [&] {
        plain_layer_norm_fwd_f32(x.data(), y_plain.data(), w.data(), b.data(), mean_plain.data(),
                                 rstd_plain.data(), rows, n, n, eps);
      },
      // Two row sums of 1024 terms (|x| <= 3.5) in other orders.
      [&] {
        return Agree("layer_norm y", y, y_plain, 1e-5, kPlainLoop) &&
               Agree("layer_norm mean", mean, mean_plain, 1e-5, kPlainLoop) &&
               Agree("layer_norm rstd", rstd, rstd_plain, 1e-5, kPlainLoop);
      });
}

// Attention forward over one head of 256 queries and keys: tutorial 06 (HEAD_DIM 64, two
// 128-query programs, non-causal and causal) and flash_attention.ttir (head_dim 32, sixteen
// 16-query programs). MACs are those of the blocks each computes: 2 n_ctx^2 head_dim
// non-causal; causal, the blocks up to and on the diagonal. Their peers: the clang -O3 loops,
// and tcpu_flash_attn_decode_bf16 (every query a decode head of one KV head: non-causal) or
// _prefill_bf16 (causal) on bf16 copies of the same values.
bool Attention() {
  constexpr int32_t n_ctx = 256, tutorial_dim = 64, flash_dim = 32;
  const std::string sizes = "n_ctx=" + std::to_string(n_ctx);
  std::vector<float> q(n_ctx * tutorial_dim), k(q.size()), v(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    q[i] = std::sin(0.31f * static_cast<float>(i));
    k[i] = std::cos(0.17f * static_cast<float>(i));
    v[i] = std::sin(0.05f * static_cast<float>(i));
  }
  std::vector<_Float16> q16(q.size()), k16(q.size()), v16(q.size()), o16(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    q16[i] = static_cast<_Float16>(q[i]);
    k16[i] = static_cast<_Float16>(k[i]);
    v16[i] = static_cast<_Float16>(v[i]);
  }
  std::vector<float> m(n_ctx), q32(n_ctx * flash_dim), k32(q32.size()), v32(q32.size()),
      o32(q32.size());
  for (size_t i = 0; i < q32.size(); ++i) {
    q32[i] = std::sin(0.31f * static_cast<float>(i));
    k32[i] = std::cos(0.17f * static_cast<float>(i));
    v32[i] = std::sin(0.05f * static_cast<float>(i));
  }
  const std::string tutorial = Region("triton attention_fwd 128x64 d=64", sizes),
                    tutorial_causal = Region("triton attention_fwd_causal 128x64 d=64", sizes),
                    flash = Region("triton flash_attention 16x16 d=32", sizes);
  auto counted = [&](const char* what, auto&& launch) { return Counted(what, sizes, launch); };
  bool ok = counted("triton attention_fwd 128x64 d=64", [&] {
    return tcpu_launch__attn_fwd(0.125f, m.data(), 1, 1, q16.data(), k16.data(), v16.data(),
                                 o16.data(), n_ctx, n_ctx / 128, 1, 1);
  });
  const std::vector<_Float16> o16_non_causal = o16;  // the causal kernel writes o16 and m next
  const std::vector<float> m_non_causal = m;
  ok = ok && counted("triton attention_fwd_causal 128x64 d=64", [&] {
    return tcpu_launch__attn_fwd_causal(0.125f, m.data(), 1, 1, q16.data(), k16.data(),
                                        v16.data(), o16.data(), n_ctx, n_ctx / 128, 1, 1);
  });
  ok = ok && counted("triton flash_attention 16x16 d=32", [&] {
    return tcpu_launch_attn_fwd(q32.data(), k32.data(), v32.data(), o32.data(), 0.17f, n_ctx,
                                n_ctx / 16, 1, 1);
  });
  if (!ok) return false;
  // `work` lines: the MACs of each region, for //tools/perf:triton_table.
  const long long blocks = n_ctx / 128;  // causal: row block i computes i + 1 128x128 blocks
  const long long macs = 2LL * n_ctx * n_ctx * tutorial_dim,
                  causal_macs = 2LL * 128 * 128 * tutorial_dim * blocks * (blocks + 1) / 2,
                  flash_macs = 2LL * n_ctx * n_ctx * flash_dim;
  std::printf("work \"%s\" %lld MACs\n", tutorial.c_str(), macs);
  std::printf("work \"%s\" %lld MACs\n", tutorial_causal.c_str(), causal_macs);
  std::printf("work \"%s\" %lld MACs\n", flash.c_str(), flash_macs);

  // The clang -O3 loops. f16: the kernel rounds P to f16 before P V (the loop keeps f32) and O
  // to f16, |O| <= 1: within 2^-9. M (log2 of the row's sum, up to 9): sums in other orders,
  // within 1e-5. f32: the same sums in other orders.
  std::vector<_Float16> o16_plain(q.size()), o16_causal_plain(q.size());
  std::vector<float> m_plain(n_ctx), m_causal_plain(n_ctx), o32_plain(q32.size()),
      scratch(n_ctx + tutorial_dim);
  auto floats = [](const std::vector<_Float16>& v) {
    return std::vector<float>(v.begin(), v.end());
  };
  ok = CountPlainLoop(
           "attention f16 d=64 " + sizes, macs, "MACs", {tutorial},
           [&] {
             plain_attention_f16(q16.data(), k16.data(), v16.data(), o16_plain.data(),
                                 m_plain.data(), scratch.data(), 1, n_ctx, tutorial_dim, 0.125f, 0);
           },
           [&] {
             return Agree("attention_fwd", floats(o16_non_causal), floats(o16_plain), 0x1p-9,
                          kPlainLoop) &&
                    Agree("attention_fwd M", m_non_causal, m_plain, 1e-5, kPlainLoop);
           }) &&
       CountPlainLoop(
           "attention f16 causal d=64 " + sizes, causal_macs, "MACs", {tutorial_causal},
           [&] {
             plain_attention_f16(q16.data(), k16.data(), v16.data(), o16_causal_plain.data(),
                                 m_causal_plain.data(), scratch.data(), 1, n_ctx, tutorial_dim,
                                 0.125f, 1);
           },
           [&] {
             return Agree("attention_fwd_causal", floats(o16), floats(o16_causal_plain), 0x1p-9,
                          kPlainLoop) &&
                    Agree("attention_fwd_causal M", m, m_causal_plain, 1e-5, kPlainLoop);
           }) &&
       CountPlainLoop(
           "attention f32 d=32 " + sizes, flash_macs, "MACs", {flash},
           [&] {
             plain_attention_f32(q32.data(), k32.data(), v32.data(), o32_plain.data(),
                                 scratch.data(), 1, n_ctx, flash_dim, 0.17f);
           },
           [&] { return Agree("flash_attention", o32, o32_plain, 1e-5, kPlainLoop); });
  if (!ok) return false;

  // The hand-written kernels on bf16 copies of the same values, bf16 out: a score moves by up to
  // 2^-8 of |q||k| and a weight by as much, |O| <= 1: within 2^-5 of the kernels'.
  std::vector<uint16_t> qb(q.size()), kb(q.size()), vb(q.size()), ob(q.size()), ob_causal(q.size()),
      qb32(q32.size()), kb32(q32.size()), vb32(q32.size()), ob32(q32.size());
  for (size_t i = 0; i < q.size(); ++i) {
    qb[i] = tcpu_f32_to_bf16(q[i]);
    kb[i] = tcpu_f32_to_bf16(k[i]);
    vb[i] = tcpu_f32_to_bf16(v[i]);
  }
  for (size_t i = 0; i < q32.size(); ++i) {
    qb32[i] = tcpu_f32_to_bf16(q32[i]);
    kb32[i] = tcpu_f32_to_bf16(k32[i]);
    vb32[i] = tcpu_f32_to_bf16(v32[i]);
  }
  const std::string keys = " queries=256 keys=256 ";
  return CountPeer(
             "hand", "tcpu_flash_attn_decode_bf16" + keys + "d=64", macs, "MACs", {tutorial},
             [&] {
               return tcpu_flash_attn_decode_bf16(
                   qb.data(), kb.data(), vb.data(), ob.data(), n_ctx, 1, tutorial_dim, n_ctx,
                   n_ctx * tutorial_dim, tutorial_dim, n_ctx * tutorial_dim, tutorial_dim, 0.125f);
             },
             [&] {
               return Agree("attention_fwd", floats(o16_non_causal), Decoded(ob, tcpu_bf16_to_f32),
                            0x1p-5, "from tcpu_flash_attn_decode_bf16");
             }) &&
         CountPeer(
             "hand", "tcpu_flash_attn_prefill_bf16 causal d=64 " + sizes, causal_macs, "MACs",
             {tutorial_causal},
             [&] {
               return tcpu_flash_attn_prefill_bf16(
                   qb.data(), kb.data(), vb.data(), ob_causal.data(), n_ctx, 1, 1, tutorial_dim, 0,
                   n_ctx * tutorial_dim, tutorial_dim, n_ctx * tutorial_dim, tutorial_dim, 0.125f);
             },
             [&] {
               return Agree("attention_fwd_causal", floats(o16),
                            Decoded(ob_causal, tcpu_bf16_to_f32), 0x1p-5,
                            "from tcpu_flash_attn_prefill_bf16");
             }) &&
         CountPeer(
             "hand", "tcpu_flash_attn_decode_bf16" + keys + "d=32", flash_macs, "MACs", {flash},
             [&] {
               return tcpu_flash_attn_decode_bf16(
                   qb32.data(), kb32.data(), vb32.data(), ob32.data(), n_ctx, 1, flash_dim, n_ctx,
                   n_ctx * flash_dim, flash_dim, n_ctx * flash_dim, flash_dim, 0.17f);
             },
             [&] {
               return Agree("flash_attention", o32, Decoded(ob32, tcpu_bf16_to_f32), 0x1p-5,
                            "from tcpu_flash_attn_decode_bf16");
             });
}

}  // namespace

int main(int argc, char** argv) {
  Shapes shapes = kTableShapes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--shapes=gate") == 0) {
      shapes = kGateShapes;
    } else if (std::strcmp(argv[i], "--shapes=table") != 0) {
      std::fprintf(stderr, "triton_perf: unknown argument '%s' (--shapes=table|gate)\n", argv[i]);
      return 2;
    }
  }
  if (!Check(tcpu_set_num_threads(1), "tcpu_set_num_threads")) return 1;
  // The CPU's features are detected at their first use, reading TCPU_DISABLE: done here, outside
  // every region, so that no count depends on the environment's size (getenv walks it).
  tcpu_cpu_info cpu;
  if (!Check(tcpu_cpu_info_get(&cpu), "tcpu_cpu_info_get")) return 1;
  const bool table = shapes.m == kTableShapes.m && shapes.n == kTableShapes.n;
  return Matmul(shapes) && TutorialMatmuls(shapes) && (!table || FloatMatmul()) &&
                 (!table || Attention()) && Softmax(shapes) && LayerNorm(shapes)
             ? 0
             : 1;
}
