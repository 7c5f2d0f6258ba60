// Pre-quantized checkpoints (tcpu/quantize_checkpoint.h). The round trip: every generated family
// written by tcpu_quantize_checkpoint decodes to the ids and logits, bit for bit, of the same
// checkpoint quantized at load, with int8 and with int4 weights. Then a corpus of broken
// pre-quantized files, each made from a valid one with one thing changed: each is refused with the
// status and a detail naming the key or tensor, and nothing reads out of bounds (the host variant
// runs under ASan + UBSan).
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"
#include "engine/model/tests/greedy_run.h"
#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/quantize_checkpoint.h"
#include "tcpu/status.h"

namespace {

using Json = nlohmann::ordered_json;
using tcpu::testing::GreedyRun;
using tcpu::testing::RunGreedy;

constexpr char kDir[] = "tools/checkpoint/";
const std::vector<int32_t> kPrompt = {1, 2, 3, 4, 5, 6};
constexpr int kNewTokens = 10;

std::string TempPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
}

const char* WeightsName(int32_t weights) { return weights == TCPU_WEIGHTS_INT4 ? "int4" : "int8"; }

// `checkpoint` quantized into a fresh directory named after it and `weights`.
std::string Quantize(const std::string& checkpoint, int32_t weights) {
  const std::string out = TempPath(checkpoint + "_" + WeightsName(weights));
  EXPECT_EQ(tcpu_quantize_checkpoint((kDir + checkpoint).c_str(), weights, out.c_str()), TCPU_OK)
      << tcpu_last_error_detail();
  return out;
}

struct RoundTrip {
  const char* checkpoint;
  int32_t weights;
};

class PrequantizedRoundTripTest : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(PrequantizedRoundTripTest, DecodesAsQuantizingAtLoad) {
  const RoundTrip c = GetParam();
  const std::string source = kDir + std::string(c.checkpoint);
  const std::string prequantized = Quantize(c.checkpoint, c.weights);
  tcpu_decoder* a = nullptr;
  tcpu_decoder* b = nullptr;
  const GreedyRun x = RunGreedy(source, c.weights, kPrompt, kNewTokens, &a);
  const GreedyRun y = RunGreedy(prequantized, c.weights, kPrompt, kNewTokens, &b);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(x.ids.size(), static_cast<size_t>(kNewTokens));
  EXPECT_EQ(x.ids, y.ids);
  EXPECT_EQ(x.logits,
            y.logits);  // bit for bit: the same packed bytes, scales, norms, biases
  tcpu_decoder_info ia, ib;
  ASSERT_EQ(tcpu_decoder_get_info(a, &ia), TCPU_OK);
  ASSERT_EQ(tcpu_decoder_get_info(b, &ib), TCPU_OK);
  EXPECT_EQ(ia.weight_bytes_per_token, ib.weight_bytes_per_token);
  tcpu_decoder_close(a);
  tcpu_decoder_close(b);
}

std::string CaseName(const ::testing::TestParamInfo<RoundTrip>& info) {
  return std::string(info.param.checkpoint) + "_" + WeightsName(info.param.weights);
}

// Llama (bf16), Qwen3 (f16 converted to bf16 norms, tied lm_head stored packed, three shards),
// Qwen2 (q/k/v biases), Llama 3 (o bias, rope scaling), MiniCPM (muP scales).
INSTANTIATE_TEST_SUITE_P(Checkpoints, PrequantizedRoundTripTest,
                         ::testing::Values(RoundTrip{"tiny_llama", TCPU_WEIGHTS_INT8},
                                           RoundTrip{"tiny_llama", TCPU_WEIGHTS_INT4},
                                           RoundTrip{"tiny_qwen3_sharded", TCPU_WEIGHTS_INT8},
                                           RoundTrip{"tiny_qwen3_sharded", TCPU_WEIGHTS_INT4},
                                           RoundTrip{"tiny_qwen2", TCPU_WEIGHTS_INT8},
                                           RoundTrip{"tiny_llama3", TCPU_WEIGHTS_INT4},
                                           RoundTrip{"tiny_minicpm", TCPU_WEIGHTS_INT8}),
                         CaseName);

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A pre-quantized file taken apart: its JSON header and its data section.
struct SafetensorsParts {
  Json header;
  std::string data;
};

SafetensorsParts Split(const std::string& file) {
  uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<uint8_t>(file[i]);
  SafetensorsParts parts{nullptr, file.substr(8 + length)};
  EXPECT_TRUE(tcpu::engine::ParseJson(file.substr(8, length), &parts.header))
      << "the header is not JSON";
  return parts;
}

// Back together, the header padded with spaces so the data section stays 64-byte aligned.
std::string Join(const SafetensorsParts& parts) {
  std::string json = tcpu::engine::DumpJson(parts.header);
  while ((8 + json.size()) % 64 != 0) json.push_back(' ');
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>(json.size() >> (8 * i));
  return file + json + parts.data;
}

constexpr char kQProj[] = "model.layers.0.self_attn.q_proj.weight";

struct Broken {
  const char* name;
  std::function<void(SafetensorsParts&, std::string& config)> edit;
  int status;
  const char* detail;
  int32_t weights = TCPU_WEIGHTS_INT8;
};

// Where tensor `name`'s bytes begin in the data section.
size_t Begin(const SafetensorsParts& p, const std::string& name) {
  return p.header[name]["data_offsets"][0].get<size_t>();
}

class PrequantizedMalformedTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    valid_ = new std::string(Quantize("tiny_qwen2", TCPU_WEIGHTS_INT8));
  }
  static void TearDownTestSuite() { delete valid_; }
  static std::string* valid_;
};
std::string* PrequantizedMalformedTest::valid_ = nullptr;

TEST_F(PrequantizedMalformedTest, EachIsRefusedNamingWhatIsWrong) {
  const std::string file = ReadAll(*valid_ + "/model.safetensors");
  const std::string config = ReadAll(*valid_ + "/config.json");
  ASSERT_FALSE(file.empty());
  auto metadata = [](const char* key, const char* value) {
    return [=](SafetensorsParts& p, std::string&) { p.header["__metadata__"][key] = value; };
  };
  const std::vector<Broken> cases = {
      {"int4_requested", [](SafetensorsParts&, std::string&) {}, TCPU_ERR_INVALID_ARGUMENT,
       "holds int8 weights pre-quantized (__metadata__ 'tcpu.weights') but "
       "int4 was requested",
       TCPU_WEIGHTS_INT4},
      {"format_version", metadata("tcpu.format_version", "2"), TCPU_ERR_INVALID_MODEL,
       "'tcpu.format_version' is '2', expected '1'"},
      {"format_name", metadata("tcpu.format", "gguf"), TCPU_ERR_INVALID_MODEL,
       "'tcpu.format' is 'gguf', expected 'tcpu-prequantized'"},
      {"packing_version", metadata("tcpu.packing_layout_version", "0"), TCPU_ERR_INVALID_MODEL,
       "'tcpu.packing_layout_version' is '0', expected '1'"},
      {"weight_kind", metadata("tcpu.weights", "int3"), TCPU_ERR_INVALID_MODEL,
       "'tcpu.weights' is 'int3', expected 'int8' or 'int4'"},
      {"missing_key",
       [](SafetensorsParts& p, std::string&) {
         p.header["__metadata__"].erase("tcpu.source_config");
       },
       TCPU_ERR_INVALID_MODEL, "__metadata__ has no 'tcpu.source_config'"},
      {"config_edited",
       [](SafetensorsParts&, std::string& c) {
         Json j;
         ASSERT_TRUE(tcpu::engine::ParseJson(c, &j));
         j["rms_norm_eps"] = 0.5;
         c = tcpu::engine::DumpJson(j);
       },
       TCPU_ERR_INVALID_MODEL,
       "config.json differs from __metadata__ 'tcpu.source_config' at "
       "'rms_norm_eps'"},
      {"truncated", [](SafetensorsParts& p, std::string&) { p.data.resize(p.data.size() - 100); },
       TCPU_ERR_INVALID_MODEL, "outside the "},
      {"wrong_shape",
       [](SafetensorsParts& p, std::string&) {
         Json& t = p.header[kQProj];
         const int64_t end = t["data_offsets"][1].get<int64_t>() - 64;
         t["data_offsets"][1] = end;
         t["shape"][0] = end - t["data_offsets"][0].get<int64_t>();
       },
       TCPU_ERR_INVALID_MODEL, "tensor 'model.layers.0.self_attn.q_proj.weight' has shape"},
      {"packed_header", [](SafetensorsParts& p, std::string&) { p.data[Begin(p, kQProj)] ^= 1; },
       TCPU_ERR_INVALID_MODEL,
       "tensor 'model.layers.0.self_attn.q_proj.weight': "
       "tcpu_check_packed_weights: packed_w is "
       "not a tcpu_pack_weights_i8 buffer"},
      {"packed_for_other_k",
       [](SafetensorsParts& p, std::string&) {
         p.data[Begin(p, kQProj) + 24] ^= 1;  // the header's k
       },
       TCPU_ERR_INVALID_MODEL,
       "tensor 'model.layers.0.self_attn.q_proj.weight': "
       "tcpu_check_packed_weights: packed_w "
       "holds n = 64, k = 65 but the call has n = 64, k = 64"},
      {"missing_scales",
       [](SafetensorsParts& p, std::string&) { p.header.erase(std::string(kQProj) + "_scale"); },
       TCPU_ERR_INVALID_MODEL, "tensor 'model.layers.0.self_attn.q_proj.weight_scale' is missing"},
      {"nan_scale",
       [](SafetensorsParts& p, std::string&) {
         const uint32_t nan = 0x7fc00000u;
         std::memcpy(&p.data[Begin(p, std::string(kQProj) + "_scale") + 4 * 3], &nan, 4);
       },
       TCPU_ERR_INVALID_MODEL,
       "tensor 'model.layers.0.self_attn.q_proj.weight_scale': element 3 is "
       "not finite"},
      {"scales_as_bf16",
       [](SafetensorsParts& p, std::string&) {
         Json& t = p.header[std::string(kQProj) + "_scale"];
         t["dtype"] = "BF16";
         t["data_offsets"][1] =
             t["data_offsets"][0].get<int64_t>() + 2 * t["shape"][0].get<int64_t>();
       },
       TCPU_ERR_INVALID_MODEL,
       "tensor 'model.layers.0.self_attn.q_proj.weight_scale' has dtype BF16, "
       "expected F32"},
      {"norm_as_u8",
       [](SafetensorsParts& p, std::string&) {
         Json& t = p.header["model.norm.weight"];
         t["dtype"] = "U8";
         t["data_offsets"][1] = t["data_offsets"][0].get<int64_t>() + t["shape"][0].get<int64_t>();
       },
       TCPU_ERR_INVALID_MODEL,
       "tensor 'model.norm.weight' has dtype U8, expected BF16, F16 or F32"},
  };
  for (const Broken& c : cases) {
    SCOPED_TRACE(c.name);
    SafetensorsParts parts = Split(file);
    std::string edited_config = config;
    c.edit(parts, edited_config);
    const std::string dir = TempPath(std::string("broken_") + c.name);
    ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
    WriteAll(dir + "/model.safetensors", Join(parts));
    WriteAll(dir + "/config.json", edited_config);
    tcpu_decoder_options options{};
    options.weights = c.weights;
    tcpu_decoder* decoder = nullptr;
    EXPECT_EQ(tcpu_decoder_open_with_options(dir.c_str(), 8, &options, &decoder), c.status);
    EXPECT_EQ(decoder, nullptr);
    EXPECT_NE(std::strstr(tcpu_last_error_detail(), c.detail), nullptr)
        << "detail: " << tcpu_last_error_detail() << "\nexpected: " << c.detail;
    tcpu_decoder_close(decoder);
  }
}

// A float checkpoint (no tcpu.* metadata) whose matrices hold packed bytes is refused naming one.
TEST_F(PrequantizedMalformedTest, PackedBytesWithoutTheMetadataAreRefused) {
  SafetensorsParts parts = Split(ReadAll(*valid_ + "/model.safetensors"));
  parts.header.erase("__metadata__");
  const std::string dir = TempPath("packed_without_metadata");
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  WriteAll(dir + "/model.safetensors", Join(parts));
  WriteAll(dir + "/config.json", ReadAll(*valid_ + "/config.json"));
  tcpu_decoder* decoder = nullptr;
  EXPECT_EQ(tcpu_decoder_open(dir.c_str(), 8, &decoder), TCPU_ERR_INVALID_MODEL);
  EXPECT_NE(
      std::strstr(tcpu_last_error_detail(), "tensor 'model.layers.0.self_attn.q_proj.weight'"),
      nullptr)
      << tcpu_last_error_detail();
}

// int4 files of an older packed layout (version 1: fp32 group scales) are refused by name, by
// the recorded layout version and by the packed header itself.
TEST(PrequantizedInt4LayoutTest, AnOlderLayoutIsRefusedByName) {
  const std::string valid = Quantize("tiny_qwen2", TCPU_WEIGHTS_INT4);
  const std::string file = ReadAll(valid + "/model.safetensors");
  ASSERT_FALSE(file.empty());
  struct Case {
    const char* name;
    std::function<void(SafetensorsParts&)> edit;
    const char* detail;
  };
  const std::vector<Case> cases = {
      {"recorded_layout_2",
       [](SafetensorsParts& p) { p.header["__metadata__"]["tcpu.packing_layout_version"] = "2"; },
       "'tcpu.packing_layout_version' is '2', expected '3'"},
      {"packed_header_version_2",
       [](SafetensorsParts& p) { p.data[Begin(p, kQProj) + 8] = 2; },  // the header's version
       "tensor 'model.layers.0.self_attn.q_proj.weight': tcpu_check_q4_packed: packed_w is not a "
       "tcpu_pack_q4 buffer (magic 0x0050345155504354, version 2; expected 0x0050345155504354, "
       "version 3)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    SafetensorsParts parts = Split(file);
    c.edit(parts);
    const std::string dir = TempPath(std::string("int4_") + c.name);
    ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
    WriteAll(dir + "/model.safetensors", Join(parts));
    WriteAll(dir + "/config.json", ReadAll(valid + "/config.json"));
    tcpu_decoder_options options{};
    options.weights = TCPU_WEIGHTS_INT4;
    tcpu_decoder* decoder = nullptr;
    EXPECT_EQ(tcpu_decoder_open_with_options(dir.c_str(), 8, &options, &decoder),
              TCPU_ERR_INVALID_MODEL);
    EXPECT_EQ(decoder, nullptr);
    EXPECT_NE(std::strstr(tcpu_last_error_detail(), c.detail), nullptr)
        << "detail: " << tcpu_last_error_detail() << "\nexpected: " << c.detail;
    tcpu_decoder_close(decoder);
  }
}

TEST(QuantizeCheckpointTest, BadArgumentsAreNamed) {
  EXPECT_EQ(tcpu_quantize_checkpoint(nullptr, TCPU_WEIGHTS_INT8, "x"), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_quantize_checkpoint("tools/checkpoint/tiny_llama", 7, TempPath("w7").c_str()),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(tcpu_last_error_detail(), "weights = 7"), nullptr);
  EXPECT_EQ(tcpu_quantize_checkpoint("tools/checkpoint/tiny_llama/config.json", TCPU_WEIGHTS_INT8,
                                     TempPath("not_dir").c_str()),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(tcpu_last_error_detail(), "is not a checkpoint directory"), nullptr);
  EXPECT_EQ(tcpu_quantize_checkpoint("tools/checkpoint/tiny_llama", TCPU_WEIGHTS_INT8,
                                     "tools/checkpoint/tiny_llama"),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(tcpu_last_error_detail(), "is the model directory itself"), nullptr);
}

}  // namespace
