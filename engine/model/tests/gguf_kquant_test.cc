// GGUF k-quants (Q4_K, Q5_K, Q6_K): hand-built super-blocks decode to the values their bytes
// define (exact floats known by construction), random rows survive the test encoder
// (kquant_encoder.h) within its error bound and decode bit for bit to the values it reports,
// and a Q4_K_M-style model loads and decodes while broken ones are refused naming the tensor
// and its type.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "engine/gguf/gguf_types.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/gguf_kquants.h"
#include "engine/model/safetensors.h"
#include "engine/model/tests/gguf_test_model.h"
#include "engine/model/tests/kquant_encoder.h"
#include "gtest/gtest.h"
#include "tcpu/bf16.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"

namespace {

using tcpu::gguf::MetadataValue;
using tcpu::gguf::TensorToWrite;
using tcpu::gguf::TensorType;
using tcpu::model::DequantizeKQuant;
using tcpu::model::kKQuantBlock;

constexpr uint16_t kHalfQuarter = 0x3400, kHalfHalf = 0x3800, kHalfNaN = 0x7e00;

void PutHalf(std::vector<uint8_t>* block, size_t at, uint16_t bits) {
  std::memcpy(block->data() + at, &bits, 2);
}

std::vector<float> Decode(TensorType type, const std::vector<uint8_t>& blocks, int64_t count) {
  std::vector<float> out(static_cast<size_t>(count * kKQuantBlock));
  EXPECT_EQ(DequantizeKQuant(type, blocks.data(), count, out.data()), -1);
  return out;
}

// Q4_K and Q5_K share the header: d = 0.5, dmin = 0.25, and these 6-bit scales and mins, packed
// by hand (sub-blocks 4..7 split into low nibbles in bytes 8..11 and top bits in 0..7).
constexpr int kScales[8] = {1, 2, 3, 4, 33, 40, 63, 17};
constexpr int kMins[8] = {0, 1, 2, 3, 20, 37, 63, 48};
constexpr uint8_t kPackedScales[12] = {0x81, 0x82, 0xc3, 0x44, 0x40, 0x81,
                                       0xc2, 0xc3, 0x41, 0x58, 0xff, 0x01};

std::vector<uint8_t> ScaleMinBlock(TensorType type) {
  const bool q5 = type == TensorType::kQ5_K;
  std::vector<uint8_t> block(q5 ? 176 : 144);
  PutHalf(&block, 0, kHalfHalf);
  PutHalf(&block, 2, kHalfQuarter);
  std::memcpy(block.data() + 4, kPackedScales, 12);
  const size_t qs = q5 ? 48 : 16;
  // In every 32-byte group: sub-block 2c's nibble is l % 16, sub-block 2c + 1's is 15 - l % 16.
  for (int i = 0; i < 128; ++i) {
    block[qs + i] = static_cast<uint8_t>((i % 16) | ((15 - i % 16) << 4));
  }
  // Q5_K's fifth bits: odd sub-blocks for even l, even sub-blocks for odd l.
  if (q5) {
    for (int l = 0; l < 32; ++l) block[16 + l] = l % 2 == 0 ? 0xaa : 0x55;
  }
  return block;
}

TEST(KQuantBlockTest, Q4_KHandBuiltBlock) {
  const std::vector<float> v = Decode(TensorType::kQ4_K, ScaleMinBlock(TensorType::kQ4_K), 1);
  EXPECT_EQ(v[0], 0.0f);               // sub-block 0, q 0
  EXPECT_EQ(v[1], 0.5f);               // 0.5 * 1 * 1
  EXPECT_EQ(v[32], 14.75f);            // sub-block 1, q 15: 0.5 * 2 * 15 - 0.25 * 1
  EXPECT_EQ(v[4 * 32 + 5], 77.5f);     // 0.5 * 33 * 5 - 0.25 * 20
  EXPECT_EQ(v[6 * 32 + 15], 456.75f);  // 0.5 * 63 * 15 - 0.25 * 63
  EXPECT_EQ(v[7 * 32], 115.5f);        // 0.5 * 17 * 15 - 0.25 * 48
  for (int i = 0; i < 256; ++i) {
    const int s = i / 32, l = i % 32;
    const int q = s % 2 == 0 ? l % 16 : 15 - l % 16;
    EXPECT_EQ(v[i], 0.5f * kScales[s] * q - 0.25f * kMins[s]) << "value " << i;
  }
}

TEST(KQuantBlockTest, Q5_KHandBuiltBlock) {
  const std::vector<float> v = Decode(TensorType::kQ5_K, ScaleMinBlock(TensorType::kQ5_K), 1);
  EXPECT_EQ(v[0], 0.0f);             // sub-block 0, even l: no fifth bit
  EXPECT_EQ(v[32], 30.75f);          // sub-block 1, even l: q 15 + 16; 0.5 * 2 * 31 - 0.25
  EXPECT_EQ(v[4 * 32 + 5], 341.5f);  // sub-block 4, odd l: q 5 + 16; 0.5 * 33 * 21 - 5
  for (int i = 0; i < 256; ++i) {
    const int s = i / 32, l = i % 32;
    const int high = (s + l) % 2 == 1 ? 16 : 0;
    const int q = (s % 2 == 0 ? l % 16 : 15 - l % 16) + high;
    EXPECT_EQ(v[i], 0.5f * kScales[s] * q - 0.25f * kMins[s]) << "value " << i;
  }
}

TEST(KQuantBlockTest, Q6_KHandBuiltBlock) {
  // d = 0.25, scales[s] = s - 8. In each half: ql[0..31] = 0x21, ql[32..63] = 0x43, qh = 0xe4
  // (bits 2k..2k+1 = k). Value 32k + l: k 0 -> 1 | 0 << 4, k 1 -> 3 | 1 << 4, k 2 -> 2 | 2 << 4,
  // k 3 -> 4 | 3 << 4; minus 32: -31, -13, 2, 20.
  std::vector<uint8_t> block(210);
  for (int half = 0; half < 2; ++half) {
    for (int l = 0; l < 32; ++l) {
      block[64 * half + l] = 0x21;
      block[64 * half + 32 + l] = 0x43;
      block[128 + 32 * half + l] = 0xe4;
    }
  }
  for (int s = 0; s < 16; ++s) block[192 + s] = static_cast<uint8_t>(static_cast<int8_t>(s - 8));
  PutHalf(&block, 208, kHalfQuarter);
  const std::vector<float> v = Decode(TensorType::kQ6_K, block, 1);
  EXPECT_EQ(v[0], 62.0f);              // 0.25 * -8 * -31
  EXPECT_EQ(v[40], 19.5f);             // k 1, sub-block 2: 0.25 * -6 * -13
  EXPECT_EQ(v[80], -1.5f);             // k 2, sub-block 5: 0.25 * -3 * 2
  EXPECT_EQ(v[128 + 96 + 20], 35.0f);  // second half, k 3, sub-block 15: 0.25 * 7 * 20
  EXPECT_EQ(v[128], 0.0f);             // sub-block 8: scale 0
  const int q[4] = {-31, -13, 2, 20};
  for (int i = 0; i < 256; ++i) {
    EXPECT_EQ(v[i], 0.25f * (i / 16 - 8) * q[(i % 128) / 32]) << "value " << i;
  }
}

TEST(KQuantBlockTest, ANonFiniteScaleNamesItsSuperBlock) {
  std::vector<uint8_t> blocks = ScaleMinBlock(TensorType::kQ4_K);
  std::vector<uint8_t> bad = ScaleMinBlock(TensorType::kQ4_K);
  PutHalf(&bad, 2, kHalfNaN);  // dmin
  blocks.insert(blocks.end(), bad.begin(), bad.end());
  std::vector<float> out(2 * kKQuantBlock);
  EXPECT_EQ(DequantizeKQuant(TensorType::kQ4_K, blocks.data(), 2, out.data()), 1);
  std::vector<uint8_t> q6(210);
  PutHalf(&q6, 208, 0x7c00);  // +inf
  EXPECT_EQ(DequantizeKQuant(TensorType::kQ6_K, q6.data(), 1, out.data()), 0);
  std::vector<uint16_t> bf16(kKQuantBlock);
  EXPECT_EQ(tcpu::model::DequantizeKQuantToBf16(TensorType::kQ6_K, q6.data(), 1, bf16.data()), 0);
}

// Rows whose sub-blocks differ in magnitude and sign: mixed, all positive, all negative, all
// zero, and one outlier.
std::vector<float> RandomRows(int64_t blocks, uint32_t seed) {
  std::vector<float> x(static_cast<size_t>(blocks * kKQuantBlock));
  for (size_t i = 0; i < x.size(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    const float u = static_cast<float>(seed >> 8) / 16777216.0f - 0.5f;  // [-0.5, 0.5)
    const int kind = static_cast<int>(i / 16) % 7;
    const float magnitude = std::ldexp(1.0f, static_cast<int>(i / 32) % 5 - 3);
    x[i] = kind == 1   ? std::fabs(u) * magnitude
           : kind == 2 ? -std::fabs(u) * magnitude
           : kind == 3 ? 0.0f
                       : u * magnitude;
  }
  x[37] = 3.0f;  // an outlier raises its super-block's d
  return x;
}

float HalfAt(const std::vector<uint8_t>& blocks, size_t at) {
  uint16_t h;
  std::memcpy(&h, blocks.data() + at, 2);
  return tcpu::model::HalfToFloat(h);
}

TEST(KQuantBlockTest, RandomRowsRoundTripWithinTheBound) {
  constexpr int64_t kBlocks = 24;
  const std::vector<float> x = RandomRows(kBlocks, 11);
  for (TensorType type : {TensorType::kQ4_K, TensorType::kQ5_K, TensorType::kQ6_K}) {
    SCOPED_TRACE(tcpu::gguf::TensorTypeName(type));
    std::vector<uint8_t> blocks;
    std::vector<float> reported(x.size());
    for (int64_t b = 0; b < kBlocks; ++b) {
      tcpu::testing::EncodeKQuantBlock(type, x.data() + b * kKQuantBlock, &blocks,
                                       reported.data() + b * kKQuantBlock);
    }
    const int64_t block_bytes =
        tcpu::gguf::FindTensorType(static_cast<uint32_t>(type))->block_bytes;
    ASSERT_EQ(blocks.size(), static_cast<size_t>(kBlocks * block_bytes));
    const std::vector<float> decoded = Decode(type, blocks, kBlocks);
    // What the loader keeps: the same values rounded to bf16.
    std::vector<uint16_t> bf16(decoded.size());
    ASSERT_EQ(tcpu::model::DequantizeKQuantToBf16(type, blocks.data(), kBlocks, bf16.data()), -1);
    for (size_t i = 0; i < decoded.size(); ++i) {
      ASSERT_EQ(bf16[i], tcpu_f32_to_bf16(decoded[i])) << "value " << i;
    }
    const bool q6 = type == TensorType::kQ6_K;
    const int sub = q6 ? 16 : 32;
    const double levels = type == TensorType::kQ4_K ? 15 : 31;
    for (int64_t b = 0; b < kBlocks; ++b) {
      const size_t at = static_cast<size_t>(b * block_bytes);
      const double d = HalfAt(blocks, at + (q6 ? 208 : 0));
      const double dmin = q6 ? 0 : HalfAt(blocks, at + 2);
      for (int64_t s = 0; s < kKQuantBlock / sub; ++s) {
        const float* xs = x.data() + b * kKQuantBlock + s * sub;
        double lo = 0, hi = xs[0], amax = 0;
        for (int l = 0; l < sub; ++l) {
          lo = std::min<double>(lo, xs[l]);
          hi = std::max<double>(hi, xs[l]);
          amax = std::max<double>(amax, std::fabs(xs[l]));
        }
        const double step = q6 ? amax / 31 + d : (hi - lo + dmin) / levels + d;
        for (int l = 0; l < sub; ++l) {
          const size_t i = static_cast<size_t>(b * kKQuantBlock + s * sub + l);
          ASSERT_EQ(decoded[i], reported[i]) << "value " << i;  // bit for bit
          ASSERT_LE(std::fabs(decoded[i] - x[i]), 0.5 * step * (1 + 1e-5) + 1e-7)
              << "value " << i << ": " << x[i] << " became " << decoded[i];
        }
      }
    }
  }
}

// A Q4_K_M-style model: F32 norms, Q4_K embeddings and matrices (attn_k Q5_K), Q6_K attn_v,
// ffn_down and output; hidden 256 so that every row is whole super-blocks.
constexpr uint64_t kHidden = 256, kHeads = 2, kHeadDim = 128, kFfn = 256, kVocab = 16;

using Model = tcpu::testing::GgufTestModel;

TensorToWrite Encoded(const std::string& name, TensorType type, std::vector<uint64_t> dims,
                      uint32_t seed) {
  TensorToWrite t;
  t.name = name;
  t.type = static_cast<uint32_t>(type);
  t.dims = std::move(dims);
  const int64_t blocks =
      static_cast<int64_t>(t.dims[0] * (t.dims.size() > 1 ? t.dims[1] : 1)) / kKQuantBlock;
  const std::vector<float> x = RandomRows(blocks, seed);
  if (type == TensorType::kF32) {
    t.data.resize(4 * x.size());
    std::memcpy(t.data.data(), x.data(), t.data.size());
    return t;
  }
  std::vector<float> values(x.size());
  for (int64_t b = 0; b < blocks; ++b) {
    tcpu::testing::EncodeKQuantBlock(type, x.data() + b * kKQuantBlock, &t.data,
                                     values.data() + b * kKQuantBlock);
  }
  return t;
}

Model MixedModel() {
  Model m;
  m.AddLlamaKeys(kHidden, kFfn, kHeads, 1);
  m.metadata.emplace_back("llama.vocab_size", MetadataValue::Uint32(kVocab));
  const TensorType q4 = TensorType::kQ4_K, q6 = TensorType::kQ6_K, f32 = TensorType::kF32;
  m.tensors.push_back(Encoded("token_embd.weight", q4, {kHidden, kVocab}, 1));
  m.tensors.push_back(Encoded("blk.0.attn_norm.weight", f32, {kHidden}, 2));
  m.tensors.push_back(Encoded("blk.0.attn_q.weight", q4, {kHidden, kHeads * kHeadDim}, 3));
  m.tensors.push_back(Encoded("blk.0.attn_k.weight", TensorType::kQ5_K, {kHidden, kHeadDim}, 4));
  m.tensors.push_back(Encoded("blk.0.attn_v.weight", q6, {kHidden, kHeadDim}, 5));
  m.tensors.push_back(Encoded("blk.0.attn_output.weight", q4, {kHeads * kHeadDim, kHidden}, 6));
  m.tensors.push_back(Encoded("blk.0.ffn_norm.weight", f32, {kHidden}, 7));
  m.tensors.push_back(Encoded("blk.0.ffn_gate.weight", q4, {kHidden, kFfn}, 8));
  m.tensors.push_back(Encoded("blk.0.ffn_up.weight", q4, {kHidden, kFfn}, 9));
  m.tensors.push_back(Encoded("blk.0.ffn_down.weight", q6, {kFfn, kHidden}, 10));
  m.tensors.push_back(Encoded("output_norm.weight", f32, {kHidden}, 11));
  m.tensors.push_back(Encoded("output.weight", q6, {kHidden, kVocab}, 12));
  return m;
}

std::string Write(const std::string& name, const Model& m) { return m.Write(name); }

TEST(KQuantModelTest, AMixedModelLoadsAndDecodes) {
  Model tied = MixedModel();
  tied.tensors.pop_back();  // no output.weight: the lm_head is token_embd (Q4_K)
  const std::string mixed = Write("mixed", MixedModel()), mixed_tied = Write("mixed_tied", tied);
  for (const auto& [path, weights] :
       {std::pair{mixed, TCPU_WEIGHTS_INT8}, std::pair{mixed, TCPU_WEIGHTS_INT4},
        std::pair{mixed_tied, TCPU_WEIGHTS_INT8}}) {
    SCOPED_TRACE(path);
    tcpu_decoder_options options{};
    options.weights = weights;
    tcpu_decoder* decoder = nullptr;
    ASSERT_EQ(tcpu_decoder_open_with_options(path.c_str(), 16, &options, &decoder), TCPU_OK)
        << tcpu_last_error_detail();
    int32_t next = -1;
    EXPECT_EQ(tcpu_decoder_step(decoder, 3, nullptr, &next), TCPU_OK) << tcpu_last_error_detail();
    EXPECT_GE(next, 0);
    EXPECT_LT(next, static_cast<int32_t>(kVocab));
    tcpu_decoder_close(decoder);
  }
}

struct Case {
  const char* name;
  void (*edit)(Model& m);
  std::vector<std::string> details;  // each must appear in the error detail
};

TEST(KQuantModelTest, BrokenTensorsAreRefusedNamingTensorAndType) {
  const std::vector<Case> cases = {
      {"row_length",
       [](Model& m) {
         TensorToWrite* t = m.Tensor("blk.0.attn_q.weight");
         t->dims = {kHidden / 2, 2 * kHeads * kHeadDim};  // the same bytes, as rows of 128
       },
       {"tensor 'blk.0.attn_q.weight'",
        "of type Q4_K has a first dimension of 128, not a multiple of its 256-element block"}},
      {"truncated",
       [](Model& m) { m.Tensor("output.weight")->data.resize(210 * kVocab - 100); },
       {"tensor 'output.weight'", "of type Q6_K (3360 bytes)", "data section"}},
      {"nan_scale",
       [](Model& m) {
         const uint16_t nan = kHalfNaN;
         std::memcpy(m.Tensor("blk.0.ffn_gate.weight")->data.data() + 144 * 5, &nan, 2);
       },
       {"tensor 'blk.0.ffn_gate.weight' of type Q4_K: super-block 5 (of 256) has an fp16 scale "
        "that is infinite or NaN"}},
      {"q2_k",
       [](Model& m) {
         TensorToWrite* t = m.Tensor("blk.0.attn_k.weight");
         t->type = static_cast<uint32_t>(TensorType::kQ2_K);
         t->data.assign(84 * kHeadDim, 0);
       },
       {"tensor 'blk.0.attn_k.weight' has type Q2_K, which the engine does not load (F32, F16, "
        "BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K)"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Model m = MixedModel();
    c.edit(m);
    tcpu_decoder* decoder = nullptr;
    const int got = tcpu_decoder_open(Write(c.name, m).c_str(), 16, &decoder);
    EXPECT_EQ(got, TCPU_ERR_INVALID_MODEL) << tcpu_status_string(got);
    EXPECT_EQ(decoder, nullptr);
    const std::string detail = tcpu_last_error_detail();
    for (const std::string& expected : c.details) {
      EXPECT_NE(detail.find(expected), std::string::npos)
          << "detail: " << detail << "\nexpected to contain: " << expected;
    }
  }
}

}  // namespace
