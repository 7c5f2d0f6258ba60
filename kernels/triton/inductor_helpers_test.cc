// Constructs PyTorch Inductor's kernels are made of, as Triton prints them:
//   - inductor_sort.ttir: a persistent reduction sorting each row with its indices (the
//     bitonic `sort_with_index` of Inductor's triton_helpers: reshapes that regroup
//     dimensions, sums along the middle axis, xor swaps; stable, padding lanes last) and
//     taking its argmax (`max_with_index`: NaN largest, first index on ties) — against
//     std::stable_sort and a sequential argmax;
//   - scan_long.ttir: scans over rows longer than one Hillis-Steele pass compiles well (a
//     4096-lane cumsum, a reverse two-operand scan over 512 lanes) — against sequential scans;
//   - gather.ttir: tl.gather along either axis, i64 and i32 indices, an index outside the axis
//     reading zero;
//   - inductor_rotary.ttir: a rotary embedding as Inductor writes it for a GPU (1024 lanes a
//     program, the angle's pow, cos and sin computed per lane, rotate_half by masked loads),
//     which tt-strip-mine-tiles runs in row chunks — against the same formula in double.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/gather.h"
#include "kernels/triton/inductor_rotary.h"
#include "kernels/triton/inductor_sort.h"
#include "kernels/triton/scan_long.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr float kPoison = -12345.0f;

using SortKernel = int (*)(void*, void*, void*, void*, int32_t, int32_t, int32_t, int32_t,
                           int32_t);

struct SortConfig {
  const char* name;
  SortKernel launch;
  int32_t xblock;
  int32_t rblock;
};

// Sorted values, their indices and the argmax of rows of length `r`, sequentially.
void SortReference(const std::vector<float>& x, int32_t rows, int32_t r, std::vector<float>* values,
                   std::vector<int64_t>* indices, std::vector<int64_t>* argmax) {
  values->assign(x.size(), 0.0f);
  indices->assign(x.size(), 0);
  argmax->assign(rows, 0);
  for (int32_t row = 0; row < rows; ++row) {
    const float* v = &x[row * r];
    std::vector<int64_t> order(r);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return v[a] < v[b]; });
    for (int32_t i = 0; i < r; ++i) {
      (*values)[row * r + i] = v[order[i]];
      (*indices)[row * r + i] = order[i];
    }
    int64_t best = 0;
    for (int32_t i = 1; i < r; ++i) {
      const bool best_nan = std::isnan(v[best]);
      if (!best_nan && (std::isnan(v[i]) || v[i] > v[best])) best = i;
    }
    (*argmax)[row] = best;
  }
}

TEST(InductorSortTest, RowsSortedStablyWithIndicesAndArgmax) {
  const SortConfig configs[] = {
      {"x2_r8", tcpu_launch_triton_per_fused_argmax_sort_x2_r8, 2, 8},
      {"x1_r16", tcpu_launch_triton_per_fused_argmax_sort_x1_r16, 1, 16},
  };
  for (const SortConfig& config : configs) {
    for (int threads : {1, 3}) {
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      // Full rows and rows shorter than the block (padding lanes sort last, are not stored).
      for (int32_t r : {config.rblock, config.rblock - 3}) {
        const int32_t rows = 5;
        std::vector<float> x(rows * r);
        for (size_t i = 0; i < x.size(); ++i) {
          x[i] = static_cast<float>((i * 37 + 11) % 13) * 0.5f - 2.0f;  // ties on purpose
        }
        x[3] = -0.0f;  // -0 == +0: a tie kept in index order
        x[4] = 0.0f;
        std::vector<float> values(x.size() + 8, kPoison);
        std::vector<int64_t> indices(x.size() + 8, -7), argmax(rows + 2, -7);
        const int32_t programs = (rows + config.xblock - 1) / config.xblock;
        ASSERT_EQ(config.launch(x.data(), values.data(), indices.data(), argmax.data(), rows, r,
                                programs, 1, 1),
                  TCPU_OK);
        std::vector<float> ref_values;
        std::vector<int64_t> ref_indices, ref_argmax;
        SortReference(x, rows, r, &ref_values, &ref_indices, &ref_argmax);
        for (size_t i = 0; i < x.size(); ++i) {
          ASSERT_EQ(indices[i], ref_indices[i]) << config.name << " r " << r << " at " << i;
          ASSERT_EQ(values[i], ref_values[i]) << config.name << " r " << r << " at " << i;
        }
        for (int32_t row = 0; row < rows; ++row) {
          ASSERT_EQ(argmax[row], ref_argmax[row]) << config.name << " r " << r << " row " << row;
        }
        for (size_t i = x.size(); i < values.size(); ++i) {
          ASSERT_EQ(values[i], kPoison) << config.name << " past the end";
          ASSERT_EQ(indices[i], -7) << config.name << " past the end";
        }
        ASSERT_EQ(argmax[rows], -7) << config.name << " past the last row";
      }
    }
  }
}

TEST(InductorSortTest, ArgmaxTakesNanAsLargest) {
  std::vector<float> x = {1, 5, 3, std::numeric_limits<float>::quiet_NaN(), 7, 2, 0, 1,
                          4, 4, 2, 1, -1, 0, 4, 3};
  std::vector<float> values(16);
  std::vector<int64_t> indices(16), argmax(2, -7);
  ASSERT_EQ(tcpu_launch_triton_per_fused_argmax_sort_x2_r8(x.data(), values.data(),
                                                           indices.data(), argmax.data(), 2, 8, 1,
                                                           1, 1),
            TCPU_OK);
  EXPECT_EQ(argmax[0], 3);  // the NaN
  EXPECT_EQ(argmax[1], 0);  // 4 at 0, 1 and 6: the first
}

TEST(LongScanTest, Cumsum4096MatchesSequentialSum) {
  for (int threads : {1, 3}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t n : {4096, 5000, 100}) {
      std::vector<float> x(n), y(n + 16, kPoison);
      for (int32_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 7) % 11) - 4.5f;
      ASSERT_EQ(tcpu_launch_cumsum_4096_kernel(x.data(), y.data(), n, (n + 4095) / 4096, 1, 1),
                TCPU_OK);
      double sum = 0.0, magnitude = 0.0;
      for (int32_t i = 0; i < n; ++i) {
        if (i % 4096 == 0) sum = magnitude = 0.0;
        sum += x[i];
        magnitude += std::fabs(x[i]);
        ASSERT_NEAR(y[i], sum, 1e-6 * magnitude + 1e-6) << "n " << n << " i " << i;
      }
      for (int32_t i = n; i < n + 16; ++i) ASSERT_EQ(y[i], kPoison) << "past the end at " << i;
    }
  }
}

TEST(LongScanTest, ReverseTwoOperandScanOver512Lanes) {
  const int32_t stride = 1100;  // y holds values at +0 and indices at +512
  std::vector<int32_t> x(2 * stride), y(2 * stride, -1);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>((i * 29) % 97) - 40;
  ASSERT_EQ(tcpu_launch_row_suffix_max_512_kernel(x.data(), y.data(), stride, 1, 1, 1), TCPU_OK);
  for (int32_t r = 0; r < 2; ++r) {
    int32_t best = 0, best_index = -1;
    for (int32_t c = 511; c >= 0; --c) {
      const int32_t v = x[r * stride + c];
      if (best_index < 0 || v > best) {  // ties keep the later element
        best = v;
        best_index = c;
      }
      ASSERT_EQ(y[r * stride + c], best) << r << "," << c;
      ASSERT_EQ(y[r * stride + 512 + c], best_index) << r << "," << c;
    }
    for (int32_t c = 1024; c < stride; ++c) ASSERT_EQ(y[r * stride + c], -1) << r << "," << c;
  }
}

TEST(GatherTest, RowsByI64Indices) {
  std::vector<float> src(4 * 16), out(4 * 8 + 4, kPoison);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i) * 0.25f + 1.0f;
  std::vector<int64_t> idx(4 * 8);
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int64_t>((i * 5 + 3) % 16);
  idx[6] = 16;                     // past the axis: zero
  idx[9] = -1;                     // before it: zero
  idx[17] = int64_t{1} << 33;      // far past, not wrapped to an in-range i32
  ASSERT_EQ(tcpu_launch_gather_rows_kernel(src.data(), idx.data(), out.data(), 1, 1, 1), TCPU_OK);
  for (int32_t r = 0; r < 4; ++r) {
    for (int32_t c = 0; c < 8; ++c) {
      const int64_t i = idx[r * 8 + c];
      const float expected = i >= 0 && i < 16 ? src[r * 16 + i] : 0.0f;
      ASSERT_EQ(out[r * 8 + c], expected) << r << "," << c;
    }
  }
  for (size_t i = 32; i < out.size(); ++i) ASSERT_EQ(out[i], kPoison);
}

TEST(GatherTest, ColumnsByI32Indices) {
  std::vector<int16_t> src(8 * 4), out(8 * 4, -1);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<int16_t>(i * 3 - 40);
  std::vector<int32_t> idx(8 * 4);
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int32_t>((i * 7 + 1) % 8);
  idx[5] = 8;
  ASSERT_EQ(tcpu_launch_gather_cols_kernel(src.data(), idx.data(), out.data(), 1, 1, 1), TCPU_OK);
  for (int32_t r = 0; r < 8; ++r) {
    for (int32_t c = 0; c < 4; ++c) {
      const int32_t i = idx[r * 4 + c];
      const int16_t expected = i >= 0 && i < 8 ? src[i * 4 + c] : 0;
      ASSERT_EQ(out[r * 4 + c], expected) << r << "," << c;
    }
  }
}

TEST(InductorRotaryTest, MatchesTheFormula) {
  for (int threads : {1, 3}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    const int32_t n = 2 * 16 * 256 + 64 * 3;  // positions wrap at 16; a partial last program
    std::vector<float> in(n), out(n + 8, kPoison);
    for (int32_t i = 0; i < n; ++i) in[i] = static_cast<float>((i * 37) % 101) / 50.0f - 1.0f;
    ASSERT_EQ(tcpu_launch_triton_poi_fused_add_cat_cos_mul_neg_sin_0(in.data(), out.data(), n,
                                                                     (n + 1023) / 1024, 1, 1),
              TCPU_OK);
    for (int32_t i = 0; i < n; ++i) {
      const int32_t x0 = i % 64, position = (i / 256) % 16, h = x0 % 32;
      const double inv = 1.0 / std::pow(10000.0, h * 2.0 / 64.0);
      const double angle = position * inv;
      const double rot = x0 < 32 ? -in[i + 32] : in[i - 32];
      const double expected = in[i] * std::cos(angle) + rot * std::sin(angle);
      ASSERT_NEAR(out[i], expected, 2e-5) << "threads " << threads << " at " << i;
    }
    for (int32_t i = n; i < n + 8; ++i) ASSERT_EQ(out[i], kPoison) << "past the end";
  }
}

}  // namespace
