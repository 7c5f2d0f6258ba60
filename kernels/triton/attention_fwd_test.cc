// Triton tutorial 06's attention forward at its GPU configuration (attention_fwd.ttir,
// attention_fwd_causal.ttir: HEAD_DIM 64, BLOCK_M 128, BLOCK_N 64, fp16 Q/K/V/Out through
// tensor descriptors made in the kernel, f32 accumulation, the log2-sum-exp M output), against
// a float64 softmax(Q K^T * sm_scale) V on the same fp16 inputs. Sequence lengths that are not
// multiples of the blocks (1, 37, 130): the last blocks' rows past N_CTX read as zeros through
// the descriptors and their stores are dropped; nothing past the outputs is written.
#include "kernels/triton/attention_fwd.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/triton/attention_fwd_causal.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int32_t kHeadDim = 64;
constexpr int32_t kBlockM = 128;
constexpr int kPoisonCount = 256;     // elements after each output, checked untouched
constexpr float kPoison = -12344.0f;  // exact in fp16 and f32
// fp16 keeps 11 significant bits: P rounded to fp16 before P V, and the output rounded once.
constexpr double kF16UnitRoundoff = 1.0 / 2048;

struct Shape {
  int32_t z, h, n_ctx;
};
constexpr Shape kShapes[] = {{1, 2, 1}, {1, 2, 37}, {1, 1, 130}, {2, 1, 70}};

using Launch = int (*)(float, void*, int32_t, int32_t, void*, void*, void*, void*, int32_t, int32_t,
                       int32_t, int32_t);

// The float64 reference of one shape: M per row, Out per element and Out's tolerance.
struct Reference {
  std::vector<double> m, out, tolerance;
};

Reference Attend(const Shape& s, bool causal, const std::vector<_Float16>& q,
                 const std::vector<_Float16>& k, const std::vector<_Float16>& v, float sm_scale) {
  const int32_t heads = s.z * s.h;
  Reference ref;
  ref.m.resize(static_cast<size_t>(heads) * s.n_ctx);
  ref.out.resize(ref.m.size() * kHeadDim);
  ref.tolerance.resize(ref.out.size());
  for (int32_t head = 0; head < heads; ++head) {
    const size_t base = static_cast<size_t>(head) * s.n_ctx * kHeadDim;
    for (int32_t i = 0; i < s.n_ctx; ++i) {
      const int32_t keys = causal ? i + 1 : s.n_ctx;
      std::vector<double> scores(keys);
      double max = -INFINITY, sum = 0.0;
      for (int32_t j = 0; j < keys; ++j) {
        double dot = 0.0;
        for (int32_t d = 0; d < kHeadDim; ++d) {
          dot += static_cast<double>(q[base + i * kHeadDim + d]) *
                 static_cast<double>(k[base + j * kHeadDim + d]);
        }
        scores[j] = dot * sm_scale;
        max = std::fmax(max, scores[j]);
      }
      for (double& score : scores) sum += (score = std::exp(score - max));
      const size_t row = static_cast<size_t>(head) * s.n_ctx + i;
      ref.m[row] = (max + std::log(sum)) / std::log(2.0);
      for (int32_t d = 0; d < kHeadDim; ++d) {
        double expected = 0.0, max_v = 0.0;
        for (int32_t j = 0; j < keys; ++j) {
          const double value = static_cast<double>(v[base + j * kHeadDim + d]);
          expected += scores[j] / sum * value;
          max_v = std::fmax(max_v, std::fabs(value));
        }
        // P's rounding moves the average by at most u * max|v|; the output's by u * |out|.
        ref.out[row * kHeadDim + d] = expected;
        ref.tolerance[row * kHeadDim + d] =
            kF16UnitRoundoff * (max_v + std::fabs(expected)) + 1e-5;
      }
    }
  }
  return ref;
}

void ExpectAttention(Launch launch, bool causal) {
  for (const Shape& s : kShapes) {
    const int32_t heads = s.z * s.h;
    const size_t rows = static_cast<size_t>(heads) * s.n_ctx;
    const size_t size = rows * kHeadDim;
    std::vector<_Float16> q(size), k(size), v(size);
    for (size_t i = 0; i < size; ++i) {
      q[i] = static_cast<_Float16>(2.0 * std::sin(0.31 * static_cast<double>(i)));
      k[i] = static_cast<_Float16>(std::cos(0.17 * static_cast<double>(i) + 0.5));
      v[i] = static_cast<_Float16>(std::sin(0.05 * static_cast<double>(i)));
    }
    const float sm_scale = 1.0f / std::sqrt(static_cast<float>(kHeadDim));
    const Reference ref = Attend(s, causal, q, k, v, sm_scale);
    // One program per block of 128 queries and head: one thread runs them in order, four
    // share them out.
    for (int threads : {1, 4}) {
      ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
      std::vector<_Float16> out(size + kPoisonCount, static_cast<_Float16>(kPoison));
      std::vector<float> m(rows + kPoisonCount, kPoison);
      const int32_t grid_m = (s.n_ctx + kBlockM - 1) / kBlockM;
      ASSERT_EQ(launch(sm_scale, m.data(), s.z, s.h, q.data(), k.data(), v.data(), out.data(),
                       s.n_ctx, grid_m, heads, 1),
                TCPU_OK);
      for (size_t row = 0; row < rows; ++row) {
        ASSERT_NEAR(m[row], ref.m[row], 1e-4 * (1.0 + std::fabs(ref.m[row])))
            << "M: n_ctx " << s.n_ctx << " row " << row << " threads " << threads;
      }
      for (size_t i = 0; i < size; ++i) {
        ASSERT_NEAR(static_cast<double>(out[i]), ref.out[i], ref.tolerance[i])
            << "n_ctx " << s.n_ctx << " row " << i / kHeadDim << " dim " << i % kHeadDim
            << " threads " << threads;
      }
      for (size_t i = size; i < out.size(); ++i) {
        ASSERT_EQ(static_cast<float>(out[i]), kPoison) << "Out past the end, n_ctx " << s.n_ctx;
      }
      for (size_t i = rows; i < m.size(); ++i) {
        ASSERT_EQ(m[i], kPoison) << "M past the end, n_ctx " << s.n_ctx;
      }
    }
  }
}

TEST(TritonAttentionTutorialTest, NonCausal) { ExpectAttention(tcpu_launch__attn_fwd, false); }

TEST(TritonAttentionTutorialTest, Causal) { ExpectAttention(tcpu_launch__attn_fwd_causal, true); }

// Both kernels are also compiled for FEAT_FHM (their f16 dots on FMLAL): the launchers must run
// that object wherever the QEMU variant's CPU has fp16fml (TCPU_EXPECT_FEATURES, set by the
// matrix), the baseline elsewhere.
TEST(TritonAttentionTutorialTest, RunsFmlalWhereTheCpuHasFp16fml) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const bool fp16fml =
      (std::string(",") + features + ",").find(",fp16fml,") != std::string::npos;
  const std::string variant = fp16fml ? "fp16fml" : "baseline";
  EXPECT_EQ(tcpu_variant__attn_fwd(), "_attn_fwd:" + variant);
  EXPECT_EQ(tcpu_variant__attn_fwd_causal(), "_attn_fwd_causal:" + variant);
}

}  // namespace
