// The same model as safetensors and as GGUF decodes to identical ids and logits: the
// generated checkpoints (//tools/checkpoint) rewritten as GGUF the way llama.cpp's converter
// writes them (gguf_from_checkpoint.h: llama.cpp's names and dims order, Llama's permuted q/k
// rows, F32 norms and biases), their matrices in the checkpoint's own type or F32 — the same
// numbers, so the loader must give the decoder the same weights bit for bit. Q8_0 files with
// int4 weights, Q4_0 files with int8, and Q4_K_M / Q5_K_M-style mixes of Q4_K, Q5_K and Q6_K,
// decode exactly as F32 files holding their dequantized values (d x q); with int4 weights, Q4_0
// blocks are packed as they are and decode exactly as those values quantized at load. (Q8_0
// with int8 runs on the block-Q8 kernels, the file's numbers as they are: gguf_q8_0_test.)
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/gguf/gguf_types.h"
#include "engine/model/tests/gguf_from_checkpoint.h"
#include "engine/model/tests/greedy_run.h"
#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"

namespace {

using tcpu::gguf::TensorType;
using tcpu::testing::GgufExport;
using tcpu::testing::GreedyRun;
using tcpu::testing::RunGreedy;

constexpr char kDir[] = "tools/checkpoint/";
const std::vector<int32_t> kPrompt = {1, 2, 3, 4, 5, 6, 7, 8};
constexpr int kNewTokens = 16;

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
}

// `checkpoint`: a directory of tools/checkpoint, or a path from the workspace root.
std::string Export(const std::string& checkpoint, const std::string& file,
                   const GgufExport& options) {
  const std::string path = TempPath(file);
  const std::string dir =
      checkpoint.find('/') == std::string::npos ? kDir + checkpoint : checkpoint;
  std::string error;
  EXPECT_TRUE(tcpu::testing::WriteGgufFromCheckpoint(dir, path, options, &error)) << error;
  return path;
}

void ExpectSameDecode(const std::string& a, const std::string& b, int32_t weights) {
  const GreedyRun x = RunGreedy(a, weights, kPrompt, kNewTokens);
  const GreedyRun y = RunGreedy(b, weights, kPrompt, kNewTokens);
  ASSERT_EQ(x.ids.size(), static_cast<size_t>(kNewTokens));
  EXPECT_EQ(x.ids, y.ids) << a << " vs " << b;
  EXPECT_EQ(x.logits, y.logits) << a << " vs " << b;
}

struct Case {
  const char* checkpoint;
  bool as_f32;  // matrices as F32 instead of the checkpoint's dtype
  int32_t weights;
};

class GgufIdentityTest : public ::testing::TestWithParam<Case> {};

TEST_P(GgufIdentityTest, DecodesAsTheSafetensorsCheckpoint) {
  const Case c = GetParam();
  GgufExport options;
  if (c.as_f32) options.matrix_type = TensorType::kF32;
  const std::string gguf =
      Export(c.checkpoint, std::string(c.checkpoint) + (c.as_f32 ? "_f32" : "") + ".gguf", options);
  ExpectSameDecode(kDir + std::string(c.checkpoint), gguf, c.weights);
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return std::string(info.param.checkpoint) + (info.param.as_f32 ? "_f32" : "_own_dtype") +
         (info.param.weights == TCPU_WEIGHTS_INT4 ? "_int4" : "_int8");
}

// Llama (bf16, permuted q/k), Qwen3 (f16, tied, q/k norms, three shards), Qwen2 (q/k/v
// biases, linear RoPE scaling), MiniCPM (muP's scales as minicpm.*_scale, LongRoPE's factors
// as tensors, permuted q/k).
INSTANTIATE_TEST_SUITE_P(Checkpoints, GgufIdentityTest,
                         ::testing::Values(Case{"tiny_llama", false, TCPU_WEIGHTS_INT8},
                                           Case{"tiny_llama", true, TCPU_WEIGHTS_INT8},
                                           Case{"tiny_llama", false, TCPU_WEIGHTS_INT4},
                                           Case{"tiny_qwen3_sharded", false, TCPU_WEIGHTS_INT8},
                                           Case{"tiny_qwen3_sharded", true, TCPU_WEIGHTS_INT4},
                                           Case{"tiny_qwen2", false, TCPU_WEIGHTS_INT8},
                                           Case{"tiny_qwen2", true, TCPU_WEIGHTS_INT8},
                                           Case{"tiny_minicpm", false, TCPU_WEIGHTS_INT8},
                                           Case{"tiny_minicpm", true, TCPU_WEIGHTS_INT4}),
                         CaseName);

// Blocks of the other weight format are dequantized exactly at load (Q4_0 with int8 weights,
// Q8_0 with int4): the same decode as F32 files of d x q.
TEST(GgufBlockTypesTest, BlocksOfTheOtherFormatDecodeAsTheirDequantizedValues) {
  struct BlockCase {
    TensorType type;
    const char* name;
    const char* checkpoint;
    int32_t weights;
  };
  for (const BlockCase& c :
       {BlockCase{TensorType::kQ8_0, "q8_0", "tiny_llama", TCPU_WEIGHTS_INT4},
        BlockCase{TensorType::kQ4_0, "q4_0", "tiny_qwen2", TCPU_WEIGHTS_INT8},
        BlockCase{TensorType::kQ8_0, "q8_0", "tiny_qwen3_sharded", TCPU_WEIGHTS_INT4}}) {
    SCOPED_TRACE(c.name);
    GgufExport blocks;
    blocks.matrix_type = c.type;
    GgufExport values = blocks;
    values.dequantized_as_f32 = true;
    const std::string prefix = std::string(c.checkpoint) + "_" + c.name;
    const std::string a = Export(c.checkpoint, prefix + ".gguf", blocks);
    const std::string b = Export(c.checkpoint, prefix + "_values.gguf", values);
    ExpectSameDecode(a, b, c.weights);
  }
}

// With int4 weights a Q4_0 matrix is repacked as it is (q = nibble - 8, d copied bit for bit,
// no dequantize / requantize): it decodes to the identical ids and logits as an F32 file of
// the same numbers (d x q) taking the float path, which a safetensors checkpoint takes too
// (converted to bf16, group-quantized at load). Its d are bf16-exact (q4_0_bf16_exact), so
// that path sees exactly these values and quantizes them back to the same q and d. Llama's
// permuted q/k rows are reordered as blocks; the embedding is Q4_0 too, kept as blocks and
// converted one row per token (and, tied in Qwen3, packed as it is for the lm_head).
TEST(GgufBlockTypesTest, Q4_0WithInt4IsPackedAsItIs) {
  for (const char* checkpoint : {"tiny_llama", "tiny_qwen2", "tiny_qwen3_sharded"}) {
    SCOPED_TRACE(checkpoint);
    GgufExport blocks;
    blocks.matrix_type = TensorType::kQ4_0;
    blocks.q4_0_bf16_exact = true;
    GgufExport values = blocks;
    values.dequantized_as_f32 = true;
    const std::string prefix = std::string(checkpoint) + "_q4_0_exact";
    const std::string a = Export(checkpoint, prefix + ".gguf", blocks);
    const std::string b = Export(checkpoint, prefix + "_values.gguf", values);
    ExpectSameDecode(a, b, TCPU_WEIGHTS_INT4);
  }
}

// Q4_K_M- and Q5_K_M-style files (Q6_K for output, attn_v and ffn_down; Q4_K or Q5_K for the
// other matrices; F32 norms) are dequantized exactly at load and then quantized to the engine's
// int8 or int4: the same decode as F32 files of the values their blocks hold.
TEST(GgufBlockTypesTest, KQuantMixesDecodeAsTheirDequantizedValues) {
  constexpr char kCheckpoint[] = "engine/model/tests/kquant_checkpoint";
  struct MixCase {
    TensorType base;
    const char* name;
    int32_t weights;
  };
  for (const MixCase& c : {MixCase{TensorType::kQ4_K, "q4_k_m", TCPU_WEIGHTS_INT8},
                           MixCase{TensorType::kQ4_K, "q4_k_m", TCPU_WEIGHTS_INT4},
                           MixCase{TensorType::kQ5_K, "q5_k_m", TCPU_WEIGHTS_INT8}}) {
    SCOPED_TRACE(std::string(c.name) + (c.weights == TCPU_WEIGHTS_INT4 ? " int4" : " int8"));
    GgufExport blocks;
    blocks.matrix_type = c.base;
    blocks.k_quant_mix = true;
    GgufExport values = blocks;
    values.dequantized_as_f32 = true;
    const std::string a = Export(kCheckpoint, std::string(c.name) + ".gguf", blocks);
    const std::string b = Export(kCheckpoint, std::string(c.name) + "_values.gguf", values);
    ExpectSameDecode(a, b, c.weights);
  }
}

}  // namespace
