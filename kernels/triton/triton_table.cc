// The Triton kernels that triton_perf does not count, each beside the same TTIR compiled without
// NEON (NAME__scalar, tcpu-compile --variant=scalar --mattr=-neon): one thread, one region per
// call, and a line `work "<region>" <N> <unit>` per region for //tools/perf:triton_table, which
// turns the counts into instructions per element (or per MAC, per program) in the kernels'
// table. The vectorized and scalar results are compared, so a region never counts a wrong run.
//   bazel run //tools/perf:triton_table
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
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
#include "kernels/triton/matmul_f32.h"
#include "kernels/triton/matmul_fp8.h"
#include "kernels/triton/scan.h"
#include "kernels/triton/vector_add.h"
#include "kernels/triton/vector_add_hinted.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

// The program functions of the objects compiled without NEON: the same kernel ABI as the
// vectorized program (arguments, then the program id and the grid).
#define SCALAR_PROGRAM(kernel) extern "C" decltype(kernel) kernel##__scalar;
SCALAR_PROGRAM(add_kernel)
SCALAR_PROGRAM(add_kernel_hinted)
SCALAR_PROGRAM(exp_kernel)
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

// Every program of `grid`, in order, on this thread: what the launcher does with one thread.
template <typename... Params, typename... Args>
void RunPrograms(void (*program)(Params...), Grid grid, Args... args) {
  for (int32_t z = 0; z < grid.z; ++z) {
    for (int32_t y = 0; y < grid.y; ++y) {
      for (int32_t x = 0; x < grid.x; ++x) program(args..., x, y, z, grid.x, grid.y, grid.z);
    }
  }
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

// What the two runs wrote is the same: bit for bit, or within `rel` of the larger magnitude (at
// least of 1: sums that cancel) where float operations may be contracted differently (NaN equal
// to NaN).
template <typename T>
bool Same(const char* what, const std::vector<T>& a, const std::vector<T>& b, double rel = 0.0) {
  for (size_t i = 0; i < a.size(); ++i) {
    bool equal = std::memcmp(&a[i], &b[i], sizeof(T)) == 0;
    if (!equal && rel > 0.0) {
      const double x = static_cast<double>(a[i]), y = static_cast<double>(b[i]);
      equal = (std::isnan(x) && std::isnan(y)) ||
              std::fabs(x - y) <= rel * std::fmax(1.0, std::fmax(std::fabs(x), std::fabs(y)));
    }
    if (!equal) {
      std::fprintf(stderr, "%s: element %zu is %.9g vectorized, %.9g without NEON\n", what, i,
                   static_cast<double>(a[i]), static_cast<double>(b[i]));
      return false;
    }
  }
  return true;
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
  std::vector<float> x = Wave(kN, 0.37f, 6.0f), y = Wave(kN, 0.11f, 2.0f), out(kN), ref(kN);
  const Grid grid{kN / 1024, 1, 1}, hinted{kN / 128, 1, 1};
  return Measure(
             "triton add_kernel n=16384", kN, "elements",
             [&] { return tcpu_launch_add_kernel(x.data(), y.data(), out.data(), kN, grid.x, 1, 1); },
             [&] { RunPrograms(add_kernel__scalar, grid, x.data(), y.data(), ref.data(), kN); }) &&
         Same("add_kernel", out, ref) &&
         Measure(
             "triton add_kernel_hinted n=16384", kN, "elements",
             [&] {
               return tcpu_launch_add_kernel_hinted(x.data(), y.data(), out.data(), kN, hinted.x,
                                                    1, 1);
             },
             [&] {
               RunPrograms(add_kernel_hinted__scalar, hinted, x.data(), y.data(), ref.data(), kN);
             }) &&
         Same("add_kernel_hinted", out, ref);
}

bool Exp() {
  std::vector<float> x = Wave(kN, 0.013f, 80.0f), e(kN), e2(kN), ref_e(kN), ref_e2(kN);
  const Grid grid{kN / 256, 1, 1};
  return Measure(
             "triton exp_kernel n=16384", kN, "elements",
             [&] { return tcpu_launch_exp_kernel(x.data(), e.data(), e2.data(), kN, grid.x, 1, 1); },
             [&] {
               RunPrograms(exp_kernel__scalar, grid, x.data(), ref_e.data(), ref_e2.data(), kN);
             }) &&
         Same("exp", e, ref_e, 1e-6) && Same("exp2", e2, ref_e2, 1e-6);
}

bool Argmax() {
  constexpr int32_t rows = 32, cols = 512;
  std::vector<float> x = Wave(rows * cols, 0.71f, 5.0f), max(rows), ref_max(rows);
  std::vector<int32_t> index(rows), ref_index(rows);
  const Grid grid{rows, 1, 1};
  return Measure(
             "triton argmax_kernel rows=32 cols=512", rows * cols, "elements",
             [&] {
               return tcpu_launch_argmax_kernel(x.data(), index.data(), max.data(), cols, cols,
                                                rows, 1, 1);
             },
             [&] {
               RunPrograms(argmax_kernel__scalar, grid, x.data(), ref_index.data(),
                           ref_max.data(), cols, cols);
             }) &&
         Same("argmax index", index, ref_index) && Same("argmax max", max, ref_max);
}

bool Scan() {
  std::vector<float> x = Wave(kN, 0.29f, 3.0f), y(kN), ref(kN);
  const Grid grid{kN / 256, 1, 1};
  constexpr int32_t stride = 200;  // row_suffix_max: 8 rows of 64, values at +0, indices at +64
  std::vector<int32_t> xi(8 * stride), yi(8 * stride, -1), ref_yi(8 * stride, -1);
  for (size_t i = 0; i < xi.size(); ++i) xi[i] = static_cast<int32_t>((i * 7919) % 1000) - 500;
  return Measure(
             "triton cumsum_kernel n=16384", kN, "elements",
             [&] { return tcpu_launch_cumsum_kernel(x.data(), y.data(), kN, grid.x, 1, 1); },
             [&] { RunPrograms(cumsum_kernel__scalar, grid, x.data(), ref.data(), kN); }) &&
         Same("cumsum", y, ref, 1e-5) &&
         Measure(
             "triton row_suffix_max_kernel rows=8 cols=64", 8 * 64, "elements",
             [&] { return tcpu_launch_row_suffix_max_kernel(xi.data(), yi.data(), stride, 1, 1, 1); },
             [&] {
               RunPrograms(row_suffix_max_kernel__scalar, Grid{1, 1, 1}, xi.data(),
                           ref_yi.data(), stride);
             }) &&
         Same("row_suffix_max", yi, ref_yi);
}

bool Histogram() {
  constexpr int32_t bins = 16, programs = kN / 64;
  std::vector<int32_t> x(kN), all(programs * bins), valid(programs * bins),
      ref_all(programs * bins), ref_valid(programs * bins);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>((i * 37) % 21) - 2;
  return Measure(
             "triton histogram_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_histogram_kernel(x.data(), all.data(), valid.data(), kN,
                                                   programs, 1, 1);
             },
             [&] {
               RunPrograms(histogram_kernel__scalar, Grid{programs, 1, 1}, x.data(),
                           ref_all.data(), ref_valid.data(), kN);
             }) &&
         Same("histogram", all, ref_all) && Same("histogram (masked)", valid, ref_valid);
}

bool BlockPointers() {
  constexpr int32_t m = 64, n = 256, ld = 260;  // the copy's source is m x n inside rows of ld
  std::vector<float> src = Wave(m * ld, 0.05f, 9.0f), dst(m * n), ref(m * n);
  constexpr int32_t tiles_m = m / 4, tiles_n = n / 8;  // descriptor_scale's blocks are 4x8
  std::vector<float> y(m * n), ref_y(m * n);
  return Measure(
             "triton block_copy_kernel 64x256", m * n, "elements",
             [&] {
               return tcpu_launch_block_copy_kernel(src.data(), dst.data(), m, n, ld, m, n,
                                                    n / 8, 1, 1);
             },
             [&] {
               RunPrograms(block_copy_kernel__scalar, Grid{n / 8, 1, 1}, src.data(), ref.data(),
                           m, n, ld, m, n);
             }) &&
         Same("block_copy", dst, ref) &&
         Measure(
             "triton descriptor_scale_kernel 64x256", m * n, "elements",
             [&] {
               return tcpu_launch_descriptor_scale_kernel(src.data(), m, n, ld, 1, y.data(), m, n,
                                                          tiles_m, tiles_n, 1);
             },
             [&] {
               RunPrograms(descriptor_scale_kernel__scalar, Grid{tiles_m, tiles_n, 1},
                           src.data(), int64_t{m}, int64_t{n}, int64_t{ld}, int64_t{1},
                           ref_y.data(), m, n);
             }) &&
         Same("descriptor_scale", y, ref_y);
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
  return Measure(
             "triton half_narrow n=16384", kN, "elements",
             [&] {
               return tcpu_launch_half_narrow(x.data(), h.data(), h_rtz.data(), b.data(),
                                              b_rtz.data(), kN, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(half_narrow__scalar, grid, x.data(), ref_h.data(), ref_h_rtz.data(),
                           ref_b.data(), ref_b_rtz.data(), kN);
             }) &&
         Same("f16 rtne", h, ref_h) && Same("f16 rtz", h_rtz, ref_h_rtz) &&
         Same("bf16 rtne", b, ref_b) && Same("bf16 rtz", b_rtz, ref_b_rtz) &&
         Measure(
             "triton e4m3fn_narrow n=16384", kN, "elements",
             [&] {
               return tcpu_launch_e4m3fn_narrow(x.data(), e4.data(), e4_rtz.data(), kN, grid.x, 1,
                                                1);
             },
             [&] {
               RunPrograms(e4m3fn_narrow__scalar, grid, x.data(), ref_e4.data(),
                           ref_e4_rtz.data(), kN);
             }) &&
         Same("e4m3fn rtne", e4, ref_e4) && Same("e4m3fn rtz", e4_rtz, ref_e4_rtz) &&
         Measure(
             "triton e4m3fn_widen n=16384", kN, "elements",
             [&] {
               return tcpu_launch_e4m3fn_widen(codes.data(), wide.data(), wide_h.data(),
                                               wide_b.data(), i8.data(), kN, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(e4m3fn_widen__scalar, grid, codes.data(), ref_wide.data(),
                           ref_wide_h.data(), ref_wide_b.data(), ref_i8.data(), kN);
             }) &&
         Same("e4m3fn to f32", wide, ref_wide) && Same("e4m3fn to f16", wide_h, ref_wide_h) &&
         Same("e4m3fn to bf16", wide_b, ref_wide_b) && Same("e4m3fn bits", i8, ref_i8) &&
         Measure(
             "triton fp8_scale_kernel n=16384", kN, "elements",
             [&] {
               return tcpu_launch_fp8_scale_kernel(codes.data(), 0.75f, scaled8.data(),
                                                   scaled16.data(), kN, kN / 256, 1, 1);
             },
             [&] {
               RunPrograms(fp8_scale_kernel__scalar, Grid{kN / 256, 1, 1}, codes.data(), 0.75f,
                           ref_scaled8.data(), ref_scaled16.data(), kN);
             }) &&
         Same("fp8_scale e5m2", scaled8, ref_scaled8) && Same("fp8_scale f16", scaled16, ref_scaled16);
}

bool LayerNormBackwardDwDb() {
  constexpr int32_t m = 64, n = 1024;  // 64 partial rows (GROUP_SIZE_M) of 1024 columns
  std::vector<float> dw = Wave(m * n, 0.07f, 1.0f), db = Wave(m * n, 0.19f, 1.0f), final_dw(n),
                     final_db(n), ref_dw(n), ref_db(n);
  const Grid grid{n / 256, 1, 1};
  return Measure(
             "triton _layer_norm_bwd_dwdb m=64 n=1024", m * n, "elements",
             [&] {
               return tcpu_launch__layer_norm_bwd_dwdb(dw.data(), db.data(), final_dw.data(),
                                                       final_db.data(), m, n, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(_layer_norm_bwd_dwdb__scalar, grid, dw.data(), db.data(),
                           ref_dw.data(), ref_db.data(), m, n);
             }) &&
         Same("dw", final_dw, ref_dw, 1e-6) && Same("db", final_db, ref_db, 1e-6);
}

// fp16_arith.ttir: nine f16 ops per element, each plane of OUT one op's results.
bool Fp16Arith() {
  constexpr int32_t planes = 9;
  std::vector<_Float16> x(kN), y(kN), z(kN), out(planes * kN), ref(planes * kN);
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
               RunPrograms(fp16_arith_kernel__scalar, grid, x.data(), y.data(), z.data(),
                           ref.data(), kN);
             }) &&
         Same("fp16_arith", out, ref);
}

// Tutorial 05's dx kernel at one configuration: one program per row of n, its partial dW/dB
// added into row `row % group` of the partial buffers under that row's lock.
bool LayerNormBackwardDx(const char* region, decltype(&tcpu_launch__layer_norm_bwd_dx_fused) launch,
                         decltype(&_layer_norm_bwd_dx_fused__scalar) scalar, int32_t n,
                         int32_t group) {
  constexpr int32_t rows = 64;
  const std::vector<float> dy = Wave(rows * n, 0.13f, 1.0f), x = Wave(rows * n, 0.07f, 2.0f),
                           w = Wave(n, 0.3f, 1.0f), mean = Wave(rows, 0.9f, 0.1f);
  std::vector<float> rstd(rows, 1.25f), dx(rows * n), ref_dx(rows * n), dw(group * n),
      db(group * n), ref_dw(group * n), ref_db(group * n);
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
               RunPrograms(scalar, grid, ref_dx.data(), in(dy), ref_dw.data(), ref_db.data(), in(x),
                           in(w), in(mean), rstd.data(), ref_locks.data(), n, n);
             }) &&
         Same("dx", dx, ref_dx, 1e-6) && Same("partial dw", dw, ref_dw, 1e-6) &&
         Same("partial db", db, ref_db, 1e-6) && Same("locks", locks, ref_locks);
}

bool Attention() {
  constexpr int32_t heads = 2, n_ctx = 128, head_dim = 32;
  const size_t size = static_cast<size_t>(heads) * n_ctx * head_dim;
  std::vector<float> q = Wave(size, 0.31f, 1.0f), k = Wave(size, 0.53f, 1.0f),
                     v = Wave(size, 0.17f, 1.0f), out(size), ref(size);
  const float scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  const Grid grid{n_ctx / 16, heads, 1};
  // Q K^T and P V: two n_ctx x n_ctx x head_dim products per head.
  const int64_t macs = int64_t{2} * heads * n_ctx * n_ctx * head_dim;
  return Measure(
             "triton attn_fwd heads=2 n_ctx=128 d=32", macs, "MACs",
             [&] {
               return tcpu_launch_attn_fwd(q.data(), k.data(), v.data(), out.data(), scale, n_ctx,
                                           grid.x, grid.y, 1);
             },
             [&] {
               RunPrograms(attn_fwd__scalar, grid, q.data(), k.data(), v.data(), ref.data(), scale,
                           n_ctx);
             }) &&
         Same("attn_fwd", out, ref, 1e-5);
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
               RunPrograms(atomic_kernel__scalar, Grid{programs, 1, 1}, b.ints.data(),
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
                     ref(m * n);
  std::vector<uint8_t> a8 = Bytes(m * k, 29), b8 = Bytes(k * n, 31);
  std::vector<_Float16> c16(m * n), ref16(m * n);
  return Measure(
             "triton matmul_kernel_f32 m=64 n=128 k=256", macs, "MACs",
             [&] {
               return tcpu_launch_matmul_kernel_f32(a.data(), b.data(), c.data(), m, n, k, k, n, n,
                                                    grid.x, 1, 1);
             },
             [&] {
               RunPrograms(matmul_kernel_f32__scalar, grid, a.data(), b.data(), ref.data(), m, n,
                           k, k, n, n);
             }) &&
         Same("matmul_f32", c, ref, 1e-5) &&
         Measure(
             "triton matmul_kernel_fp8 m=64 n=128 k=256", macs, "MACs",
             [&] {
               return tcpu_launch_matmul_kernel_fp8(a8.data(), b8.data(), c16.data(), m, n, k, k, n,
                                                    n, grid.x, 1, 1);
             },
             [&] {
               RunPrograms(matmul_kernel_fp8__scalar, grid, a8.data(), b8.data(), ref16.data(), m,
                           n, k, k, n, n);
             }) &&
         Same("matmul_fp8", c16, ref16, 1e-3);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "triton_table: takes no arguments (got '%s')\n", argv[1]);
    return 2;
  }
  if (tcpu_set_num_threads(1) != TCPU_OK) return 1;
  const bool ok = VectorAdd() && Exp() && Argmax() && Scan() && Histogram() && BlockPointers() &&
                  Fp8() && Fp16Arith() && LayerNormBackwardDwDb() &&
                  LayerNormBackwardDx("triton _layer_norm_bwd_dx_fused m=64 n=1024",
                                      tcpu_launch__layer_norm_bwd_dx_fused,
                                      _layer_norm_bwd_dx_fused__scalar, 1024, 256) &&
                  LayerNormBackwardDx("triton _layer_norm_bwd_dx_fused_4096 m=64 n=4096",
                                      tcpu_launch__layer_norm_bwd_dx_fused_4096,
                                      _layer_norm_bwd_dx_fused_4096__scalar, 4096, 128) &&
                  Attention() && Atomics() && Matmuls();
  return ok ? 0 : 1;
}
