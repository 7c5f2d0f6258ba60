// The Triton kernels that triton_perf does not count, each beside the same TTIR compiled without
// NEON (NAME__scalar, tcpu-compile --variant=scalar --mattr=-neon), beside its computation as a
// plain C loop (plain_loops.h, clang -O3; region "clang -O3 WHAT") and, for attention, beside the
// project's hand-written kernel: one thread, one region per call, and a line `work "<region>" <N>
// <unit>` per region for //tools/perf:triton_table, which turns the counts into instructions per
// element (or per MAC, per program) in the kernels' table; `peer` lines pair a kernel with its
// clang -O3 and hand-written peers (peer_regions.h). Every run's results are compared with the
// kernel's, bit for bit or within a stated tolerance, so a region never counts a wrong run.
//   bazel run //tools/perf:triton_table
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kernels/triton/argmax.h"
#include "kernels/triton/atomics.h"
#include "kernels/triton/block_pointer_copy.h"
#include "kernels/triton/descriptor_scale.h"
#include "kernels/triton/exp.h"
#include "kernels/triton/flash_attention.h"
#include "kernels/triton/fp16_arith.h"
#include "kernels/triton/fp8_cast.h"
#include "kernels/triton/fp8_scale.h"
#include "kernels/triton/histogram.h"
#include "kernels/triton/layer_norm_bwd_dwdb.h"
#include "kernels/triton/layer_norm_bwd_dx.h"
#include "kernels/triton/layer_norm_bwd_dx_4096.h"
#include "kernels/triton/math.h"
#include "kernels/triton/matmul_f32.h"
#include "kernels/triton/matmul_fp8.h"
#include "kernels/triton/peer_regions.h"
#include "kernels/triton/plain_loops.h"
#include "kernels/triton/scan.h"
#include "kernels/triton/vector_add.h"
#include "kernels/triton/vector_add_hinted.h"
#include "tcpu/attention.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/fp16.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/triton.h"

// The entries of the objects compiled without NEON: the one-program function, with the same
// kernel ABI as the vectorized one (arguments, then the program id and the grid), and the range
// entry the launcher calls (tcpu_triton_programs). SCALAR(NAME) names both.
#define SCALAR_PROGRAM(kernel)                                                                \
  extern "C" decltype(kernel) kernel##__scalar;                                               \
  extern "C" void kernel##__scalar__programs(const void*, int32_t, int32_t, int32_t, int64_t, \
                                              int32_t, int32_t, int32_t);
#define SCALAR(kernel) kernel##__scalar, kernel##__scalar__programs
SCALAR_PROGRAM(add_kernel)
SCALAR_PROGRAM(add_kernel_hinted)
SCALAR_PROGRAM(exp_kernel)
SCALAR_PROGRAM(log_kernel)
SCALAR_PROGRAM(sin_kernel)
SCALAR_PROGRAM(cos_kernel)
SCALAR_PROGRAM(rsqrt_kernel)
SCALAR_PROGRAM(erf_kernel)
SCALAR_PROGRAM(tanh_kernel)
SCALAR_PROGRAM(argmax_kernel)
SCALAR_PROGRAM(cumsum_kernel)
SCALAR_PROGRAM(row_suffix_max_kernel)
SCALAR_PROGRAM(histogram_kernel)
SCALAR_PROGRAM(block_copy_kernel)
SCALAR_PROGRAM(descriptor_scale_kernel)
SCALAR_PROGRAM(half_narrow)
SCALAR_PROGRAM(narrow_from_16)
SCALAR_PROGRAM(e4m3fn_widen)
SCALAR_PROGRAM(e4m3fn_narrow)
SCALAR_PROGRAM(fp8_scale_kernel)
SCALAR_PROGRAM(_layer_norm_bwd_dwdb)
SCALAR_PROGRAM(_layer_norm_bwd_dx_fused)
SCALAR_PROGRAM(_layer_norm_bwd_dx_fused_4096)
SCALAR_PROGRAM(fp16_arith_kernel)
SCALAR_PROGRAM(attn_fwd)
SCALAR_PROGRAM(atomic_kernel)
SCALAR_PROGRAM(matmul_kernel_fp8)
SCALAR_PROGRAM(matmul_kernel_f32)
#undef SCALAR_PROGRAM

namespace {

struct Grid {
  int32_t x, y, z;
};

// Stores `value` as a field of type T of a C struct whose fields so far end at `offset`.
template <typename T>
size_t PutField(unsigned char* bytes, size_t offset, T value) {
  offset = (offset + alignof(T) - 1) / alignof(T) * alignof(T);
  std::memcpy(bytes + offset, &value, sizeof(T));
  return offset + sizeof(T);
}

// The launcher's argument struct: `args` converted to the kernel's parameter types, in order.
template <typename... Params, size_t... I, typename... Args>
void PackArguments(void (*)(Params...), unsigned char* bytes, std::index_sequence<I...>,
                   Args... args) {
  size_t offset = 0;
  ((offset = PutField<std::tuple_element_t<I, std::tuple<Params...>>>(bytes, offset, args)), ...);
}

// Every program of `grid`, in order, on this thread: what the launcher does with one thread
// (one call of the range entry).
template <typename... Params, typename... Args>
void RunPrograms(void (*program)(Params...), tcpu_triton_programs programs, Grid grid,
                 Args... args) {
  static_assert(sizeof...(Params) == sizeof...(Args) + 6,
                "the kernel's arguments, then its program id and grid");
  alignas(16) unsigned char bytes[16 * (sizeof...(Args) + 1)] = {};
  PackArguments(program, bytes, std::index_sequence_for<Args...>{}, args...);
  programs(bytes, 0, 0, 0, int64_t{grid.x} * grid.y * grid.z, grid.x, grid.y, grid.z);
}

// Runs `vectorized` (a launch, one thread) and `scalar` (the NEON-less programs over the same
// grid) in the regions "NAME" and "NAME without NEON", and prints their work.
bool Measure(const std::string& name, int64_t work, const char* unit,
             const std::function<int()>& vectorized, const std::function<void()>& scalar) {
  const std::string without = name + " without NEON";
  tcpu_perf_region_begin(name.c_str());
  const int status = vectorized();
  tcpu_perf_region_end(name.c_str());
  if (status != TCPU_OK) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), tcpu_status_string(status));
    return false;
  }
  tcpu_perf_region_begin(without.c_str());
  scalar();
  tcpu_perf_region_end(without.c_str());
  for (const std::string& region : {name, without}) {
    std::printf("work \"%s\" %lld %s\n", region.c_str(), static_cast<long long>(work), unit);
  }
  return true;
}

using tcpu::triton_peers::CountPeer;
using tcpu::triton_peers::CountPlainLoop;
using tcpu::triton_peers::Decoded;
using tcpu::triton_peers::kPlainLoop;

// What the vectorized and NEON-less runs wrote is the same: bit for bit, or within `rel` (see
// tcpu::triton_peers::Agree) where float operations may be contracted differently.
template <typename T>
bool Same(const char* what, const std::vector<T>& a, const std::vector<T>& b, double rel = 0.0) {
  return tcpu::triton_peers::Agree(what, a, b, rel, "without NEON");
}

// Against the clang -O3 loop: bit for bit; within `rel`; equal as numbers (a NaN's payload or a
// zero's sign aside).
template <typename T>
bool SameAsPlain(const char* what, const std::vector<T>& a, const std::vector<T>& b) {
  return tcpu::triton_peers::Agree(what, a, b, 0.0, kPlainLoop);
}

template <typename T>
bool NearPlain(const char* what, const std::vector<T>& a, const std::vector<T>& b, double rel) {
  return tcpu::triton_peers::Agree(what, a, b, rel, kPlainLoop);
}

template <typename T>
bool SameValues(const char* what, const std::vector<T>& a, const std::vector<T>& b) {
  return tcpu::triton_peers::AgreeAsValues(what, a, b, kPlainLoop);
}

// The values of e5m2 codes (an f16's top byte).
std::vector<float> E5m2Values(const std::vector<uint8_t>& codes) {
  std::vector<float> values(codes.size());
  for (size_t i = 0; i < codes.size(); ++i) {
    values[i] = tcpu_f16_to_f32(static_cast<uint16_t>(codes[i] << 8));
  }
  return values;
}

std::vector<float> Wave(size_t n, float step, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(step * static_cast<float>(i)) * scale;
  return v;
}

std::vector<uint8_t> Bytes(size_t n, uint32_t multiplier) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>((i * multiplier + 3) & 0x7f);
  return v;  // below 0x80: positive finite fp8 values of every format (no NaN codes)
}

constexpr int32_t kN = 16384;  // elementwise kernels: elements per call

bool VectorAdd() {
  std::vector<float> x = Wave(kN, 0.37f, 6.0f), y = Wave(kN, 0.11f, 2.0f), out(kN), ref(kN),
                     plain(kN);
  const Grid grid{kN / 1024, 1, 1}, hinted{kN / 128, 1, 1};
  // The `threads = 2` hint's second worker starts at the first launch and is kept (the pool
  // keeps the workers of a shrink): launched once before counting, as a program launching it
  // repeatedly sees it.
  if (tcpu_launch_add_kernel_hinted(x.data(), y.data(), out.data(), kN, hinted.x, 1, 1) !=
      TCPU_OK) {
    std::fprintf(stderr, "add_kernel_hinted: %s\n", tcpu_last_error_detail());
    return false;
  }
  return Measure(
             "triton add_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_add_kernel(x.data(), y.data(), out.data(), kN, grid.x, 1, 1);
             },
             [&] { RunPrograms(SCALAR(add_kernel), grid, x.data(), y.data(), ref.data(), kN); }) &&
         Same("add_kernel", out, ref) &&
         Measure(
             "triton add_kernel_hinted n=16384", kN, "elements",
             [&] {
               return tcpu_launch_add_kernel_hinted(x.data(), y.data(), out.data(), kN, hinted.x,
                                                    1, 1);
             },
             [&] {
               RunPrograms(SCALAR(add_kernel_hinted), hinted, x.data(), y.data(), ref.data(), kN);
             }) &&
         Same("add_kernel_hinted", out, ref) &&
         CountPlainLoop(
             "add n=16384", kN, "elements",
             {"triton add_kernel n=16384", "triton add_kernel_hinted n=16384"},
             [&] { plain_add_f32(x.data(), y.data(), plain.data(), kN); },
             [&] { return SameAsPlain("add", out, plain); });
}

bool Exp() {
  std::vector<float> x = Wave(kN, 0.013f, 80.0f), e(kN), e2(kN), ref_e(kN), ref_e2(kN), plain_e(kN),
                     plain_e2(kN);
  const Grid grid{kN / 256, 1, 1};
  return Measure(
             "triton exp_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_exp_kernel(x.data(), e.data(), e2.data(), kN, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(exp_kernel), grid, x.data(), ref_e.data(), ref_e2.data(), kN);
             }) &&
         Same("exp", e, ref_e, 1e-6) && Same("exp2", e2, ref_e2, 1e-6) &&
         CountPlainLoop(
             "exp+exp2 n=16384", kN, "elements", {"triton exp_kernel n=16384"},
             [&] { plain_exp_exp2_f32(x.data(), plain_e.data(), plain_e2.data(), kN); },
             [&] {
               // exp and exp2: the kernel's polynomials and glibc's functions within about an ulp
               // each (math_test).
               return NearPlain("exp", e, plain_e, 1e-6) && NearPlain("exp2", e2, plain_e2, 1e-6);
             });
}

// The math functions of math.ttir, each over kN inputs of its domain, beside the scalar
// programs (the same polynomials: bit for bit) and glibc's functions in a plain loop, within the
// ulps math_test measures (relative to the larger of 1 and the values).
bool MathFunctions() {
  struct Function {
    const char* name;
    int (*launch)(void*, void*, int32_t, int32_t, int32_t, int32_t);
    void (*scalar)(void*, void*, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
    tcpu_triton_programs scalar_programs;
    void (*plain)(const float*, float*, int64_t);
    float low, high;  // the inputs: a wave over [low, high]
    double rel;       // the difference allowed against glibc, relative to max(1, |values|)
  };
  const Function functions[] = {
      {"log", tcpu_launch_log_kernel, SCALAR(log_kernel), plain_log_f32, 1e-3f, 1e4f, 3e-7},
      {"sin", tcpu_launch_sin_kernel, SCALAR(sin_kernel), plain_sin_f32, -100.0f, 100.0f, 4e-7},
      {"cos", tcpu_launch_cos_kernel, SCALAR(cos_kernel), plain_cos_f32, -100.0f, 100.0f, 4e-7},
      {"rsqrt", tcpu_launch_rsqrt_kernel, SCALAR(rsqrt_kernel), plain_rsqrt_f32, 1e-3f, 1e4f,
       2e-7},
      {"erf", tcpu_launch_erf_kernel, SCALAR(erf_kernel), plain_erf_f32, -4.0f, 4.0f, 6e-7},
      {"tanh", tcpu_launch_tanh_kernel, SCALAR(tanh_kernel), plain_tanh_f32, -8.0f, 8.0f, 6e-7},
  };
  const Grid grid{kN / 256, 1, 1};
  for (const Function& f : functions) {
    std::vector<float> x(kN), y(kN), ref(kN), plain(kN);
    for (int32_t i = 0; i < kN; ++i) {
      const float t = 0.5f + 0.5f * std::sin(0.37f * static_cast<float>(i));
      x[i] = f.low + (f.high - f.low) * t;
    }
    const std::string region = std::string("triton ") + f.name + "_kernel n=16384";
    const std::string plain_what = std::string(f.name) + " n=16384";
    const bool ok =
        Measure(
            region, kN, "elements",
            [&] { return f.launch(x.data(), y.data(), kN, grid.x, 1, 1); },
            [&] { RunPrograms(f.scalar, f.scalar_programs, grid, x.data(), ref.data(), kN); }) &&
        Same(f.name, y, ref) &&
        CountPlainLoop(
            plain_what.c_str(), kN, "elements", {region},
            [&] { f.plain(x.data(), plain.data(), kN); },
            [&] { return NearPlain(f.name, y, plain, f.rel); });
    if (!ok) return false;
  }
  return true;
}

bool Argmax() {
  constexpr int32_t rows = 32, cols = 512;
  std::vector<float> x = Wave(rows * cols, 0.71f, 5.0f), max(rows), ref_max(rows), plain_max(rows);
  std::vector<int32_t> index(rows), ref_index(rows), plain_index(rows);
  const Grid grid{rows, 1, 1};
  return Measure(
             "triton argmax_kernel rows=32 cols=512", rows * cols, "elements",
             [&] {
               return tcpu_launch_argmax_kernel(x.data(), index.data(), max.data(), cols, cols,
                                                rows, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(argmax_kernel), grid, x.data(), ref_index.data(),
                           ref_max.data(), cols, cols);
             }) &&
         Same("argmax index", index, ref_index) && Same("argmax max", max, ref_max) &&
         CountPlainLoop(
             "argmax rows=32 cols=512", rows * cols, "elements",
             {"triton argmax_kernel rows=32 cols=512"},
             [&] {
               plain_argmax_rows_f32(x.data(), plain_index.data(), plain_max.data(), rows, cols,
                                     cols);
             },
             [&] {
               return SameAsPlain("argmax index", index, plain_index) &&
                      SameAsPlain("argmax max", max, plain_max);
             });
}

bool Scan() {
  std::vector<float> x = Wave(kN, 0.29f, 3.0f), y(kN), ref(kN), plain(kN);
  const Grid grid{kN / 256, 1, 1};
  constexpr int32_t stride = 200;  // row_suffix_max: 8 rows of 64, values at +0, indices at +64
  std::vector<int32_t> xi(8 * stride), yi(8 * stride, -1), ref_yi(8 * stride, -1),
      plain_yi(8 * stride, -1);
  for (size_t i = 0; i < xi.size(); ++i) xi[i] = static_cast<int32_t>((i * 7919) % 1000) - 500;
  return Measure(
             "triton cumsum_kernel n=16384", kN, "elements",
             [&] { return tcpu_launch_cumsum_kernel(x.data(), y.data(), kN, grid.x, 1, 1); },
             [&] { RunPrograms(SCALAR(cumsum_kernel), grid, x.data(), ref.data(), kN); }) &&
         Same("cumsum", y, ref, 1e-5) &&
         CountPlainLoop(
             "cumsum n=16384", kN, "elements", {"triton cumsum_kernel n=16384"},
             [&] { plain_cumsum_blocks_f32(x.data(), plain.data(), kN, 256); },
             [&] {
               // Sums of up to 256 terms (|x| <= 3) in other orders: each off by up to 2^-24 times
               // the sum of its partial sums' magnitudes (~1e-4 here; scan_test allows 1e-6 sum
               // |x|).
               return NearPlain("cumsum", y, plain, 2e-4);
             }) &&
         Measure(
             "triton row_suffix_max_kernel rows=8 cols=64", 8 * 64, "elements",
             [&] {
               return tcpu_launch_row_suffix_max_kernel(xi.data(), yi.data(), stride, 1, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(row_suffix_max_kernel), Grid{1, 1, 1}, xi.data(),
                           ref_yi.data(), stride);
             }) &&
         Same("row_suffix_max", yi, ref_yi) &&
         CountPlainLoop(
             "row_suffix_max rows=8 cols=64", 8 * 64, "elements",
             {"triton row_suffix_max_kernel rows=8 cols=64"},
             [&] { plain_row_suffix_max_i32(xi.data(), plain_yi.data(), 8, 64, stride); },
             [&] { return SameAsPlain("row_suffix_max", yi, plain_yi); });
}

bool Histogram() {
  constexpr int32_t bins = 16, programs = kN / 64;
  std::vector<int32_t> x(kN), all(programs * bins), valid(programs * bins),
      ref_all(programs * bins), ref_valid(programs * bins), plain_all(programs * bins),
      plain_valid(programs * bins);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>((i * 37) % 21) - 2;
  return Measure(
             "triton histogram_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_histogram_kernel(x.data(), all.data(), valid.data(), kN,
                                                   programs, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(histogram_kernel), Grid{programs, 1, 1}, x.data(),
                           ref_all.data(), ref_valid.data(), kN);
             }) &&
         Same("histogram", all, ref_all) && Same("histogram (masked)", valid, ref_valid) &&
         CountPlainLoop(
             "histogram n=16384", kN, "elements", {"triton histogram_kernel n=16384"},
             [&] {
               plain_histogram_blocks_i32(x.data(), plain_all.data(), plain_valid.data(), kN, 64,
                                          bins);
             },
             [&] {
               return SameAsPlain("histogram", all, plain_all) &&
                      SameAsPlain("histogram (masked)", valid, plain_valid);
             });
}

bool BlockPointers() {
  constexpr int32_t m = 64, n = 256, ld = 260;  // the copy's source is m x n inside rows of ld
  std::vector<float> src = Wave(m * ld, 0.05f, 9.0f), dst(m * n), ref(m * n), plain(m * n);
  constexpr int32_t tiles_m = m / 4, tiles_n = n / 8;  // descriptor_scale's blocks are 4x8
  std::vector<float> y(m * n), ref_y(m * n), plain_y(m * n);
  return Measure(
             "triton block_copy_kernel 64x256", m * n, "elements",
             [&] {
               return tcpu_launch_block_copy_kernel(src.data(), dst.data(), m, n, ld, m, n,
                                                    n / 8, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(block_copy_kernel), Grid{n / 8, 1, 1}, src.data(), ref.data(),
                           m, n, ld, m, n);
             }) &&
         Same("block_copy", dst, ref) &&
         CountPlainLoop(
             "copy 64x256", m * n, "elements", {"triton block_copy_kernel 64x256"},
             [&] { plain_copy_2d_f32(src.data(), plain.data(), m, n, ld); },
             [&] { return SameAsPlain("block_copy", dst, plain); }) &&
         Measure(
             "triton descriptor_scale_kernel 64x256", m * n, "elements",
             [&] {
               return tcpu_launch_descriptor_scale_kernel(src.data(), m, n, ld, 1, y.data(), m, n,
                                                          tiles_m, tiles_n, 1);
             },
             [&] {
               RunPrograms(SCALAR(descriptor_scale_kernel), Grid{tiles_m, tiles_n, 1},
                           src.data(), int64_t{m}, int64_t{n}, int64_t{ld}, int64_t{1},
                           ref_y.data(), m, n);
             }) &&
         Same("descriptor_scale", y, ref_y) &&
         CountPlainLoop(
             "2x+1 64x256", m * n, "elements", {"triton descriptor_scale_kernel 64x256"},
             [&] { plain_scale_2d_f32(src.data(), plain_y.data(), m, n, ld); },
             [&] {
               // x * 2 is exact: one rounding, fused or not.
               return SameAsPlain("descriptor_scale", y, plain_y);
             });
}

bool Fp8() {
  constexpr int32_t block = 64;
  const Grid grid{kN / block, 1, 1};
  std::vector<float> x = Wave(kN, 0.173f, 300.0f);
  std::vector<uint16_t> h(kN), h_rtz(kN), b(kN), b_rtz(kN), ref_h(kN), ref_h_rtz(kN), ref_b(kN),
      ref_b_rtz(kN);
  std::vector<uint8_t> e4(kN), e4_rtz(kN), ref_e4(kN), ref_e4_rtz(kN);
  std::vector<uint8_t> codes = Bytes(kN, 13), i8(kN), ref_i8(kN);
  std::vector<float> wide(kN), ref_wide(kN);
  std::vector<uint16_t> wide_h(kN), wide_b(kN), ref_wide_h(kN), ref_wide_b(kN);
  std::vector<uint8_t> scaled8(kN), ref_scaled8(kN);
  std::vector<uint16_t> scaled16(kN), ref_scaled16(kN);
  // The clang -O3 loops' results (f16 and bf16 as bits, like the kernels').
  std::vector<uint16_t> plain_h(kN), plain_h_rtz(kN), plain_b(kN), plain_b_rtz(kN),
      plain_wide_h(kN), plain_wide_b(kN), plain_scaled16(kN);
  std::vector<uint8_t> plain_e4(kN), plain_e4_rtz(kN), plain_i8(kN), plain_scaled8(kN);
  std::vector<float> plain_wide(kN);
  auto f16 = [](std::vector<uint16_t>& v) { return reinterpret_cast<_Float16*>(v.data()); };
  auto bf16 = [](std::vector<uint16_t>& v) { return reinterpret_cast<__bf16*>(v.data()); };
  return Measure(
             "triton half_narrow n=16384", kN, "elements",
             [&] {
               return tcpu_launch_half_narrow(x.data(), h.data(), h_rtz.data(), b.data(),
                                              b_rtz.data(), kN, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(half_narrow), grid, x.data(), ref_h.data(), ref_h_rtz.data(),
                           ref_b.data(), ref_b_rtz.data(), kN);
             }) &&
         Same("f16 rtne", h, ref_h) && Same("f16 rtz", h_rtz, ref_h_rtz) &&
         Same("bf16 rtne", b, ref_b) && Same("bf16 rtz", b_rtz, ref_b_rtz) &&
         CountPlainLoop(
             "half_narrow n=16384", kN, "elements", {"triton half_narrow n=16384"},
             [&] {
               plain_half_narrow(x.data(), f16(plain_h), plain_h_rtz.data(), bf16(plain_b),
                                 plain_b_rtz.data(), kN);
             },
             [&] {
               return SameAsPlain("f16 rtne", h, plain_h) &&
                      SameAsPlain("f16 rtz", h_rtz, plain_h_rtz) &&
                      SameAsPlain("bf16 rtne", b, plain_b) &&
                      SameAsPlain("bf16 rtz", b_rtz, plain_b_rtz);
             }) &&
         Measure(
             "triton e4m3fn_narrow n=16384", kN, "elements",
             [&] {
               return tcpu_launch_e4m3fn_narrow(x.data(), e4.data(), e4_rtz.data(), kN, grid.x, 1,
                                                1);
             },
             [&] {
               RunPrograms(SCALAR(e4m3fn_narrow), grid, x.data(), ref_e4.data(),
                           ref_e4_rtz.data(), kN);
             }) &&
         Same("e4m3fn rtne", e4, ref_e4) && Same("e4m3fn rtz", e4_rtz, ref_e4_rtz) &&
         CountPlainLoop(
             "e4m3fn_narrow n=16384", kN, "elements", {"triton e4m3fn_narrow n=16384"},
             [&] { plain_e4m3fn_narrow(x.data(), plain_e4.data(), plain_e4_rtz.data(), kN); },
             [&] {
               return SameAsPlain("e4m3fn rtne", e4, plain_e4) &&
                      SameAsPlain("e4m3fn rtz", e4_rtz, plain_e4_rtz);
             }) &&
         Measure(
             "triton e4m3fn_widen n=16384", kN, "elements",
             [&] {
               return tcpu_launch_e4m3fn_widen(codes.data(), wide.data(), wide_h.data(),
                                               wide_b.data(), i8.data(), kN, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(e4m3fn_widen), grid, codes.data(), ref_wide.data(),
                           ref_wide_h.data(), ref_wide_b.data(), ref_i8.data(), kN);
             }) &&
         Same("e4m3fn to f32", wide, ref_wide) && Same("e4m3fn to f16", wide_h, ref_wide_h) &&
         Same("e4m3fn to bf16", wide_b, ref_wide_b) && Same("e4m3fn bits", i8, ref_i8) &&
         CountPlainLoop(
             "e4m3fn_widen n=16384", kN, "elements", {"triton e4m3fn_widen n=16384"},
             [&] {
               plain_e4m3fn_widen(codes.data(), plain_wide.data(), f16(plain_wide_h),
                                  bf16(plain_wide_b), plain_i8.data(), kN);
             },
             [&] {
               // The codes include 0x7f, e4m3fn's NaN: its f16/bf16 may be another NaN.
               return SameValues("e4m3fn to f32", wide, plain_wide) &&
                      SameValues("e4m3fn to f16", Decoded(wide_h, tcpu_f16_to_f32),
                                 Decoded(plain_wide_h, tcpu_f16_to_f32)) &&
                      SameValues("e4m3fn to bf16", Decoded(wide_b, tcpu_bf16_to_f32),
                                 Decoded(plain_wide_b, tcpu_bf16_to_f32)) &&
                      SameAsPlain("e4m3fn bits", i8, plain_i8);
             }) &&
         Measure(
             "triton fp8_scale_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_fp8_scale_kernel(codes.data(), 0.75f, scaled8.data(),
                                                   scaled16.data(), kN, kN / 256, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(fp8_scale_kernel), Grid{kN / 256, 1, 1}, codes.data(), 0.75f,
                           ref_scaled8.data(), ref_scaled16.data(), kN);
             }) &&
         Same("fp8_scale e5m2", scaled8, ref_scaled8) &&
         Same("fp8_scale f16", scaled16, ref_scaled16) &&
         CountPlainLoop(
             "fp8_scale n=16384", kN, "elements", {"triton fp8_scale_kernel n=16384"},
             [&] {
               plain_fp8_scale(codes.data(), 0.75f, plain_scaled8.data(), f16(plain_scaled16), kN);
             },
             [&] {
               // e4m3fn NaN codes scale to NaN: e5m2 and f16 NaNs of any payload.
               return SameValues("fp8_scale f16", Decoded(scaled16, tcpu_f16_to_f32),
                                 Decoded(plain_scaled16, tcpu_f16_to_f32)) &&
                      SameValues("fp8_scale e5m2", E5m2Values(scaled8), E5m2Values(plain_scaled8));
             });
}

bool LayerNormBackwardDwDb() {
  constexpr int32_t m = 64, n = 1024;  // 64 partial rows (GROUP_SIZE_M) of 1024 columns
  std::vector<float> dw = Wave(m * n, 0.07f, 1.0f), db = Wave(m * n, 0.19f, 1.0f), final_dw(n),
                     final_db(n), ref_dw(n), ref_db(n), plain_dw(n), plain_db(n);
  const Grid grid{n / 256, 1, 1};
  return Measure(
             "triton _layer_norm_bwd_dwdb m=64 n=1024", m * n, "elements",
             [&] {
               return tcpu_launch__layer_norm_bwd_dwdb(dw.data(), db.data(), final_dw.data(),
                                                       final_db.data(), m, n, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(_layer_norm_bwd_dwdb), grid, dw.data(), db.data(),
                           ref_dw.data(), ref_db.data(), m, n);
             }) &&
         Same("dw", final_dw, ref_dw, 1e-6) && Same("db", final_db, ref_db, 1e-6) &&
         CountPlainLoop(
             "layer_norm_bwd_dwdb m=64 n=1024", m * n, "elements",
             {"triton _layer_norm_bwd_dwdb m=64 n=1024"},
             [&] {
               plain_layer_norm_bwd_dwdb_f32(dw.data(), db.data(), plain_dw.data(), plain_db.data(),
                                             m, n);
             },
             [&] {
               // Column sums of 64 terms of magnitude <= 1 in another order (2e-6 apart here;
               // the worst case, 64^2 2^-24 each, is 2.4e-4).
               return NearPlain("dw", final_dw, plain_dw, 1e-5) &&
                      NearPlain("db", final_db, plain_db, 1e-5);
             });
}

// fp16_arith.ttir: nine f16 ops per element, each plane of OUT one op's results.
bool Fp16Arith() {
  constexpr int32_t planes = 9;
  std::vector<_Float16> x(kN), y(kN), z(kN), out(planes * kN), ref(planes * kN), plain(planes * kN);
  for (int32_t i = 0; i < kN; ++i) {
    x[i] = static_cast<_Float16>(std::sin(0.37f * static_cast<float>(i)) * 6.0f);
    y[i] = static_cast<_Float16>(std::cos(0.11f * static_cast<float>(i)) * 2.0f);
    z[i] = static_cast<_Float16>(std::sin(0.05f * static_cast<float>(i)));
  }
  const Grid grid{kN / 256, 1, 1};
  return Measure(
             "triton fp16_arith_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_fp16_arith_kernel(x.data(), y.data(), z.data(), out.data(), kN,
                                                    grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(fp16_arith_kernel), grid, x.data(), y.data(), z.data(),
                           ref.data(), kN);
             }) &&
         Same("fp16_arith", out, ref) &&
         CountPlainLoop(
             "fp16_arith n=16384", kN, "elements", {"triton fp16_arith_kernel n=16384"},
             [&] { plain_fp16_arith(x.data(), y.data(), z.data(), plain.data(), kN); },
             [&] {
               // Single f16 operations but fma and the chain (0 - |x| may be -|x|: a zero's
               // sign). fma, rounded twice, is within an f16 ulp (2^-10 of max(1, |r|)); the
               // chain (x * y + z) * y - x, |x| <= 6, |y| <= 2, |z| <= 1, may be fused where the
               // kernel rounds each op: a few f16 ulps of 32, within 2^-5.
               auto plane = [](const std::vector<_Float16>& v, int32_t p) {
                 return std::vector<_Float16>(v.begin() + p * kN, v.begin() + (p + 1) * kN);
               };
               for (int32_t p : {0, 1, 2, 4, 5, 6, 7}) {
                 const std::string what = "fp16_arith (plane " + std::to_string(p) + ")";
                 if (!SameValues(what.c_str(), plane(out, p), plane(plain, p))) return false;
               }
               return NearPlain("fp16_arith (fma)", plane(out, 3), plane(plain, 3), 0x1p-10) &&
                      NearPlain("fp16_arith (chain)", plane(out, 8), plane(plain, 8), 0x1p-5);
             });
}

// Tutorial 05's dx kernel at one configuration: one program per row of n, its partial dW/dB
// added into row `row % group` of the partial buffers under that row's lock; its clang -O3 loop
// in "clang -O3 PLAIN_WHAT".
bool LayerNormBackwardDx(const char* region, const char* plain_what,
                         decltype(&tcpu_launch__layer_norm_bwd_dx_fused) launch,
                         decltype(&_layer_norm_bwd_dx_fused__scalar) scalar,
                         tcpu_triton_programs scalar_programs, int32_t n, int32_t group) {
  constexpr int32_t rows = 64;
  const std::vector<float> dy = Wave(rows * n, 0.13f, 1.0f), x = Wave(rows * n, 0.07f, 2.0f),
                           w = Wave(n, 0.3f, 1.0f), mean = Wave(rows, 0.9f, 0.1f);
  std::vector<float> rstd(rows, 1.25f), dx(rows * n), ref_dx(rows * n), dw(group * n),
      db(group * n), ref_dw(group * n), ref_db(group * n), plain_dx(rows * n),
      plain_dw(group * n, 0.0f), plain_db(group * n, 0.0f);
  std::vector<int32_t> locks(2 * group, 0), ref_locks(2 * group, 0);
  const Grid grid{rows, 1, 1};
  auto in = [](const std::vector<float>& v) { return const_cast<float*>(v.data()); };
  return Measure(
             region, rows * n, "elements",
             [&] {
               return launch(dx.data(), in(dy), dw.data(), db.data(), in(x), in(w), in(mean),
                             rstd.data(), locks.data(), n, n, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(scalar, scalar_programs, grid, ref_dx.data(), in(dy), ref_dw.data(),
                           ref_db.data(), in(x), in(w), in(mean), rstd.data(), ref_locks.data(), n,
                           n);
             }) &&
         Same("dx", dx, ref_dx, 1e-6) && Same("partial dw", dw, ref_dw, 1e-6) &&
         Same("partial db", db, ref_db, 1e-6) && Same("locks", locks, ref_locks) &&
         CountPlainLoop(
             plain_what, rows * n, "elements", {region},
             [&] {
               plain_layer_norm_bwd_dx_f32(dy.data(), x.data(), w.data(), mean.data(), rstd.data(),
                                           plain_dx.data(), plain_dw.data(), plain_db.data(), rows,
                                           n, n, group);
             },
             [&] {
               // dx through two row sums of n terms in another order; the partial rows are one
               // product each (maybe fused differently).
               return NearPlain("dx", dx, plain_dx, 1e-5) &&
                      NearPlain("partial dw", dw, plain_dw, 1e-6) &&
                      NearPlain("partial db", db, plain_db, 1e-6);
             });
}

bool Attention() {
  constexpr int32_t heads = 2, n_ctx = 128, head_dim = 32;
  const size_t size = static_cast<size_t>(heads) * n_ctx * head_dim;
  std::vector<float> q = Wave(size, 0.31f, 1.0f), k = Wave(size, 0.53f, 1.0f),
                     v = Wave(size, 0.17f, 1.0f), out(size), ref(size), plain(size), scratch(n_ctx);
  const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  const Grid grid{n_ctx / 16, heads, 1};
  // Q K^T and P V: two n_ctx x n_ctx x head_dim products per head.
  const int64_t macs = int64_t{2} * heads * n_ctx * n_ctx * head_dim;
  // The hand-written peer reads bf16: the same values rounded, bf16 out.
  std::vector<uint16_t> q16(size), k16(size), v16(size), hand16(size);
  for (size_t i = 0; i < size; ++i) {
    q16[i] = tcpu_f32_to_bf16(q[i]);
    k16[i] = tcpu_f32_to_bf16(k[i]);
    v16[i] = tcpu_f32_to_bf16(v[i]);
  }
  const char* region = "triton attn_fwd heads=2 n_ctx=128 d=32";
  return Measure(
             region, macs, "MACs",
             [&] {
               return tcpu_launch_attn_fwd(q.data(), k.data(), v.data(), out.data(), scale, n_ctx,
                                           grid.x, grid.y, 1);
             },
             [&] {
               RunPrograms(SCALAR(attn_fwd), grid, q.data(), k.data(), v.data(), ref.data(), scale,
                           n_ctx);
             }) &&
         Same("attn_fwd", out, ref, 1e-5) &&
         CountPlainLoop(
             "attention f32 heads=2 n_ctx=128 d=32", macs, "MACs", {region},
             [&] {
               plain_attention_f32(q.data(), k.data(), v.data(), plain.data(), scratch.data(),
                                   heads, n_ctx, head_dim, scale);
             },
             [&] { return NearPlain("attn_fwd", out, plain, 1e-5); }) &&
         // Every query row of both heads as a decode head over its head's 128 keys (GQA: 128
         // query heads per KV head): the same attention, non-causal.
         CountPeer(
             "hand", "tcpu_flash_attn_decode_bf16 queries=256 keys=128 d=32", macs, "MACs",
             {region},
             [&] {
               return tcpu_flash_attn_decode_bf16(
                   q16.data(), k16.data(), v16.data(), hand16.data(), heads * n_ctx, heads,
                   head_dim, n_ctx, n_ctx * head_dim, head_dim, n_ctx * head_dim, head_dim, scale);
             },
             [&] {
               // bf16 inputs move a score by up to 2^-8 of |q||k| and a weight by as much; the
               // output is a bf16 of magnitude <= 1: within 2^-5.
               return tcpu::triton_peers::Agree("attn_fwd", out, Decoded(hand16, tcpu_bf16_to_f32),
                                                0x1p-5, "from tcpu_flash_attn_decode_bf16");
             });
}

// Both runs start from the same buffers; the atomics' totals and the lock's count must agree.
struct AtomicBuffers {
  explicit AtomicBuffers(int32_t programs)
      : ints(8 * 4, 0), olds(programs * 16, -1), swapped(programs, -1) {}
  std::vector<int32_t> ints;
  std::vector<int32_t> olds;
  std::vector<float> f32_sums = std::vector<float>(4, 0.0f);
  std::vector<uint16_t> f16_sums = std::vector<uint16_t>(4, 0);
  std::vector<uint16_t> bf16_sums = std::vector<uint16_t>(4, 0);
  int32_t slot = 0;
  std::vector<int32_t> swapped;
  int32_t lock = 0;
  int32_t locked_count = 0;
};

bool Atomics() {
  constexpr int32_t programs = 256, active = 16;
  AtomicBuffers a(programs), b(programs);
  return Measure(
             "triton atomic_kernel programs=256", programs, "programs",
             [&] {
               return tcpu_launch_atomic_kernel(a.ints.data(), a.olds.data(), a.f32_sums.data(),
                                                a.f16_sums.data(), a.bf16_sums.data(), &a.slot,
                                                a.swapped.data(), &a.lock, &a.locked_count, active,
                                                programs, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(atomic_kernel), Grid{programs, 1, 1}, b.ints.data(),
                           b.olds.data(), b.f32_sums.data(), b.f16_sums.data(),
                           b.bf16_sums.data(), &b.slot, b.swapped.data(), &b.lock,
                           &b.locked_count, active);
             }) &&
         Same("atomic ints", a.ints, b.ints) && Same("atomic olds", a.olds, b.olds) &&
         Same("atomic f32", a.f32_sums, b.f32_sums) && Same("atomic f16", a.f16_sums, b.f16_sums) &&
         Same("atomic bf16", a.bf16_sums, b.bf16_sums) &&
         Same("lock count", std::vector<int32_t>{a.locked_count}, std::vector<int32_t>{b.locked_count});
}

bool Matmuls() {
  constexpr int32_t m = 64, n = 128, k = 256;
  const Grid grid{(m / 16) * (n / 32), 1, 1};
  const int64_t macs = int64_t{m} * n * k;
  std::vector<float> a = Wave(m * k, 0.37f, 1.0f), b = Wave(k * n, 0.23f, 1.0f), c(m * n),
                     ref(m * n), plain(m * n), scratch(n);
  std::vector<uint8_t> a8 = Bytes(m * k, 29), b8 = Bytes(k * n, 31);
  std::vector<_Float16> c16(m * n), ref16(m * n), plain16(m * n);
  return Measure(
             "triton matmul_kernel_f32 m=64 n=128 k=256", macs, "MACs",
             [&] {
               return tcpu_launch_matmul_kernel_f32(a.data(), b.data(), c.data(), m, n, k, k, n, n,
                                                    grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(matmul_kernel_f32), grid, a.data(), b.data(), ref.data(), m, n,
                           k, k, n, n);
             }) &&
         Same("matmul_f32", c, ref, 1e-5) &&
         CountPlainLoop(
             "matmul_f32 m=64 n=128 k=256", macs, "MACs",
             {"triton matmul_kernel_f32 m=64 n=128 k=256"},
             [&] { plain_matmul_f32(a.data(), b.data(), plain.data(), m, n, k, k, n, n); },
             // Sums of 256 products of magnitude <= 1 in another order.
             [&] { return NearPlain("matmul_f32", c, plain, 1e-5); }) &&
         Measure(
             "triton matmul_kernel_fp8 m=64 n=128 k=256", macs, "MACs",
             [&] {
               return tcpu_launch_matmul_kernel_fp8(a8.data(), b8.data(), c16.data(), m, n, k, k, n,
                                                    n, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(SCALAR(matmul_kernel_fp8), grid, a8.data(), b8.data(), ref16.data(), m,
                           n, k, k, n, n);
             }) &&
         Same("matmul_fp8", c16, ref16, 1e-3) &&
         CountPlainLoop(
             "matmul_fp8 m=64 n=128 k=256", macs, "MACs",
             {"triton matmul_kernel_fp8 m=64 n=128 k=256"},
             [&] {
               plain_matmul_fp8(a8.data(), b8.data(), plain16.data(), scratch.data(), m, n, k, k, n,
                                n);
             },
             // f32 sums in another order, then one f16 rounding: within an f16 ulp (2^-10).
             [&] { return NearPlain("matmul_fp8", c16, plain16, 1e-3); });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "triton_table: takes no arguments (got '%s')\n", argv[1]);
    return 2;
  }
  if (tcpu_set_num_threads(1) != TCPU_OK) return 1;
  // The CPU's features are detected at their first use, reading TCPU_DISABLE: done here, outside
  // every region, so that no count depends on the environment's size (getenv walks it).
  tcpu_cpu_info cpu;
  if (const int status = tcpu_cpu_info_get(&cpu); status != TCPU_OK) {
    std::fprintf(stderr, "triton_table: tcpu_cpu_info_get: %s (%s)\n", tcpu_status_string(status),
                 tcpu_last_error_detail());
    return 1;
  }
  const bool ok =
      VectorAdd() && Exp() && MathFunctions() && Argmax() && Scan() && Histogram() &&
      BlockPointers() && Fp8() && Fp16Arith() && LayerNormBackwardDwDb() &&
      LayerNormBackwardDx("triton _layer_norm_bwd_dx_fused m=64 n=1024",
                          "layer_norm_bwd_dx m=64 n=1024", tcpu_launch__layer_norm_bwd_dx_fused,
                          SCALAR(_layer_norm_bwd_dx_fused), 1024, 256) &&
      LayerNormBackwardDx("triton _layer_norm_bwd_dx_fused_4096 m=64 n=4096",
                          "layer_norm_bwd_dx m=64 n=4096",
                          tcpu_launch__layer_norm_bwd_dx_fused_4096,
                          SCALAR(_layer_norm_bwd_dx_fused_4096), 4096, 128) &&
      Attention() && Atomics() && Matmuls();
  return ok ? 0 : 1;
}
