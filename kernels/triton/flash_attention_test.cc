// Flash-attention forward in TTIR (flash_attention.ttir: 16 queries per program, keys in
// blocks of 16, online softmax with exp2, two tt.dot per block; head_dim 32) against a
// float64 softmax(Q K^T * scale) V, with ragged sequence lengths and several heads.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/flash_attention.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int32_t kHeadDim = 32;
constexpr float kPoison = -12345.0f;

TEST(TritonFlashAttentionTest, MatchesFloat64Attention) {
  for (int threads : {1, 2, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int32_t n_ctx : {1, 16, 23, 70}) {
      const int32_t heads = 3;
      const size_t size = static_cast<size_t>(heads) * n_ctx * kHeadDim;
      std::vector<float> q(size), k(size), v(size), out(size + 32, kPoison);
      for (size_t i = 0; i < size; ++i) {
        q[i] = static_cast<float>(std::sin(0.31 * static_cast<double>(i)));
        k[i] = static_cast<float>(std::cos(0.17 * static_cast<double>(i)));
        v[i] = static_cast<float>(std::sin(0.05 * static_cast<double>(i)) * 2.0);
      }
      const float scale = 1.0f / std::sqrt(static_cast<float>(kHeadDim));
      ASSERT_EQ(tcpu_launch_attn_fwd(q.data(), k.data(), v.data(), out.data(), scale, n_ctx,
                                     (n_ctx + 15) / 16, heads, 1),
                TCPU_OK);
      for (int32_t h = 0; h < heads; ++h) {
        const size_t base = static_cast<size_t>(h) * n_ctx * kHeadDim;
        for (int32_t i = 0; i < n_ctx; ++i) {
          std::vector<double> scores(n_ctx);
          double max = -INFINITY, sum = 0.0;
          for (int32_t j = 0; j < n_ctx; ++j) {
            double dot = 0.0;
            for (int32_t d = 0; d < kHeadDim; ++d) {
              dot += double{q[base + i * kHeadDim + d]} * k[base + j * kHeadDim + d];
            }
            scores[j] = dot * scale;
            max = std::fmax(max, scores[j]);
          }
          for (double& s : scores) sum += (s = std::exp(s - max));
          for (int32_t d = 0; d < kHeadDim; ++d) {
            double expected = 0.0;
            for (int32_t j = 0; j < n_ctx; ++j) {
              expected += scores[j] / sum * v[base + j * kHeadDim + d];
            }
            ASSERT_NEAR(out[base + i * kHeadDim + d], expected, 2e-5)
                << "n_ctx " << n_ctx << " head " << h << " query " << i << " dim " << d;
          }
        }
      }
      for (size_t i = size; i < size + 32; ++i) ASSERT_EQ(out[i], kPoison) << "past the end";
    }
  }
}

}  // namespace
