// tcpu_transformer_layer_bf16 against the composition of the unfused C ABI ops it is
// documented as (tcpu/transformer.h), bit for bit, over many positions (across a
// flash-attention chunk boundary), with and without Qwen3's q/k norms, at every thread
// count; plus workspace sizing and argument checks.
#include "tcpu/transformer.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/testing/kernel_test_util.h"
#include "runtime/testing/packed_linear.h"
#include "tcpu/attention.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/fused_mlp.h"
#include "tcpu/gemv.h"
#include "tcpu/rms_norm.h"
#include "tcpu/rope.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::AsLinearW8;
using ::tcpu::testing::PackedLinear;
using ::tcpu::testing::RandomBf16;
using ::tcpu::testing::RandomPackedLinear;

// A layer's weights and the C structs that point at them.
struct Layer {
  tcpu_layer_shape shape;
  std::vector<uint16_t> input_norm, post_norm, q_norm, k_norm;
  PackedLinear q, k, v, o, gate, up, down;
  tcpu_layer_weights weights;
};

Layer RandomLayer(const tcpu_layer_shape& shape, bool qk_norm, uint32_t seed) {
  Layer l;
  l.shape = shape;
  const int64_t qd = shape.num_heads * shape.head_dim, kvd = shape.num_kv_heads * shape.head_dim;
  l.input_norm = RandomBf16(shape.hidden, seed, 0.3f);
  for (uint16_t& w : l.input_norm) w = tcpu_f32_to_bf16(1.0f + tcpu_bf16_to_f32(w));
  l.post_norm = RandomBf16(shape.hidden, seed + 1, 0.3f);
  for (uint16_t& w : l.post_norm) w = tcpu_f32_to_bf16(1.0f + tcpu_bf16_to_f32(w));
  l.q_norm = RandomBf16(shape.head_dim, seed + 2);
  l.k_norm = RandomBf16(shape.head_dim, seed + 3);
  l.q = RandomPackedLinear(qd, shape.hidden, seed + 4, 0.2f);
  l.k = RandomPackedLinear(kvd, shape.hidden, seed + 5, 0.2f);
  l.v = RandomPackedLinear(kvd, shape.hidden, seed + 6, 0.2f);
  l.o = RandomPackedLinear(shape.hidden, qd, seed + 7, 0.05f);
  l.gate = RandomPackedLinear(shape.intermediate, shape.hidden, seed + 8, 0.1f);
  l.up = RandomPackedLinear(shape.intermediate, shape.hidden, seed + 9, 0.1f);
  l.down = RandomPackedLinear(shape.hidden, shape.intermediate, seed + 10, 0.05f);
  l.weights = {l.input_norm.data(),
               AsLinearW8(l.q),
               AsLinearW8(l.k),
               AsLinearW8(l.v),
               qk_norm ? l.q_norm.data() : nullptr,
               qk_norm ? l.k_norm.data() : nullptr,
               AsLinearW8(l.o),
               l.post_norm.data(),
               AsLinearW8(l.gate),
               AsLinearW8(l.up),
               AsLinearW8(l.down),
               nullptr,
               nullptr,
               nullptr,
               nullptr};
  return l;
}

// The layer as the header writes it, one public op at a time.
void ComposedLayer(const Layer& l, std::vector<uint16_t>& k_cache, std::vector<uint16_t>& v_cache,
                   int64_t capacity, int64_t pos, std::vector<uint16_t>& h) {
  const tcpu_layer_shape& s = l.shape;
  const int64_t d = s.head_dim, qd = s.num_heads * d, kvd = s.num_kv_heads * d;
  std::vector<uint16_t> x(s.hidden), q(qd), k(kvd), v(kvd), a(qd), o(s.hidden), m(s.hidden);
  ASSERT_EQ(tcpu_rms_norm_bf16(h.data(), l.input_norm.data(), x.data(), s.hidden,
                               s.rms_norm_eps), TCPU_OK);
  ASSERT_EQ(tcpu_gemv_bf16_w8(l.q.packed.data(), l.q.scales.data(), x.data(), q.data(), qd,
                              s.hidden), TCPU_OK);
  ASSERT_EQ(tcpu_gemv_bf16_w8(l.k.packed.data(), l.k.scales.data(), x.data(), k.data(), kvd,
                              s.hidden), TCPU_OK);
  ASSERT_EQ(tcpu_gemv_bf16_w8(l.v.packed.data(), l.v.scales.data(), x.data(), v.data(), kvd,
                              s.hidden), TCPU_OK);
  if (l.weights.q_norm != nullptr) {
    for (int64_t i = 0; i < s.num_heads; ++i) {
      ASSERT_EQ(tcpu_rms_norm_bf16(&q[i * d], l.q_norm.data(), &q[i * d], d, s.rms_norm_eps),
                TCPU_OK);
    }
    for (int64_t i = 0; i < s.num_kv_heads; ++i) {
      ASSERT_EQ(tcpu_rms_norm_bf16(&k[i * d], l.k_norm.data(), &k[i * d], d, s.rms_norm_eps),
                TCPU_OK);
    }
  }
  ASSERT_EQ(tcpu_rope_bf16(q.data(), s.num_heads, d, pos, s.rope_theta), TCPU_OK);
  ASSERT_EQ(tcpu_rope_bf16(k.data(), s.num_kv_heads, d, pos, s.rope_theta), TCPU_OK);
  for (int64_t g = 0; g < s.num_kv_heads; ++g) {
    std::memcpy(&k_cache[(g * capacity + pos) * d], &k[g * d], d * 2);
    std::memcpy(&v_cache[(g * capacity + pos) * d], &v[g * d], d * 2);
  }
  ASSERT_EQ(tcpu_flash_attn_decode_bf16(q.data(), k_cache.data(), v_cache.data(), a.data(),
                                        s.num_heads, s.num_kv_heads, d, pos + 1, capacity * d, d,
                                        capacity * d, d, 1.0f / std::sqrt(static_cast<float>(d))),
            TCPU_OK);
  ASSERT_EQ(tcpu_gemv_bf16_w8(l.o.packed.data(), l.o.scales.data(), a.data(), o.data(), s.hidden,
                              qd), TCPU_OK);
  for (int64_t i = 0; i < s.hidden; ++i) {
    h[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(h[i]) + tcpu_bf16_to_f32(o[i]));
  }
  ASSERT_EQ(tcpu_rms_norm_bf16(h.data(), l.post_norm.data(), x.data(), s.hidden, s.rms_norm_eps),
            TCPU_OK);
  ASSERT_EQ(tcpu_fused_mlp_bf16(l.gate.packed.data(), l.gate.scales.data(), l.up.packed.data(),
                                l.up.scales.data(), l.down.packed.data(), l.down.scales.data(),
                                x.data(), m.data(), s.hidden, s.intermediate),
            TCPU_OK);
  for (int64_t i = 0; i < s.hidden; ++i) {
    h[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(h[i]) + tcpu_bf16_to_f32(m[i]));
  }
}

constexpr tcpu_layer_shape kShape = {64, 160, 4, 2, 16, 1e-6f, 10000.0f, 0.0f, nullptr, 0.0};

// Positions [0, steps) through the fused layer and through the composition, compared bit for
// bit (hidden state at every position, then both caches). Positions before `shared_prefix`
// run once with one thread; every thread count then continues from that state, so a long
// history costs one pass while the positions that matter run at every thread count.
void ExpectLayerMatchesComposition(const tcpu_layer_shape& shape, bool qk_norm, int64_t steps,
                                   int64_t shared_prefix = 0) {
  const Layer l = RandomLayer(shape, qk_norm, 11);
  const int64_t capacity = steps + 3;
  const int64_t cache = shape.num_kv_heads * capacity * shape.head_dim;
  const int64_t ws_bytes = tcpu_transformer_layer_workspace_size(&shape);
  ASSERT_GT(ws_bytes, 0) << tcpu_last_error_detail();
  testing::AlignedBytes ws(ws_bytes);
  struct Caches {
    std::vector<uint16_t> k_fused, v_fused, k_ref, v_ref;
  };
  auto run = [&](int64_t from, int64_t to, int threads, Caches& c) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int64_t pos = from; pos < to; ++pos) {
      std::vector<uint16_t> h = RandomBf16(shape.hidden, static_cast<uint32_t>(pos + 500));
      std::vector<uint16_t> h_ref = h;
      ASSERT_EQ(tcpu_transformer_layer_bf16(&shape, &l.weights, c.k_fused.data(),
                                            c.v_fused.data(), capacity, pos, h.data(), ws.data(),
                                            ws_bytes),
                TCPU_OK)
          << tcpu_last_error_detail();
      ComposedLayer(l, c.k_ref, c.v_ref, capacity, pos, h_ref);
      ASSERT_EQ(h, h_ref) << "position " << pos << ", threads " << threads;
    }
  };
  const std::vector<uint16_t> zeros(cache, 0);
  Caches prefix{zeros, zeros, zeros, zeros};
  run(0, shared_prefix, 1, prefix);
  if (::testing::Test::HasFatalFailure()) return;
  for (int threads : testing::kThreadCounts) {
    Caches c = prefix;
    run(shared_prefix, steps, threads, c);
    if (::testing::Test::HasFatalFailure()) return;
    EXPECT_EQ(c.k_fused, c.k_ref) << "threads " << threads;
    EXPECT_EQ(c.v_fused, c.v_ref) << "threads " << threads;
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

TEST(TransformerLayerTest, RunsTheExpectedVariant) {
  const char* variant = tcpu_kernel_variant("transformer_layer_bf16");
  ASSERT_NE(variant, nullptr);
  EXPECT_EQ(variant, testing::ExpectedFusedVariant("transformer_layer_bf16"));
}

TEST(TransformerLayerTest, EqualsTheCompositionOfTheUnfusedOps) {
  ExpectLayerMatchesComposition(kShape, /*qk_norm=*/false, 40);
}

TEST(TransformerLayerTest, EqualsTheCompositionWithQwen3QkNorms) {
  ExpectLayerMatchesComposition(kShape, /*qk_norm=*/true, 20);
}

TEST(TransformerLayerTest, CrossesAnAttentionChunkBoundary) {
  // 260 positions span two of flash-attention's 256-position chunks; a narrow model keeps
  // it quick under emulation, and the first 250 positions run once (one thread), the last
  // ten (across the boundary) at every thread count.
  const tcpu_layer_shape narrow = {16, 24, 2, 1, 8, 1e-5f, 500.0f, 0.0f, nullptr, 0.0};
  ExpectLayerMatchesComposition(narrow, /*qk_norm=*/true, 260, /*shared_prefix=*/250);
}

TEST(TransformerLayerTest, WorkspaceSizeNamesTheBadField) {
  tcpu_layer_shape s = kShape;
  EXPECT_GT(tcpu_transformer_layer_workspace_size(&s), 0);
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(nullptr), TCPU_ERR_NULL_POINTER);
  s.num_heads = 3;
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(&s), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("num_heads = 3"), std::string::npos);
  s = kShape;
  s.head_dim = 15;
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(&s), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("head_dim"), std::string::npos);
  s = kShape;
  s.rms_norm_eps = 0.0f;
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(&s), TCPU_ERR_INVALID_ARGUMENT);
  s = kShape;
  s.rope_theta = NAN;
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(&s), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("rope_theta"), std::string::npos);
  s = kShape;
  s.intermediate = 0;
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(&s), TCPU_ERR_INVALID_SIZE);
  s = kShape;
  s.num_heads = INT64_MAX / 2;
  s.num_kv_heads = 1;
  EXPECT_EQ(tcpu_transformer_layer_workspace_size(&s), TCPU_ERR_SIZE_OVERFLOW);
}

TEST(TransformerLayerTest, RejectsBadCallsWithoutTouchingState) {
  Layer l = RandomLayer(kShape, false, 3);
  const int64_t capacity = 8, cache = 2 * capacity * 16;
  std::vector<uint16_t> kc(cache, 0x1234), vc(cache, 0x1234);
  std::vector<uint16_t> h = RandomBf16(64, 4);
  const std::vector<uint16_t> h0 = h;
  const int64_t bytes = tcpu_transformer_layer_workspace_size(&kShape);
  testing::AlignedBytes ws(bytes);
  auto call = [&](const tcpu_layer_weights* w, int64_t pos, int64_t ws_bytes) {
    return tcpu_transformer_layer_bf16(&kShape, w, kc.data(), vc.data(), capacity, pos, h.data(),
                                       ws.data(), ws_bytes);
  };
  EXPECT_EQ(call(&l.weights, 8, bytes), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("position = 8"), std::string::npos);
  EXPECT_EQ(call(&l.weights, -1, bytes), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(call(&l.weights, 0, bytes - 1), TCPU_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(call(nullptr, 0, bytes), TCPU_ERR_NULL_POINTER);
  tcpu_layer_weights w = l.weights;
  w.o_proj = l.weights.gate_proj;  // [160, 64] where o_proj is [64, 64]
  EXPECT_EQ(call(&w, 0, bytes), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("o_proj"), std::string::npos)
      << tcpu_last_error_detail();
  w = l.weights;
  w.q_norm = l.q_norm.data();  // without k_norm
  EXPECT_EQ(call(&w, 0, bytes), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("k_norm"), std::string::npos);
  w = l.weights;
  w.input_norm = nullptr;
  EXPECT_EQ(call(&w, 0, bytes), TCPU_ERR_NULL_POINTER);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("input_norm"), std::string::npos);
  w = l.weights;
  w.down_proj.scales = nullptr;
  EXPECT_EQ(call(&w, 0, bytes), TCPU_ERR_NULL_POINTER);
  // Nothing above wrote the hidden state or the caches.
  EXPECT_EQ(h, h0);
  EXPECT_EQ(kc, std::vector<uint16_t>(cache, 0x1234));
  EXPECT_EQ(vc, std::vector<uint16_t>(cache, 0x1234));
}

}  // namespace
}  // namespace tcpu
