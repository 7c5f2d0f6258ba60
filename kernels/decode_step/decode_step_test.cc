// tcpu_decode_step against the composition it is documented as: the embedding row, each layer
// by tcpu_transformer_layer_bf16, tcpu_rms_norm_bf16, and the lm_head as a W8A8 GEMV with an
// fp32 epilogue (tcpu_gemv_i8 on the activation quantized by the tcpu/gemv.h rule), bit for
// bit over 20 steps at every thread count; plus workspace sizing and argument checks.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "runtime/testing/packed_linear.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/gemv.h"
#include "tcpu/rms_norm.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/transformer.h"

namespace tcpu {
namespace {

using ::tcpu::testing::AsLinearW8;
using ::tcpu::testing::PackedLinear;
using ::tcpu::testing::RandomBf16;
using ::tcpu::testing::RandomPackedLinear;

constexpr tcpu_layer_shape kShape = {32, 64, 4, 2, 8, 1e-6f, 10000.0f, 0.0f, nullptr, 0.0};
constexpr int64_t kLayers = 2, kVocab = 50, kCapacity = 24;

struct Model {
  std::vector<uint16_t> embed, final_norm;
  std::vector<std::vector<uint16_t>> norms;
  std::vector<PackedLinear> linears;
  std::vector<tcpu_layer_weights> layers;
  PackedLinear lm_head;
  tcpu_model_weights weights;
};

std::vector<uint16_t> Ones(int64_t n, uint32_t seed) {
  std::vector<uint16_t> v = RandomBf16(n, seed, 0.2f);
  for (uint16_t& x : v) x = tcpu_f32_to_bf16(1.0f + tcpu_bf16_to_f32(x));
  return v;
}

void MakeModel(Model* m) {
  const tcpu_layer_shape& s = kShape;
  const int64_t qd = s.num_heads * s.head_dim, kvd = s.num_kv_heads * s.head_dim;
  m->embed = RandomBf16(kVocab * s.hidden, 1, 0.1f);
  m->final_norm = Ones(s.hidden, 2);
  m->norms.reserve(2 * kLayers);
  m->linears.reserve(7 * kLayers);
  uint32_t seed = 10;
  for (int64_t i = 0; i < kLayers; ++i) {
    m->norms.push_back(Ones(s.hidden, seed++));
    m->norms.push_back(Ones(s.hidden, seed++));
    const int64_t shapes[7][2] = {{qd, s.hidden},           {kvd, s.hidden},
                                  {kvd, s.hidden},          {s.hidden, qd},
                                  {s.intermediate, s.hidden}, {s.intermediate, s.hidden},
                                  {s.hidden, s.intermediate}};
    for (const auto& shape : shapes) {
      m->linears.push_back(RandomPackedLinear(shape[0], shape[1], seed++, 0.2f));
    }
  }
  for (int64_t i = 0; i < kLayers; ++i) {
    const PackedLinear* l = &m->linears[7 * i];
    m->layers.push_back({m->norms[2 * i].data(), AsLinearW8(l[0]), AsLinearW8(l[1]),
                         AsLinearW8(l[2]), nullptr, nullptr, AsLinearW8(l[3]),
                         m->norms[2 * i + 1].data(), AsLinearW8(l[4]), AsLinearW8(l[5]),
                         AsLinearW8(l[6]), nullptr, nullptr, nullptr, nullptr});
  }
  m->lm_head = RandomPackedLinear(kVocab, s.hidden, 99, 0.2f);
  m->weights = {kShape,         kLayers,          kVocab, m->embed.data(), m->layers.data(),
                m->final_norm.data(), AsLinearW8(m->lm_head), 0.0f, 0.0f, TCPU_EMBED_BF16, nullptr};
}

// The step as the header writes it.
void ComposedStep(const Model& m, std::vector<uint16_t>& k, std::vector<uint16_t>& v,
                  int64_t pos, int32_t token, std::vector<float>* logits) {
  const tcpu_layer_shape& s = kShape;
  const int64_t layer_cache = s.num_kv_heads * kCapacity * s.head_dim;
  std::vector<uint16_t> h(m.embed.begin() + token * s.hidden,
                          m.embed.begin() + (token + 1) * s.hidden);
  testing::AlignedBytes ws(tcpu_transformer_layer_workspace_size(&s));
  for (int64_t i = 0; i < kLayers; ++i) {
    ASSERT_EQ(tcpu_transformer_layer_bf16(&s, &m.layers[i], &k[i * layer_cache],
                                          &v[i * layer_cache], kCapacity, pos, h.data(), ws.data(),
                                          tcpu_transformer_layer_workspace_size(&s)),
              TCPU_OK);
  }
  std::vector<uint16_t> x(s.hidden);
  ASSERT_EQ(tcpu_rms_norm_bf16(h.data(), m.final_norm.data(), x.data(), s.hidden,
                               s.rms_norm_eps), TCPU_OK);
  float absmax = 0;
  for (uint16_t e : x) absmax = std::fmax(absmax, std::fabs(tcpu_bf16_to_f32(e)));
  std::vector<int8_t> q(s.hidden);
  for (int64_t j = 0; j < s.hidden; ++j) {
    const float r = std::nearbyint(tcpu_bf16_to_f32(x[j]) * (127.0f / absmax));
    q[j] = static_cast<int8_t>(r > 127 ? 127 : r < -127 ? -127 : r);
  }
  std::vector<int32_t> acc(kVocab);
  ASSERT_EQ(tcpu_gemv_i8(m.lm_head.packed.data(), q.data(), acc.data(), kVocab, s.hidden),
            TCPU_OK);
  logits->resize(kVocab);
  for (int64_t i = 0; i < kVocab; ++i) {
    (*logits)[i] = static_cast<float>(acc[i]) * (absmax / 127.0f) * m.lm_head.scales[i];
  }
}

TEST(DecodeStepTest, RunsTheExpectedVariant) {
  const char* variant = tcpu_kernel_variant("decode_step");
  ASSERT_NE(variant, nullptr);
  EXPECT_EQ(variant, testing::ExpectedFusedVariant("decode_step"));
}

TEST(DecodeStepTest, EqualsTheCompositionAndPicksTheFirstLargestLogit) {
  Model m;
  MakeModel(&m);
  const int64_t cache = kLayers * kShape.num_kv_heads * kCapacity * kShape.head_dim;
  const int64_t bytes = tcpu_decode_step_workspace_size(&m.weights);
  ASSERT_GT(bytes, 0) << tcpu_last_error_detail();
  testing::AlignedBytes ws(bytes);
  for (int threads : testing::kThreadCounts) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    std::vector<uint16_t> k(cache), v(cache), k_ref(cache), v_ref(cache);
    int32_t token = 7;
    for (int64_t pos = 0; pos < 20; ++pos) {
      std::vector<float> logits(kVocab + 1, -1.0f), expected;
      int32_t next = -1;
      ASSERT_EQ(tcpu_decode_step(&m.weights, k.data(), v.data(), kCapacity, pos, token,
                                 logits.data(), &next, ws.data(), bytes),
                TCPU_OK)
          << tcpu_last_error_detail();
      ComposedStep(m, k_ref, v_ref, pos, token, &expected);
      for (int64_t i = 0; i < kVocab; ++i) {
        ASSERT_EQ(logits[i], expected[i]) << "pos " << pos << " logit " << i;
      }
      EXPECT_EQ(logits[kVocab], -1.0f) << "wrote past the logits";
      int32_t best = 0;
      for (int32_t i = 1; i < kVocab; ++i) best = expected[i] > expected[best] ? i : best;
      ASSERT_EQ(next, best);
      token = next;
    }
    EXPECT_EQ(k, k_ref);
    EXPECT_EQ(v, v_ref);
  }
}

TEST(DecodeStepTest, RejectsBadCallsNamingThem) {
  Model m;
  MakeModel(&m);
  const int64_t cache = kLayers * kShape.num_kv_heads * kCapacity * kShape.head_dim;
  std::vector<uint16_t> k(cache), v(cache);
  std::vector<float> logits(kVocab);
  int32_t next = 0;
  const int64_t bytes = tcpu_decode_step_workspace_size(&m.weights);
  testing::AlignedBytes ws(bytes);
  auto step = [&](const tcpu_model_weights* w, int64_t pos, int32_t token) {
    return tcpu_decode_step(w, k.data(), v.data(), kCapacity, pos, token, logits.data(), &next,
                            ws.data(), bytes);
  };
  EXPECT_EQ(step(&m.weights, 0, kVocab), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("token = 50"), std::string::npos);
  EXPECT_EQ(step(&m.weights, kCapacity, 1), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(step(nullptr, 0, 1), TCPU_ERR_NULL_POINTER);
  tcpu_model_weights w = m.weights;
  w.lm_head = m.weights.layers[0].q_proj;
  EXPECT_EQ(step(&w, 0, 1), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("lm_head"), std::string::npos);
  std::vector<tcpu_layer_weights> layers = m.layers;
  layers[1].up_proj.packed = nullptr;
  w = m.weights;
  w.layers = layers.data();
  EXPECT_EQ(step(&w, 0, 1), TCPU_ERR_NULL_POINTER);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("layer 1"), std::string::npos)
      << tcpu_last_error_detail();
  EXPECT_EQ(k, std::vector<uint16_t>(cache, 0)) << "a refused step wrote the cache";
  w = m.weights;
  w.num_layers = 0;
  EXPECT_EQ(tcpu_decode_step_workspace_size(&w), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_decode_step(&m.weights, k.data(), v.data(), kCapacity, 0, 1, logits.data(),
                             &next, ws.data(), bytes - 1),
            TCPU_ERR_BUFFER_TOO_SMALL);
}

}  // namespace
}  // namespace tcpu
