// Guest-instruction counts of the Triton kernels beside their hand-written peers (issue 10's
// performance table): run under tools/perf's counting plugin, one thread, one region per call.
//   bazel build --config=aarch64 -c opt //kernels/triton:triton_perf
//   bazel run //tools/perf:count -- --variant=vl128 bazel-bin/kernels/triton/triton_perf
// `--shapes=gate` runs the same regions at small shapes (//tools/perf:triton_perf_gate).
// Regions: the int8 matmul (TTIR: b as [K, N], tutorial 03) and linear layer (TTIR: x times
// w transposed, w as [N, K]) and tcpu_gemm_i8 (x times w transposed, w packed) at M=16 N=512
// K=2048 (MACs);
// tutorial 03 in bf16, f16 and f16 with an f16 accumulator (128x256x64, strip-mined by
// tt-strip-mine-tiles; BFMMLA, FMLAL or FMLA .8h where the CPU has bf16, fp16fml or fp16) at
// m=128 n=256, k 512 in the table and 256 in the gate (MACs);
// the other float matmuls at their own tiles (16x32x32) and at a GPU configuration (tutorial
// 09's persistent 128x128x64) and the split-K int8 matmul, table shapes only (MACs);
// softmax and layer norm (TTIR, vectorized) and the same TTIR compiled without NEON
// (NAME__scalar, from tcpu-compile --mattr=-neon), per element;
// attention forward, tutorial 06 at 128x64 blocks (fp16, descriptors) and the 16-query f32
// flash_attention.ttir, one head of n_ctx=256, table shapes only (MACs: Q K^T and P V).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
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
#include "kernels/triton/softmax.h"
#include "tcpu/bf16.h"
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
};

constexpr Shapes kTableShapes = {16, 512, 2048, 512, 64, 1024};
constexpr Shapes kGateShapes = {16, 64, 256, 256, 4, 1024};

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

  std::vector<uint8_t> packed(static_cast<size_t>(tcpu_packed_weights_size(n, k)));
  if (!Check(tcpu_pack_weights_i8(w.data(), n, k, packed.data(), packed.size()),
             "tcpu_pack_weights_i8")) {
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
  return true;
}

// The float matmuls' inputs: a[i] = sin(0.7 i), b[i] = cos(0.3 i).
void FloatInputs(std::vector<float>& a, std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.7f * static_cast<float>(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.3f * static_cast<float>(i));
}

// Tutorial 03 on its one 128x256 block (grid 1), in bf16, in f16 and in f16 with an f16
// accumulator: in the gate too, so that their instructions per MAC (BFMMLA, FMLAL, FMLA .8h
// where the CPU has bf16, fp16fml, fp16) are held beside the int8 matmul's.
struct TutorialKernel {
  const char* name;
  int (*launch)(void* a, void* b, void* c, int32_t m, int32_t n, int32_t k, int32_t lda,
                int32_t ldb, int32_t ldc, int32_t grid_x, int32_t grid_y, int32_t grid_z);
  const char* (*variant)(void);
  uint16_t (*from_f32)(float);  // the element type's bits
};

constexpr TutorialKernel kTutorialKernels[] = {
    {"matmul_tutorial_bf16", tcpu_launch_matmul_tutorial_kernel_bf16,
     tcpu_variant_matmul_tutorial_kernel_bf16, tcpu_f32_to_bf16},
    {"matmul_tutorial_f16", tcpu_launch_matmul_tutorial_kernel_f16,
     tcpu_variant_matmul_tutorial_kernel_f16, tcpu_f32_to_f16},
    {"matmul_tutorial_f16acc", tcpu_launch_matmul_tutorial_kernel_f16acc,
     tcpu_variant_matmul_tutorial_kernel_f16acc, tcpu_f32_to_f16},
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
  return true;
}

bool TutorialMatmuls(const Shapes& shapes) {
  for (const TutorialKernel& kernel : kTutorialKernels) {
    if (!TutorialMatmul(shapes, kernel)) return false;
  }
  return true;
}

// The other float matmuls at m=128 n=256 k=512 (table only).
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
  if (ok) std::printf("float matmul: %lld MACs per call\n", static_cast<long long>(m) * n * k);
  return ok;
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
  return true;
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
  return true;
}

// Attention forward over one head of 256 queries and keys: tutorial 06 (HEAD_DIM 64, two
// 128-query programs, non-causal and causal) and flash_attention.ttir (head_dim 32, sixteen
// 16-query programs). MACs are those of the blocks each computes: 2 n_ctx^2 head_dim
// non-causal; causal, the blocks up to and on the diagonal.
bool Attention() {
  constexpr int32_t n_ctx = 256, tutorial_dim = 64, flash_dim = 32;
  const std::string sizes = "n_ctx=" + std::to_string(n_ctx);
  std::vector<_Float16> q16(n_ctx * tutorial_dim), k16(q16.size()), v16(q16.size()),
      o16(q16.size());
  for (size_t i = 0; i < q16.size(); ++i) {
    q16[i] = static_cast<_Float16>(std::sin(0.31f * static_cast<float>(i)));
    k16[i] = static_cast<_Float16>(std::cos(0.17f * static_cast<float>(i)));
    v16[i] = static_cast<_Float16>(std::sin(0.05f * static_cast<float>(i)));
  }
  std::vector<float> m(n_ctx), q32(n_ctx * flash_dim), k32(q32.size()), v32(q32.size()),
      o32(q32.size());
  for (size_t i = 0; i < q32.size(); ++i) {
    q32[i] = std::sin(0.31f * static_cast<float>(i));
    k32[i] = std::cos(0.17f * static_cast<float>(i));
    v32[i] = std::sin(0.05f * static_cast<float>(i));
  }
  auto counted = [&](const char* what, auto&& launch) { return Counted(what, sizes, launch); };
  bool ok = counted("triton attention_fwd 128x64 d=64", [&] {
    return tcpu_launch__attn_fwd(0.125f, m.data(), 1, 1, q16.data(), k16.data(), v16.data(),
                                 o16.data(), n_ctx, n_ctx / 128, 1, 1);
  });
  ok = ok && counted("triton attention_fwd_causal 128x64 d=64", [&] {
    return tcpu_launch__attn_fwd_causal(0.125f, m.data(), 1, 1, q16.data(), k16.data(),
                                        v16.data(), o16.data(), n_ctx, n_ctx / 128, 1, 1);
  });
  ok = ok && counted("triton flash_attention 16x16 d=32", [&] {
    return tcpu_launch_attn_fwd(q32.data(), k32.data(), v32.data(), o32.data(), 0.17f, n_ctx,
                                n_ctx / 16, 1, 1);
  });
  if (ok) {
    // `work` lines: the MACs of each region, for //tools/perf:triton_table.
    const long long blocks = n_ctx / 128;  // causal: row block i computes i + 1 128x128 blocks
    const std::pair<const char*, long long> work[] = {
        {"triton attention_fwd 128x64 d=64", 2LL * n_ctx * n_ctx * tutorial_dim},
        {"triton attention_fwd_causal 128x64 d=64",
         2LL * 128 * 128 * tutorial_dim * blocks * (blocks + 1) / 2},
        {"triton flash_attention 16x16 d=32", 2LL * n_ctx * n_ctx * flash_dim},
    };
    for (const auto& [what, macs] : work) {
      std::printf("work \"%s\" %lld MACs\n", Region(what, sizes).c_str(), macs);
    }
  }
  return ok;
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
  const bool table = shapes.m == kTableShapes.m && shapes.n == kTableShapes.n;
  return Matmul(shapes) && TutorialMatmuls(shapes) && (!table || FloatMatmul()) &&
                 (!table || Attention()) && Softmax(shapes) && LayerNorm(shapes)
             ? 0
             : 1;
}
