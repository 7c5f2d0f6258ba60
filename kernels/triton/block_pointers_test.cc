// block_pointer_copy.ttir (tt.make_tensor_ptr + tt.advance carried by scf.for, boundary checks
// on both dimensions, padding = nan) and descriptor_scale.ttir (a !tt.tensordesc kernel
// argument passed as base, sizes and strides, and tt.make_tensor_descriptor): out-of-bounds
// reads give the padding (NaN, zero), out-of-bounds writes are dropped. A descriptor's
// innermost stride is 1 for the launcher (Triton's TensorDescriptor), any for one program.
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/block_pointer_copy.h"
#include "kernels/triton/descriptor_scale.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr float kPoison = -7.0f;

float Source(int r, int c) { return static_cast<float>(r * 100 + c); }

// src is M x N inside rows of stride ld; dst is M_dst x N_dst (each at least M x N) and
// receives src, with NaN where the block crossed src's bounds; nothing past dst is written.
TEST(TritonBlockPointerTest, CopiesWithNanPaddingAndDropsOutOfBoundsStores) {
  for (int threads : {1, 3}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (auto [m, n, m_dst, n_dst] :
         {std::array<int, 4>{4, 8, 4, 8}, {5, 9, 7, 12}, {13, 3, 16, 8}, {1, 1, 2, 17}}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " into " + std::to_string(m_dst) +
                   "x" + std::to_string(n_dst));
      const int ld = n + 3;
      std::vector<float> src(m * ld + 64, kPoison);
      for (int r = 0; r < m; ++r) {
        for (int c = 0; c < n; ++c) src[r * ld + c] = Source(r, c);
      }
      std::vector<float> dst(m_dst * n_dst + 64, kPoison);
      const int programs = (n_dst + 7) / 8;
      ASSERT_EQ(tcpu_launch_block_copy_kernel(src.data(), dst.data(), m, n, ld, m_dst, n_dst,
                                              programs, 1, 1),
                TCPU_OK);
      for (int r = 0; r < m_dst; ++r) {
        for (int c = 0; c < n_dst; ++c) {
          const float got = dst[r * n_dst + c];
          if (r < m && c < n) {
            ASSERT_EQ(got, Source(r, c)) << r << ", " << c;
          } else {
            ASSERT_TRUE(std::isnan(got)) << r << ", " << c << ": " << got;
          }
        }
      }
      for (size_t i = m_dst * n_dst; i < dst.size(); ++i) ASSERT_EQ(dst[i], kPoison) << i;
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

// y = 2x + 1 over y's M x N; x's descriptor is smaller (M_x x N_x inside rows of stride ld):
// where it has no element the load reads 0, so y is 1; blocks past y's edge write nothing.
TEST(TritonDescriptorTest, ZeroOutsideTheSourceAndNothingOutsideTheDestination) {
  for (int threads : {1, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (auto [m_x, n_x, m, n] :
         {std::array<int, 4>{4, 8, 4, 8}, {3, 5, 6, 11}, {9, 17, 9, 17}, {2, 2, 13, 9}}) {
      SCOPED_TRACE(std::to_string(m_x) + "x" + std::to_string(n_x) + " -> " + std::to_string(m) +
                   "x" + std::to_string(n));
      const int ld = n_x + 5;
      std::vector<float> x(m_x * ld, kPoison);
      for (int r = 0; r < m_x; ++r) {
        for (int c = 0; c < n_x; ++c) x[r * ld + c] = Source(r, c);
      }
      std::vector<float> y(m * n + 64, kPoison);
      const int grid_m = (m + 3) / 4 + 1, grid_n = (n + 7) / 8 + 1;  // blocks past the edge
      ASSERT_EQ(tcpu_launch_descriptor_scale_kernel(x.data(), m_x, n_x, ld, 1, y.data(), m, n,
                                                    grid_m, grid_n, 1),
                TCPU_OK);
      for (int r = 0; r < m; ++r) {
        for (int c = 0; c < n; ++c) {
          const float want = r < m_x && c < n_x ? 2.0f * Source(r, c) + 1.0f : 1.0f;
          ASSERT_EQ(y[r * n + c], want) << r << ", " << c;
        }
      }
      for (size_t i = m * n; i < y.size(); ++i) ASSERT_EQ(y[i], kPoison) << i;
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

// The launcher takes a descriptor's innermost stride as Triton does, 1 only: any other is
// refused by name and value before a program runs.
TEST(TritonDescriptorTest, LauncherRefusesAnInnermostStrideOtherThanOne) {
  const int m = 4, n = 8;
  std::vector<float> x(m * n * 2, 1.0f);
  for (int64_t stride : {2, 0, -1}) {
    SCOPED_TRACE(stride);
    std::vector<float> y(m * n, kPoison);
    EXPECT_EQ(tcpu_launch_descriptor_scale_kernel(x.data(), m, n, 2 * n, stride, y.data(), m, n,
                                                  1, 1, 1),
              TCPU_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(tcpu_last_error_detail()),
              "tcpu_launch_descriptor_scale_kernel: argument 4, the innermost stride of a tensor "
              "descriptor, is " +
                  std::to_string(stride) +
                  "; it must be 1 (Triton's TensorDescriptor: a contiguous last dimension)");
    for (float v : y) ASSERT_EQ(v, kPoison);
  }
}

// triton-cpu's one-program entry takes any innermost stride: x's columns 3 elements apart.
TEST(TritonDescriptorTest, OneProgramEntryTakesAnyInnermostStride) {
  const int m_x = 5, n_x = 7, m = 6, n = 10, ld = 3 * n_x + 2;
  std::vector<float> x(m_x * ld, kPoison);
  for (int r = 0; r < m_x; ++r) {
    for (int c = 0; c < n_x; ++c) x[r * ld + 3 * c] = Source(r, c);
  }
  std::vector<float> y(m * n + 64, kPoison);
  const int grid_m = (m + 3) / 4, grid_n = (n + 7) / 8;
  for (int pid_m = 0; pid_m < grid_m; ++pid_m) {
    for (int pid_n = 0; pid_n < grid_n; ++pid_n) {
      descriptor_scale_kernel(x.data(), m_x, n_x, ld, 3, y.data(), m, n, pid_m, pid_n, 0, grid_m,
                              grid_n, 1);
    }
  }
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < n; ++c) {
      const float want = r < m_x && c < n_x ? 2.0f * Source(r, c) + 1.0f : 1.0f;
      ASSERT_EQ(y[r * n + c], want) << r << ", " << c;
    }
  }
  for (size_t i = m * n; i < y.size(); ++i) ASSERT_EQ(y[i], kPoison) << i;
}

}  // namespace
