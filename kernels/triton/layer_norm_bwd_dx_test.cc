// Triton tutorial 05's whole layer-norm backward: `_layer_norm_bwd_dx_fused` then
// `_layer_norm_bwd_dwdb` (layer_norm_bwd_dwdb.ttir), with dx at two of the tutorial's
// configurations: BLOCK_SIZE_N 1024 and GROUP_SIZE_M 256 (layer_norm_bwd_dx.ttir, its choice for
// 512 < N <= 1024) and BLOCK_SIZE_N 4096 and GROUP_SIZE_M 128 (layer_norm_bwd_dx_4096.ttir, for
// 2048 < N <= 4096; tt-strip-mine-tiles runs its row as loops over chunks, the partial update
// inside the lock). Program `row` computes dx for its row and adds dy * xhat and dy into row
// `row % GROUP_SIZE_M` of the partial dW and dB under a spin lock (tt.atomic_cas on
// Lock[row % GROUP_SIZE_M], tt.atomic_rmw exch to release; the first program of a lock row finds
// Count 0, sets it to 1 and stores instead of adding). Many programs contend for each lock row
// (up to 600 rows onto 256 locks, 150 onto 128), on 1, 2, 4 and 8 threads. Checked:
//   - dx against a float64 reference, within the bound of the kernel's f32 roundings;
//   - the partial dB rows exactly: dy is a multiple of 1/64 below 1, so every order of the
//     float additions gives the same exact sum (a lost update would show);
//   - the partial dW rows within (programs - 1) f32 roundings of their terms, which the
//     programs add in lock order (dy * xhat computed as the kernel does, in f32);
//   - Lock all 0 and Count exactly 1 where a program came, 0 elsewhere;
//   - dw and db after the dwdb kernel (db exactly), and nothing written outside the rows.
#include "kernels/triton/layer_norm_bwd_dx.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/layer_norm_bwd_dwdb.h"
#include "kernels/triton/layer_norm_bwd_dx_4096.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr double kUnit = 1.0 / (1 << 24);  // f32 unit roundoff
constexpr float kPoison = -99.0f;

struct Problem {
  int32_t m, n, stride;
  std::vector<float> x, w, dy, mean, rstd;
};

Problem MakeProblem(int32_t m, int32_t n) {
  Problem p{m, n, n + 3, {}, {}, {}, {}, {}};
  p.x.assign(static_cast<size_t>(m) * p.stride, kPoison);
  p.dy.assign(p.x.size(), kPoison);
  p.w.resize(static_cast<size_t>(n));
  for (int32_t j = 0; j < n; ++j) p.w[j] = static_cast<float>(1.0 + 0.5 * std::cos(0.3 * j));
  for (int32_t i = 0; i < m; ++i) {
    double sum = 0.0, squares = 0.0;
    for (int32_t j = 0; j < n; ++j) {
      const size_t at = static_cast<size_t>(i) * p.stride + j;
      p.x[at] = static_cast<float>(-2.3 + 0.5 * std::sin(0.7 * (i * 131 + j)));
      p.dy[at] = static_cast<float>(((i * 37 + j * 11) % 127) - 63) / 64.0f;
      sum += p.x[at];
    }
    const double mean = sum / n;
    for (int32_t j = 0; j < n; ++j) {
      const double d = p.x[static_cast<size_t>(i) * p.stride + j] - mean;
      squares += d * d;
    }
    p.mean.push_back(static_cast<float>(mean));
    p.rstd.push_back(static_cast<float>(1.0 / std::sqrt(squares / n + 1e-5)));
  }
  return p;
}

// The kernel's dy * xhat term, rounded as its f32 ops round.
float PartialDw(const Problem &p, int32_t i, int32_t j) {
  const size_t at = static_cast<size_t>(i) * p.stride + j;
  const float xhat = (p.x[at] - p.mean[i]) * p.rstd[i];
  return p.dy[at] * xhat;
}

void ExpectDx(const Problem &p, const std::vector<float> &dx, int threads) {
  for (int32_t i = 0; i < p.m; ++i) {
    const double rstd = p.rstd[i];
    std::vector<double> xhat(p.n), wdy(p.n);
    double c1 = 0.0, c2 = 0.0, s1 = 0.0, s2 = 0.0;
    for (int32_t j = 0; j < p.n; ++j) {
      const size_t at = static_cast<size_t>(i) * p.stride + j;
      xhat[j] = (p.x[at] - double{p.mean[i]}) * rstd;
      wdy[j] = double{p.w[j]} * p.dy[at];
      c1 += xhat[j] * wdy[j];
      c2 += wdy[j];
      s1 += std::fabs(xhat[j] * wdy[j]);
      s2 += std::fabs(wdy[j]);
    }
    c1 /= p.n;
    c2 /= p.n;
    // Sums of N f32 terms in any order: at most (N + 2) roundings of the terms' magnitudes.
    const double c1_error = (p.n + 4) * kUnit * s1 / p.n, c2_error = (p.n + 4) * kUnit * s2 / p.n;
    for (int32_t j = 0; j < p.stride; ++j) {
      const size_t at = static_cast<size_t>(i) * p.stride + j;
      if (j >= p.n) {
        ASSERT_EQ(dx[at], kPoison) << "wrote dx padding at row " << i << " column " << j;
        continue;
      }
      const double want = (wdy[j] - (xhat[j] * c1 + c2)) * rstd;
      const double tolerance = rstd * (std::fabs(xhat[j]) * (c1_error + 8 * kUnit * std::fabs(c1)) +
                                       c2_error + 8 * kUnit * (std::fabs(wdy[j]) + std::fabs(c2))) +
                               8 * kUnit * std::fabs(want);
      ASSERT_NEAR(dx[at], want, tolerance) << "dx at row " << i << " column " << j << " (" << p.m
                                           << "x" << p.n << ", threads " << threads << ")";
    }
  }
}

// One configuration of the dx kernel: its launcher and GROUP_SIZE_M.
struct DxKernel {
  decltype(&tcpu_launch__layer_norm_bwd_dx_fused) launch;
  int32_t group_size_m;
};

// A shape and the thread counts it runs on (the larger shapes on the counts that contend most,
// for QEMU time).
struct Case {
  int32_t m, n;
  std::initializer_list<int> threads;
};

void CheckLockedPartialSumsAndDx(const DxKernel &kernel, std::initializer_list<Case> cases) {
  const int32_t group_size_m = kernel.group_size_m;
  for (const Case &s : cases) {
    const Problem p = MakeProblem(s.m, s.n);
    for (int threads : s.threads) {
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      const size_t partial_size = static_cast<size_t>(group_size_m) * s.n;
      constexpr size_t kTail = 7;
      std::vector<float> dx(p.x.size(), kPoison);
      std::vector<float> partial_dw(partial_size + kTail, kPoison), partial_db(partial_dw);
      std::fill(partial_dw.begin(), partial_dw.begin() + partial_size, 0.0f);
      std::fill(partial_db.begin(), partial_db.begin() + partial_size, 0.0f);
      std::vector<int32_t> locks(2 * group_size_m + kTail, 0);
      for (size_t i = 2 * group_size_m; i < locks.size(); ++i) locks[i] = -5;
      ASSERT_EQ(
          kernel.launch(dx.data(), const_cast<float *>(p.dy.data()), partial_dw.data(),
                        partial_db.data(), const_cast<float *>(p.x.data()),
                        const_cast<float *>(p.w.data()), const_cast<float *>(p.mean.data()),
                        const_cast<float *>(p.rstd.data()), locks.data(), p.stride, s.n, s.m, 1, 1),
          TCPU_OK);
      ExpectDx(p, dx, threads);

      for (int32_t r = 0; r < group_size_m; ++r) {
        const int32_t programs = r < s.m ? (s.m - 1 - r) / group_size_m + 1 : 0;
        EXPECT_EQ(locks[r], 0) << "lock " << r << " still held";
        EXPECT_EQ(locks[group_size_m + r], programs > 0 ? 1 : 0) << "count " << r;
        for (int32_t j = 0; j < s.n; ++j) {
          double db = 0.0, dw = 0.0, dw_magnitude = 0.0;
          for (int32_t i = r; i < s.m; i += group_size_m) {
            db += p.dy[static_cast<size_t>(i) * p.stride + j];
            dw += PartialDw(p, i, j);
            dw_magnitude += std::fabs(PartialDw(p, i, j));
          }
          const size_t at = static_cast<size_t>(r) * s.n + j;
          ASSERT_EQ(partial_db[at], db)
              << "partial dB row " << r << " column " << j << " (threads " << threads << ")";
          ASSERT_NEAR(partial_dw[at], dw, (programs > 1 ? programs - 1 : 0) * kUnit * dw_magnitude)
              << "partial dW row " << r << " column " << j << " (threads " << threads << ")";
        }
      }
      for (size_t i = partial_size; i < partial_dw.size(); ++i) {
        ASSERT_EQ(partial_dw[i], kPoison) << "wrote past the partial dW rows at " << i;
        ASSERT_EQ(partial_db[i], kPoison) << "wrote past the partial dB rows at " << i;
      }
      for (size_t i = 2 * group_size_m; i < locks.size(); ++i) ASSERT_EQ(locks[i], -5);

      // The second kernel sums the GROUP_SIZE_M partial rows: dw and db of the whole batch.
      std::vector<float> dw(static_cast<size_t>(s.n) + kTail, kPoison), db(dw);
      ASSERT_EQ(
          tcpu_launch__layer_norm_bwd_dwdb(partial_dw.data(), partial_db.data(), dw.data(),
                                           db.data(), group_size_m, s.n, (s.n + 255) / 256, 1, 1),
          TCPU_OK);
      for (int32_t j = 0; j < s.n; ++j) {
        double want_db = 0.0, want_dw = 0.0, magnitude = 0.0;
        for (int32_t i = 0; i < s.m; ++i) {
          want_db += p.dy[static_cast<size_t>(i) * p.stride + j];
          want_dw += PartialDw(p, i, j);
          magnitude += std::fabs(PartialDw(p, i, j));
        }
        ASSERT_EQ(db[j], want_db) << "db column " << j;
        ASSERT_NEAR(dw[j], want_dw, (s.m + group_size_m) * kUnit * magnitude) << "dw column " << j;
      }
      for (size_t j = s.n; j < dw.size(); ++j) ASSERT_EQ(dw[j], kPoison);
    }
  }
}

TEST(TritonLayerNormBackwardDxTest, LockedPartialSumsAndDx) {
  CheckLockedPartialSumsAndDx({tcpu_launch__layer_norm_bwd_dx_fused, 256},
                              {{1, 1, {1, 2, 4, 8}}, {300, 777, {8}}, {600, 1024, {2}}});
}

// N up to BLOCK_SIZE_N 4096 in chunk loops: ragged rows (a partial last chunk, a row shorter
// than one chunk), and more rows than the 128 lock rows.
TEST(TritonLayerNormBackwardDxTest, LockedPartialSumsAndDxAt4096) {
  CheckLockedPartialSumsAndDx(
      {tcpu_launch__layer_norm_bwd_dx_fused_4096, 128},
      {{1, 1, {1, 8}}, {3, 100, {2}}, {5, 4096, {1, 4}}, {150, 3001, {8}}, {130, 4093, {2}}});
}

}  // namespace
