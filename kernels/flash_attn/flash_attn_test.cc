// tcpu_flash_attn_decode_bf16 and tcpu_flash_attn_prefill_bf16: every variant the CPU supports
// (and the public entry points) against a float64 reference, over head_dim tails, GQA ratios
// 1/2/3/8/12, padded strided caches whose padding is NaN (any read of it would poison the
// output), one sequence of 32768 positions, bit-identical results for 1/2/4 threads, prefill
// bit-identical to decode per query (blocks at chunk boundaries), and every bad argument.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "kernels/flash_attn/exp_poly.h"
#include "kernels/flash_attn/flash_attn_kernels.h"
#include "runtime/dispatch.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/attention.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

using tcpu::flash_attn::FlashAttnKernel;
using tcpu::testing::Bf16UlpError;
using tcpu::testing::kPoisonBf16;
using tcpu::testing::RandomBf16;

// See README.md: 1 ulp (fp32 result within a few fp32 ulps of exact, then rounded to bf16),
// unless the output cancels: then an absolute error of kCancelTol * sum_s p_s |v[s][i]|.
constexpr double kMaxUlp = 1.0;
constexpr double kCancelTol = 1e-5;

struct Shape {
  int64_t heads, kv_heads, dim, seq;
  int64_t k_seq_pad, k_head_pad, v_seq_pad, v_head_pad;
};

struct Problem {
  Shape s;
  int64_t k_seq_stride, k_head_stride, v_seq_stride, v_head_stride;
  float scale;
  std::vector<uint16_t> q, k, v;
};

// Caches filled with NaN, then the addressed elements with random values.
Problem Make(const Shape& s, uint32_t seed) {
  Problem p{s, s.dim + s.k_seq_pad, 0, s.dim + s.v_seq_pad, 0,
            1.0f / std::sqrt(static_cast<float>(s.dim)), {}, {}, {}};
  p.k_head_stride = s.seq * p.k_seq_stride + s.k_head_pad;
  p.v_head_stride = s.seq * p.v_seq_stride + s.v_head_pad;
  p.q = RandomBf16(s.heads * s.dim, seed);
  p.k.assign(s.kv_heads * p.k_head_stride, kPoisonBf16);
  p.v.assign(s.kv_heads * p.v_head_stride, kPoisonBf16);
  const auto kr = RandomBf16(s.kv_heads * s.seq * s.dim, seed + 1);
  const auto vr = RandomBf16(s.kv_heads * s.seq * s.dim, seed + 2);
  for (int64_t g = 0; g < s.kv_heads; ++g) {
    for (int64_t t = 0; t < s.seq; ++t) {
      for (int64_t i = 0; i < s.dim; ++i) {
        const int64_t src = (g * s.seq + t) * s.dim + i;
        p.k[g * p.k_head_stride + t * p.k_seq_stride + i] = kr[src];
        p.v[g * p.v_head_stride + t * p.v_seq_stride + i] = vr[src];
      }
    }
  }
  return p;
}

// Exact softmax attention in float64 from the same bf16 inputs for the query q ([heads][dim])
// over positions [0, seq); mag[h][i] = sum p |v|.
void Reference(const Problem& p, const uint16_t* q, int64_t seq, std::vector<double>* out,
               std::vector<double>* mag) {
  const Shape& s = p.s;
  out->assign(s.heads * s.dim, 0.0);
  mag->assign(s.heads * s.dim, 0.0);
  std::vector<double> score(seq);
  for (int64_t h = 0; h < s.heads; ++h) {
    const int64_t g = h / (s.heads / s.kv_heads);
    double m = -INFINITY;
    for (int64_t t = 0; t < seq; ++t) {
      double dot = 0.0;
      for (int64_t i = 0; i < s.dim; ++i) {
        dot += static_cast<double>(tcpu_bf16_to_f32(q[h * s.dim + i])) *
               tcpu_bf16_to_f32(p.k[g * p.k_head_stride + t * p.k_seq_stride + i]);
      }
      score[t] = dot * p.scale;
      m = std::max(m, score[t]);
    }
    double l = 0.0;
    for (int64_t t = 0; t < seq; ++t) l += std::exp(score[t] - m);
    for (int64_t t = 0; t < seq; ++t) {
      const double w = std::exp(score[t] - m) / l;
      for (int64_t i = 0; i < s.dim; ++i) {
        const double v = tcpu_bf16_to_f32(p.v[g * p.v_head_stride + t * p.v_seq_stride + i]);
        (*out)[h * s.dim + i] += w * v;
        (*mag)[h * s.dim + i] += w * std::fabs(v);
      }
    }
  }
}

struct Runner {
  std::string name;
  const FlashAttnKernel* kernel;  // nullptr: the public entry point
  int Run(const Problem& p, uint16_t* out) const {
    const Shape& s = p.s;
    if (kernel == nullptr) {
      return tcpu_flash_attn_decode_bf16(p.q.data(), p.k.data(), p.v.data(), out, s.heads,
                                         s.kv_heads, s.dim, s.seq, p.k_head_stride,
                                         p.k_seq_stride, p.v_head_stride, p.v_seq_stride,
                                         p.scale);
    }
    return tcpu::flash_attn::FlashAttnWith(*kernel, p.q.data(), p.k.data(), p.v.data(), out,
                                           s.heads, s.kv_heads, s.dim, s.seq, p.k_head_stride,
                                           p.k_seq_stride, p.v_head_stride, p.v_seq_stride,
                                           p.scale);
  }
  // The prefill of queries q ([queries][heads][dim]) at positions first .. first + queries - 1
  // (first + queries <= s.seq).
  int Prefill(const Problem& p, const uint16_t* q, int64_t queries, int64_t first,
              uint16_t* out) const {
    const Shape& s = p.s;
    if (kernel == nullptr) {
      return tcpu_flash_attn_prefill_bf16(q, p.k.data(), p.v.data(), out, queries, s.heads,
                                          s.kv_heads, s.dim, first, p.k_head_stride, p.k_seq_stride,
                                          p.v_head_stride, p.v_seq_stride, p.scale);
    }
    return tcpu::flash_attn::FlashAttnPrefillWith(
        *kernel, q, p.k.data(), p.v.data(), out, queries, s.heads, s.kv_heads, s.dim, first,
        p.k_head_stride, p.k_seq_stride, p.v_head_stride, p.v_seq_stride, p.scale);
  }
  // The decode of query q over positions [0, seq).
  int Decode(const Problem& p, const uint16_t* q, int64_t seq, uint16_t* out) const {
    const Shape& s = p.s;
    if (kernel == nullptr) {
      return tcpu_flash_attn_decode_bf16(q, p.k.data(), p.v.data(), out, s.heads, s.kv_heads, s.dim,
                                         seq, p.k_head_stride, p.k_seq_stride, p.v_head_stride,
                                         p.v_seq_stride, p.scale);
    }
    return tcpu::flash_attn::FlashAttnWith(*kernel, q, p.k.data(), p.v.data(), out, s.heads,
                                           s.kv_heads, s.dim, seq, p.k_head_stride, p.k_seq_stride,
                                           p.v_head_stride, p.v_seq_stride, p.scale);
  }
};

std::vector<Runner> Runners() {
  std::vector<Runner> runners;
  int count = 0;
  const auto* table = tcpu::flash_attn::FlashAttnVariantTable(&count);
  for (int i = 0; i < count; ++i) {
    if ((table[i].required & tcpu::ActiveFeatures()) == table[i].required) {
      runners.push_back({table[i].name, table[i].fn});
    }
  }
  runners.push_back({"public", nullptr});
  return runners;
}

double g_worst_ulp = 0.0;       // over all outputs not accepted by the cancellation rule
double g_worst_any_ulp = 0.0;   // over all outputs
int64_t g_cancelling = 0;       // outputs > kMaxUlp accepted by the cancellation rule
int64_t g_outputs = 0;

// Counts out (n outputs) against the float64 result: within kMaxUlp, or cancelling.
void CheckAgainstReference(const std::string& what, const std::vector<uint16_t>& out,
                           const std::vector<double>& expected, const std::vector<double>& mag) {
  int reported = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const double ulp = Bf16UlpError(out[i], expected[i]);
    const double abs_err = std::fabs(tcpu_bf16_to_f32(out[i]) - expected[i]);
    ++g_outputs;
    g_worst_any_ulp = std::max(g_worst_any_ulp, ulp);
    if (ulp <= kMaxUlp) {
      g_worst_ulp = std::max(g_worst_ulp, ulp);
    } else if (abs_err <= kCancelTol * mag[i]) {
      ++g_cancelling;
    } else if (reported++ < 5) {
      ADD_FAILURE() << what << " i=" << i << ": got " << tcpu_bf16_to_f32(out[i]) << ", expected "
                    << expected[i] << " (" << ulp << " ulp)";
    }
  }
}

std::string Describe(const Runner& runner, const Shape& s) {
  return runner.name + " H=" + std::to_string(s.heads) + " KV=" + std::to_string(s.kv_heads) +
         " D=" + std::to_string(s.dim) + " S=" + std::to_string(s.seq);
}

// Thread counts run outermost: resizing the pool is costly under QEMU, so it happens three
// times per problem rather than three times per variant.
void CheckAll(const Shape& s, uint32_t seed) {
  const Problem p = Make(s, seed);
  std::vector<double> expected, mag;
  Reference(p, p.q.data(), s.seq, &expected, &mag);
  const int64_t n = s.heads * s.dim;
  const std::vector<Runner> runners = Runners();
  std::vector<std::vector<uint16_t>> first(runners.size());
  for (int threads : tcpu::testing::kThreadCounts) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (size_t r = 0; r < runners.size(); ++r) {
      const Runner& runner = runners[r];
      std::vector<uint16_t> out(n + 1, kPoisonBf16);
      ASSERT_EQ(runner.Run(p, out.data()), TCPU_OK) << tcpu_last_error_detail();
      EXPECT_EQ(out[n], kPoisonBf16) << runner.name << " wrote past the output";
      out.pop_back();
      if (first[r].empty()) {
        first[r] = out;
        CheckAgainstReference(Describe(runner, s), out, expected, mag);
      } else {
        EXPECT_TRUE(out == first[r]) << runner.name << " differs with " << threads << " threads";
      }
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

// A block of `queries` queries at positions first .. s.seq - 1 (first = s.seq - queries): per
// variant, bit-identical to that variant's decode of each query over its own positions, equal
// for 1/2/4 threads, within the bound of the float64 reference, nothing written past the end.
void CheckPrefill(const Shape& s, int64_t queries, uint32_t seed) {
  const Problem p = Make(s, seed);
  const int64_t first = s.seq - queries, row = s.heads * s.dim, n = queries * row;
  const std::vector<uint16_t> q = RandomBf16(n, seed + 3);
  std::vector<std::vector<double>> expected(queries), mag(queries);
  for (int64_t t = 0; t < queries; ++t) {
    Reference(p, q.data() + t * row, first + t + 1, &expected[t], &mag[t]);
  }
  const std::vector<Runner> runners = Runners();
  std::vector<std::vector<uint16_t>> decoded(runners.size(), std::vector<uint16_t>(n));
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
  for (size_t r = 0; r < runners.size(); ++r) {
    for (int64_t t = 0; t < queries; ++t) {
      ASSERT_EQ(
          runners[r].Decode(p, q.data() + t * row, first + t + 1, decoded[r].data() + t * row),
          TCPU_OK)
          << tcpu_last_error_detail();
    }
  }
  for (int threads : tcpu::testing::kThreadCounts) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (size_t r = 0; r < runners.size(); ++r) {
      const std::string what = Describe(runners[r], s) + " prefill of " + std::to_string(queries);
      std::vector<uint16_t> out(n + 1, kPoisonBf16);
      ASSERT_EQ(runners[r].Prefill(p, q.data(), queries, first, out.data()), TCPU_OK)
          << tcpu_last_error_detail();
      EXPECT_EQ(out[n], kPoisonBf16) << what << " wrote past the output";
      out.pop_back();
      for (int64_t t = 0; t < queries; ++t) {
        const std::vector<uint16_t> got(out.begin() + t * row, out.begin() + (t + 1) * row);
        const std::vector<uint16_t> want(decoded[r].begin() + t * row,
                                         decoded[r].begin() + (t + 1) * row);
        EXPECT_TRUE(got == want) << what << ", " << threads << " threads: query " << t
                                 << " differs from its decode";
        if (threads == 1) CheckAgainstReference(what, got, expected[t], mag[t]);
      }
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

void Summary() {
  std::cout << "max error " << g_worst_ulp << " ulp over " << g_outputs - g_cancelling
            << " outputs; " << g_cancelling << " cancelling outputs within " << kCancelTol
            << " * sum p|v| (largest " << g_worst_any_ulp << " ulp)\n";
}

TEST(FlashAttnTest, DispatchesToExpectedVariant) {
  std::cout << "[ variants ]";
  for (const Runner& r : Runners()) std::cout << " " << r.name;
  std::cout << "\n";
  const char* forced = std::getenv("FLASH_ATTN_TEST_EXPECT");
  const std::string expected =
      forced != nullptr ? forced
                        : tcpu::testing::ExpectedVariant({{"vl128", "flash_attn_decode_bf16:sve2"},
                                                          {"vl256", "flash_attn_decode_bf16:sve2"},
                                                          {"vl512", "flash_attn_decode_bf16:sve2"},
                                                          {"vl1024", "flash_attn_decode_bf16:sve2"},
                                                          {"vl2048", "flash_attn_decode_bf16:sve2"},
                                                          {"*", "flash_attn_decode_bf16:neon"}});
  if (expected.empty()) {
#if defined(__x86_64__)
    EXPECT_STREQ(tcpu::FlashAttnDecodeBf16Variant(), "flash_attn_decode_bf16:ref");
#else
    GTEST_SKIP() << "not run by the QEMU matrix; dispatches to "
                 << tcpu::FlashAttnDecodeBf16Variant();
#endif
  } else {
    EXPECT_EQ(tcpu::FlashAttnDecodeBf16Variant(), expected);
  }
}

TEST(FlashAttnTest, HeadDimsAndGqa) {
  const Shape shapes[] = {
      {1, 1, 1, 1, 0, 0, 0, 0},       {2, 1, 3, 5, 1, 2, 3, 1},
      {4, 2, 37, 300, 3, 5, 1, 7},    {8, 1, 64, 513, 0, 0, 0, 0},
      {8, 8, 5, 257, 2, 0, 0, 3},     {16, 2, 128, 200, 8, 16, 4, 8},
      {2, 1, 9, 1, 0, 1, 0, 1},       {3, 3, 17, 768, 1, 1, 1, 1},
  };
  uint32_t seed = 1;
  for (const Shape& s : shapes) CheckAll(s, seed += 10);
  Summary();
}

TEST(FlashAttnTest, LongSequence) {
  CheckAll({2, 1, 4, 32768, 1, 3, 2, 1}, 99);
  Summary();
}

// Shapes: GQA 1 (no row sharing), 3 (tiles of 2 + 1), 8 (one tile of 8), 12 (8 + 4); head_dim
// tails; blocks from the first position, inside a chunk, ending on and crossing the 256
// boundary (small heads and head_dim there), and a block of one.
TEST(FlashAttnTest, PrefillMatchesDecodePerQuery) {
  struct Case {
    Shape s;
    int64_t queries;
  };
  const Case cases[] = {
      {{2, 2, 5, 3, 1, 2, 0, 1}, 3},   {{6, 2, 9, 20, 2, 0, 1, 3}, 5},
      {{8, 1, 16, 12, 0, 4, 3, 0}, 4}, {{12, 1, 3, 7, 1, 1, 1, 1}, 2},
      {{3, 1, 4, 256, 1, 3, 0, 2}, 3}, {{2, 1, 4, 261, 3, 1, 2, 0}, 9},
      {{4, 2, 7, 40, 0, 0, 0, 0}, 1},
  };
  uint32_t seed = 500;
  for (const Case& c : cases) CheckPrefill(c.s, c.queries, seed += 10);
  Summary();
}

// The chunk kernel's contract: a row's state does not depend on how many rows share the call
// (tiles of 8, 4, 2, 1) or on its place among them. Every variant, 11 rows (8 + 2 + 1) against
// each row alone; head_dim 19 and 37 positions exercise every tail.
TEST(FlashAttnTest, ChunkRowsAreIndependent) {
  constexpr int64_t kRows = 11, kDim = 19, kPositions = 37, kPart = kDim + 2;
  const std::vector<uint16_t> qb = RandomBf16(kRows * kDim, 71);
  const std::vector<uint16_t> k = RandomBf16(kPositions * kDim, 72);
  const std::vector<uint16_t> v = RandomBf16(kPositions * kDim, 73);
  std::vector<float> q(qb.size());
  for (size_t i = 0; i < q.size(); ++i) q[i] = tcpu_bf16_to_f32(qb[i]) * 0.25f;
  int count = 0;
  const auto* table = tcpu::flash_attn::FlashAttnVariantTable(&count);
  for (int variant = 0; variant < count; ++variant) {
    if ((table[variant].required & tcpu::ActiveFeatures()) != table[variant].required) continue;
    const FlashAttnKernel& kernel = *table[variant].fn;
    std::vector<float> together(kRows * kPart), alone(kPart);
    kernel.chunk(q.data(), kDim, kRows, k.data(), v.data(), kDim, kPositions, kDim, kDim,
                 together.data(), kPart);
    for (int64_t r = 0; r < kRows; ++r) {
      kernel.chunk(q.data() + r * kDim, kDim, 1, k.data(), v.data(), kDim, kPositions, kDim, kDim,
                   alone.data(), kPart);
      EXPECT_EQ(std::memcmp(alone.data(), together.data() + r * kPart, kPart * sizeof(float)), 0)
          << table[variant].name << ": row " << r << " of " << kRows << " differs from it alone";
    }
  }
}

// The softmax exp (exp_poly.h): every variant gives ExpPoly's bits, within kExpMaxRelError of
// exp over a dense sweep of [kExpMin, 0], exact at 0, 0 below kExpMin and for -inf, NaN for NaN.
TEST(FlashAttnTest, ExpPolyIsWithinItsBoundAndIdenticalOnEveryVariant) {
  using tcpu::flash_attn::ExpPoly;
  using tcpu::flash_attn::kExpMaxRelError;
  using tcpu::flash_attn::kExpMin;
  constexpr int64_t kSamples = 1 << 17;
  std::vector<float> x(kSamples);
  for (int64_t i = 0; i < kSamples; ++i) {
    x[i] = kExpMin * static_cast<float>(i) / static_cast<float>(kSamples - 1);
  }
  // Every float in [-1, 0] would be too many under QEMU: add the neighbourhoods of the range
  // reduction's switch points, where r is near +-ln2/2.
  for (int n = -125; n <= 0; ++n) {
    const float mid = (static_cast<float>(n) - 0.5f) * 0.69314718f;
    float v = mid;
    for (int j = 0; j < 16; ++j) {
      x.push_back(v);
      v = std::nextafter(v, 0.0f);
    }
  }
  double worst = 0.0;
  for (float xi : x) {
    const double exact = std::exp(static_cast<double>(xi));
    worst = std::max(worst, std::fabs(ExpPoly(xi) - exact) / exact);
  }
  std::cout << "ExpPoly: max relative error " << worst << " (" << worst * (1 << 24)
            << " x 2^-24) over " << x.size() << " points\n";
  EXPECT_LE(worst, kExpMaxRelError);
  EXPECT_EQ(ExpPoly(0.0f), 1.0f);
  EXPECT_EQ(ExpPoly(-100.0f), 0.0f);
  EXPECT_EQ(ExpPoly(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_TRUE(std::isnan(ExpPoly(std::numeric_limits<float>::quiet_NaN())));

  int count = 0;
  const auto* table = tcpu::flash_attn::FlashAttnVariantTable(&count);
  for (int v = 0; v < count; ++v) {
    if ((table[v].required & tcpu::ActiveFeatures()) != table[v].required) continue;
    // Shifted by 1.5 (the chunk max), with the special values mixed in; odd length for tails.
    std::vector<float> in = {1.5f, -200.0f, -std::numeric_limits<float>::infinity(),
                             std::numeric_limits<float>::quiet_NaN()};
    for (float xi : x) in.push_back(xi + 1.5f);
    if (in.size() % 2 == 0) in.push_back(0.25f);
    std::vector<float> out = in;
    table[v].fn->exp_shifted(out.data(), static_cast<int64_t>(out.size()), 1.5f);
    int reported = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const float expected = ExpPoly(in[i] - 1.5f);
      const bool same = std::isnan(expected) ? std::isnan(out[i]) : out[i] == expected;
      if (!same && reported++ < 5) {
        ADD_FAILURE() << table[v].name << ": exp(" << in[i] - 1.5f << ") = " << out[i]
                      << ", ExpPoly gives " << expected;
      }
    }
  }
}

// A bad call: every field valid except the one a test changes.
struct Call {
  const uint16_t* q;
  const uint16_t* k;
  const uint16_t* v;
  uint16_t* out;
  int64_t h = 4, kv = 2, d = 8, s = 16, khs = 16 * 8, kss = 8, vhs = 16 * 8, vss = 8;
  float scale = 0.5f;
  int Run() const {
    return tcpu_flash_attn_decode_bf16(q, k, v, out, h, kv, d, s, khs, kss, vhs, vss, scale);
  }
};

class FlashAttnArgsTest : public ::testing::Test {
 protected:
  FlashAttnArgsTest() : q_(32, 0x3f80), k_(256, 0x3f80), v_(256, 0x3f80), out_(32) {
    call_ = {q_.data(), k_.data(), v_.data(), out_.data()};
  }
  std::vector<uint16_t> q_, k_, v_, out_;
  Call call_;
};

TEST_F(FlashAttnArgsTest, ValidCallSucceeds) { EXPECT_EQ(call_.Run(), TCPU_OK); }
TEST_F(FlashAttnArgsTest, NullQ) {
  call_.q = nullptr;
  EXPECT_EQ(call_.Run(), TCPU_ERR_NULL_POINTER);
}
TEST_F(FlashAttnArgsTest, NullK) {
  call_.k = nullptr;
  EXPECT_EQ(call_.Run(), TCPU_ERR_NULL_POINTER);
}
TEST_F(FlashAttnArgsTest, NullV) {
  call_.v = nullptr;
  EXPECT_EQ(call_.Run(), TCPU_ERR_NULL_POINTER);
}
TEST_F(FlashAttnArgsTest, NullOut) {
  call_.out = nullptr;
  EXPECT_EQ(call_.Run(), TCPU_ERR_NULL_POINTER);
}
TEST_F(FlashAttnArgsTest, NonPositiveSizes) {
  for (int64_t bad : {0, -1}) {
    Call c = call_;
    c.h = bad;
    EXPECT_EQ(c.Run(), TCPU_ERR_INVALID_SIZE);
    c = call_;
    c.kv = bad;
    EXPECT_EQ(c.Run(), TCPU_ERR_INVALID_SIZE);
    c = call_;
    c.d = bad;
    EXPECT_EQ(c.Run(), TCPU_ERR_INVALID_SIZE);
    c = call_;
    c.s = bad;
    EXPECT_EQ(c.Run(), TCPU_ERR_INVALID_SIZE);
  }
}
TEST_F(FlashAttnArgsTest, HeadsNotMultipleOfKvHeads) {
  call_.kv = 3;
  EXPECT_EQ(call_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnArgsTest, KSeqStrideTooSmall) {
  call_.kss = 7;
  EXPECT_EQ(call_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnArgsTest, KHeadStrideTooSmall) {
  call_.khs = 16 * 8 - 1;
  EXPECT_EQ(call_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnArgsTest, VSeqStrideTooSmall) {
  call_.vss = 0;
  EXPECT_EQ(call_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnArgsTest, VHeadStrideTooSmall) {
  call_.vhs = -1;
  EXPECT_EQ(call_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnArgsTest, BadScale) {
  for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN()}) {
    call_.scale = bad;
    EXPECT_EQ(call_.Run(), TCPU_ERR_INVALID_ARGUMENT) << bad;
  }
}
TEST_F(FlashAttnArgsTest, SeqTimesStrideOverflows) {
  call_.s = int64_t{1} << 40;
  call_.kss = int64_t{1} << 30;
  EXPECT_EQ(call_.Run(), TCPU_ERR_SIZE_OVERFLOW);
}
TEST_F(FlashAttnArgsTest, HeadStrideTimesKvHeadsOverflows) {
  call_.khs = int64_t{1} << 62;
  EXPECT_EQ(call_.Run(), TCPU_ERR_SIZE_OVERFLOW);
}
TEST_F(FlashAttnArgsTest, HeadsTimesDimOverflows) {
  // Strides that pass, with num_heads * head_dim past int64.
  call_.h = call_.kv = int64_t{1} << 40;
  call_.d = int64_t{1} << 24;
  call_.s = 1;
  call_.kss = call_.vss = call_.d;
  call_.khs = call_.vhs = call_.d;
  EXPECT_EQ(call_.Run(), TCPU_ERR_SIZE_OVERFLOW);
}

// Prefill: the same checks with the caches holding first_position + num_queries positions
// (here 13 + 3 = 16), plus its own two arguments.
struct PrefillCall {
  Call c;
  int64_t queries = 3, first = 13;
  int Run() const {
    return tcpu_flash_attn_prefill_bf16(c.q, c.k, c.v, c.out, queries, c.h, c.kv, c.d, first, c.khs,
                                        c.kss, c.vhs, c.vss, c.scale);
  }
};

class FlashAttnPrefillArgsTest : public FlashAttnArgsTest {
 protected:
  FlashAttnPrefillArgsTest() {
    q_.assign(3 * 32, 0x3f80);
    out_.assign(3 * 32, 0);
    call_.q = q_.data();
    call_.out = out_.data();
    prefill_.c = call_;
  }
  PrefillCall prefill_;
};

TEST_F(FlashAttnPrefillArgsTest, ValidCallSucceeds) { EXPECT_EQ(prefill_.Run(), TCPU_OK); }
TEST_F(FlashAttnPrefillArgsTest, NullPointers) {
  PrefillCall p = prefill_;
  p.c.q = nullptr;
  EXPECT_EQ(p.Run(), TCPU_ERR_NULL_POINTER);
  p = prefill_;
  p.c.out = nullptr;
  EXPECT_EQ(p.Run(), TCPU_ERR_NULL_POINTER);
}
TEST_F(FlashAttnPrefillArgsTest, NonPositiveQueries) {
  for (int64_t bad : {0, -1}) {
    prefill_.queries = bad;
    EXPECT_EQ(prefill_.Run(), TCPU_ERR_INVALID_SIZE) << bad;
  }
}
TEST_F(FlashAttnPrefillArgsTest, NegativeFirstPosition) {
  prefill_.first = -1;
  EXPECT_EQ(prefill_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnPrefillArgsTest, LastPositionOverflows) {
  prefill_.first = INT64_MAX - 1;
  EXPECT_EQ(prefill_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnPrefillArgsTest, CachesTooShortForTheBlock) {
  prefill_.first = 14;  // positions up to 16: one more than the head stride holds
  EXPECT_EQ(prefill_.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnPrefillArgsTest, BadSizesAndScale) {
  PrefillCall p = prefill_;
  p.c.kv = 3;
  EXPECT_EQ(p.Run(), TCPU_ERR_INVALID_ARGUMENT);
  p = prefill_;
  p.c.d = 0;
  EXPECT_EQ(p.Run(), TCPU_ERR_INVALID_SIZE);
  p = prefill_;
  p.c.scale = 0.0f;
  EXPECT_EQ(p.Run(), TCPU_ERR_INVALID_ARGUMENT);
}
TEST_F(FlashAttnPrefillArgsTest, ScratchOverflows) {
  // Valid strides, with queries * heads * head_dim past int64.
  prefill_.queries = int64_t{1} << 40;
  prefill_.first = 0;
  prefill_.c.h = int64_t{1} << 20;
  prefill_.c.kv = 1;
  prefill_.c.d = 8;
  prefill_.c.kss = prefill_.c.vss = 8;
  prefill_.c.khs = prefill_.c.vhs = int64_t{1} << 43;
  EXPECT_EQ(prefill_.Run(), TCPU_ERR_SIZE_OVERFLOW);
}

}  // namespace
