// The loader against a corpus of malformed checkpoints, each written here from a valid tiny
// one with one thing broken: every case is refused with its own clear error (status and
// detail), and nothing crashes or reads out of bounds (this binary also runs under ASan and
// UBSan: //engine/model/tests:loader_sanitized_test).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"
#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"

namespace {

using Json = nlohmann::json;

struct Tensor {
  std::string dtype = "BF16";
  std::vector<int64_t> shape;
  std::string bytes;
};

// A checkpoint in memory: config.json, tensors, and knobs to break the safetensors file.
struct Checkpoint {
  Json config;
  std::map<std::string, Tensor> tensors;
  std::function<void(Json& header)> edit_header;  // after offsets are assigned
  std::function<void(std::string& file)> edit_file;
};

Checkpoint ValidCheckpoint() {
  Checkpoint c;
  c.config = {{"architectures", {"LlamaForCausalLM"}},
              {"hidden_size", 8},
              {"intermediate_size", 16},
              {"num_hidden_layers", 1},
              {"num_attention_heads", 2},
              {"num_key_value_heads", 1},
              {"head_dim", 4},
              {"vocab_size", 32},
              {"max_position_embeddings", 64},
              {"rms_norm_eps", 1e-6},
              {"rope_theta", 10000.0},
              {"tie_word_embeddings", false}};
  uint32_t state = 12345;
  auto add = [&](const std::string& name, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    Tensor t;
    t.shape = shape;
    for (int64_t i = 0; i < n; ++i) {
      state = state * 1664525u + 1013904223u;
      // bf16 in [-0.5, 0.5): sign, exponent 0x3e-ish, random mantissa.
      const uint16_t bits = static_cast<uint16_t>(((state >> 31) << 15) | (0x3e << 7) |
                                                  ((state >> 8) & 0x7f));
      t.bytes.push_back(static_cast<char>(bits & 0xff));
      t.bytes.push_back(static_cast<char>(bits >> 8));
    }
    c.tensors[name] = t;
  };
  add("model.embed_tokens.weight", {32, 8});
  add("model.layers.0.input_layernorm.weight", {8});
  add("model.layers.0.self_attn.q_proj.weight", {8, 8});
  add("model.layers.0.self_attn.k_proj.weight", {4, 8});
  add("model.layers.0.self_attn.v_proj.weight", {4, 8});
  add("model.layers.0.self_attn.o_proj.weight", {8, 8});
  add("model.layers.0.post_attention_layernorm.weight", {8});
  add("model.layers.0.mlp.gate_proj.weight", {16, 8});
  add("model.layers.0.mlp.up_proj.weight", {16, 8});
  add("model.layers.0.mlp.down_proj.weight", {8, 16});
  add("model.norm.weight", {8});
  add("lm_head.weight", {32, 8});
  return c;
}

std::string SafetensorsBytes(const Checkpoint& c) {
  Json header = Json::object();
  std::string data;
  for (const auto& [name, t] : c.tensors) {
    header[name] = {{"dtype", t.dtype},
                    {"shape", t.shape},
                    {"data_offsets", {data.size(), data.size() + t.bytes.size()}}};
    data += t.bytes;
  }
  if (c.edit_header) c.edit_header(header);
  const std::string text = tcpu::engine::DumpJson(header);
  std::string file(8, '\0');
  const uint64_t n = text.size();
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  file += text + data;
  if (c.edit_file) c.edit_file(file);
  return file;
}

std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

// Writes `c` to a fresh directory named after the case.
std::string Write(const std::string& name, const Checkpoint& c) {
  const std::string dir = TempDir() + "/" + name;
  mkdir(dir.c_str(), 0755);
  WriteFile(dir + "/config.json", tcpu::engine::DumpJson(c.config, 2));
  WriteFile(dir + "/model.safetensors", SafetensorsBytes(c));
  return dir;
}

// Opens `dir`; expects `status` and a detail containing `detail`.
void ExpectRefused(const std::string& dir, int status, const std::string& detail) {
  tcpu_decoder* decoder = nullptr;
  const int got = tcpu_decoder_open(dir.c_str(), 16, &decoder);
  EXPECT_EQ(got, status) << tcpu_status_string(got) << ": " << tcpu_last_error_detail();
  EXPECT_NE(std::string(tcpu_last_error_detail()).find(detail), std::string::npos)
      << "detail: " << tcpu_last_error_detail() << "\nexpected to contain: " << detail;
  EXPECT_EQ(decoder, nullptr);
  tcpu_decoder_close(decoder);
}

TEST(LoaderTest, TheValidTinyCheckpointLoadsAndDecodes) {
  const std::string dir = Write("valid", ValidCheckpoint());
  tcpu_decoder* decoder = nullptr;
  ASSERT_EQ(tcpu_decoder_open(dir.c_str(), 16, &decoder), TCPU_OK) << tcpu_last_error_detail();
  int32_t next = -1;
  EXPECT_EQ(tcpu_decoder_step(decoder, 3, nullptr, &next), TCPU_OK);
  EXPECT_GE(next, 0);
  EXPECT_LT(next, 32);
  tcpu_decoder_close(decoder);
}

TEST(LoaderTest, FileLevelDamage) {
  Checkpoint c = ValidCheckpoint();
  c.edit_file = [](std::string& f) { f.resize(f.size() - 7); };
  ExpectRefused(Write("truncated", c), TCPU_ERR_INVALID_MODEL, "outside the");

  c = ValidCheckpoint();
  c.edit_file = [](std::string& f) { f.resize(5); };
  ExpectRefused(Write("tiny_file", c), TCPU_ERR_INVALID_MODEL, "too short");

  c = ValidCheckpoint();
  c.edit_file = [](std::string& f) { f[0] = '\xff'; f[1] = '\xff'; f[2] = '\x7f'; };
  ExpectRefused(Write("header_past_end", c), TCPU_ERR_INVALID_MODEL, "runs past the end");

  c = ValidCheckpoint();
  c.edit_file = [](std::string& f) { f[7] = '\x40'; };
  ExpectRefused(Write("huge_header", c), TCPU_ERR_INVALID_MODEL, "exceeds the 100 MB limit");

  c = ValidCheckpoint();
  c.edit_file = [](std::string& f) { f[8] = '['; };  // '[' "key": ... is not JSON
  ExpectRefused(Write("bad_json", c), TCPU_ERR_INVALID_MODEL, "not well-formed JSON");

  c = ValidCheckpoint();
  c.edit_header = [](Json& h) { h = Json::array({1, 2}); };
  ExpectRefused(Write("header_not_object", c), TCPU_ERR_INVALID_MODEL, "not a JSON object");
}

TEST(LoaderTest, TensorEntryDamage) {
  const std::string q = "model.layers.0.self_attn.q_proj.weight";
  const std::string k = "model.layers.0.self_attn.k_proj.weight";
  struct Case {
    const char* name;
    std::function<void(Json&)> edit;
    const char* detail;
  };
  const Case cases[] = {
      {"overlap", [&](Json& h) { h[k]["data_offsets"] = h[q]["data_offsets"]; }, "overlap"},
      {"out_of_range",
       [&](Json& h) { h[q]["data_offsets"] = {1u << 30, (1u << 30) + 128}; },
       "outside the"},
      {"reversed", [&](Json& h) { h[q]["data_offsets"] = {200, 100}; }, "end before they begin"},
      {"negative_offset", [&](Json& h) { h[q]["data_offsets"] = {-2, 126}; },
       "not non-negative integers"},
      {"length_mismatch", [&](Json& h) { h[q]["shape"] = {8, 9}; }, "need 144"},
      {"unknown_dtype", [&](Json& h) { h[q]["dtype"] = "Q7"; }, "unknown dtype 'Q7'"},
      {"unsupported_dtype", [&](Json& h) { h[q]["dtype"] = "I64"; }, "unsupported dtype 'I64'"},
      {"no_dtype", [&](Json& h) { h[q].erase("dtype"); }, "no string 'dtype'"},
      {"bad_shape", [&](Json& h) { h[q]["shape"] = {8, "8"}; }, "not a non-negative integer"},
      {"overflowing_shape",
       [&](Json& h) { h[q]["shape"] = {uint64_t{1} << 40, uint64_t{1} << 40}; }, "overflows"},
      {"not_an_object", [&](Json& h) { h[q] = 3; }, "is not an object"},
      {"bad_metadata", [&](Json& h) { h["__metadata__"] = "x"; }, "__metadata__"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Checkpoint ckpt = ValidCheckpoint();
    ckpt.edit_header = c.edit;
    ExpectRefused(Write(c.name, ckpt), TCPU_ERR_INVALID_MODEL, c.detail);
  }
}

TEST(LoaderTest, ModelLevelDamage) {
  Checkpoint c = ValidCheckpoint();
  c.tensors.erase("model.layers.0.mlp.up_proj.weight");
  ExpectRefused(Write("missing_tensor", c), TCPU_ERR_INVALID_MODEL,
                "tensor 'model.layers.0.mlp.up_proj.weight' is missing");

  c = ValidCheckpoint();
  c.tensors["model.layers.0.self_attn.q_proj.weight"].shape = {4, 16};
  ExpectRefused(Write("wrong_shape", c), TCPU_ERR_INVALID_MODEL,
                "has shape [4, 16], config.json implies [8, 8]");

  c = ValidCheckpoint();
  c.config["intermediate_size"] = 24;  // the weights say 16
  ExpectRefused(Write("config_mismatch", c), TCPU_ERR_INVALID_MODEL,
                "'model.layers.0.mlp.gate_proj.weight' has shape [16, 8], config.json implies "
                "[24, 8]");

  c = ValidCheckpoint();
  Tensor& w = c.tensors["model.layers.0.mlp.down_proj.weight"];
  w.bytes[6] = '\xc0';  // element 3 = 0x7fc0: NaN
  w.bytes[7] = '\x7f';
  ExpectRefused(Write("nan_weight", c), TCPU_ERR_INVALID_MODEL,
                "tensor 'model.layers.0.mlp.down_proj.weight'");

  c = ValidCheckpoint();
  c.tensors["model.norm.weight"].dtype = "F32";  // 16 bytes for 8 F32 values: length mismatch
  ExpectRefused(Write("dtype_length", c), TCPU_ERR_INVALID_MODEL, "need 32");
}

TEST(LoaderTest, ConfigDamage) {
  struct Case {
    const char* name;
    std::function<void(Json&)> edit;
    const char* detail;
  };
  const Case cases[] = {
      {"cfg_missing_field", [](Json& j) { j.erase("hidden_size"); },
       "required field 'hidden_size'"},
      {"cfg_bad_type", [](Json& j) { j["num_hidden_layers"] = "1"; },
       "'num_hidden_layers' must be a positive integer"},
      {"cfg_zero", [](Json& j) { j["vocab_size"] = 0; }, "'vocab_size' must be a positive"},
      {"cfg_arch", [](Json& j) { j["architectures"] = {"GPT2LMHeadModel"}; },
       "'architectures': 'GPT2LMHeadModel' is not supported"},
      {"cfg_rope_scaling", [](Json& j) { j["rope_scaling"] = {{"type", "yarn"}}; },
       "'rope_scaling' of type 'yarn' is not supported"},
      {"cfg_rope_linear_no_factor", [](Json& j) { j["rope_scaling"] = {{"type", "linear"}}; },
       "required field 'factor' is missing"},
      {"cfg_rope_not_object", [](Json& j) { j["rope_scaling"] = 3; },
       "'rope_scaling' must be an object"},
      {"cfg_llama3_bands",
       [](Json& j) {
         j["rope_scaling"] = {{"rope_type", "llama3"}, {"factor", 8}, {"low_freq_factor", 4},
                              {"high_freq_factor", 1}, {"original_max_position_embeddings", 64}};
       },
       "high_freq_factor must exceed low_freq_factor"},
      {"cfg_llama3_no_context",
       [](Json& j) {
         j["rope_scaling"] = {{"rope_type", "llama3"}, {"factor", 8}, {"low_freq_factor", 1},
                              {"high_freq_factor", 4}};
       },
       "required field 'original_max_position_embeddings' is missing"},
      {"cfg_longrope_length",
       [](Json& j) {
         j["rope_scaling"] = {{"rope_type", "longrope"},
                              {"long_factor", {1.0, 2.0, 3.0}},
                              {"short_factor", {1.0, 1.0}},
                              {"original_max_position_embeddings", 16}};
       },
       "'long_factor' must be a list of 2 numbers"},
      {"cfg_longrope_value",
       [](Json& j) {
         j["rope_scaling"] = {{"rope_type", "longrope"},
                              {"long_factor", {1.0, -2.0}},
                              {"short_factor", {1.0, 1.0}},
                              {"original_max_position_embeddings", 16}};
       },
       "'long_factor'[1] must be a positive finite number"},
      {"cfg_gqa", [](Json& j) { j["num_key_value_heads"] = 3; }, "'num_key_value_heads' = 3"},
      {"cfg_act", [](Json& j) { j["hidden_act"] = "gelu"; }, "'hidden_act'"},
      {"cfg_bias_type", [](Json& j) { j["attention_bias"] = "yes"; },
       "'attention_bias' must be true or false"},
      {"cfg_bias_tensors", [](Json& j) { j["attention_bias"] = true; },
       "tensor 'model.layers.0.self_attn.q_proj.bias' is missing"},
      {"cfg_qwen2_bias_tensors", [](Json& j) { j["architectures"] = {"Qwen2ForCausalLM"}; },
       "tensor 'model.layers.0.self_attn.q_proj.bias' is missing"},
      {"cfg_mlp_bias", [](Json& j) { j["mlp_bias"] = true; }, "'mlp_bias' = true"},
      {"cfg_sliding", [](Json& j) { j["use_sliding_window"] = true; }, "'use_sliding_window'"},
      {"cfg_mup", [](Json& j) { j["scale_emb"] = 12; },
       "'scale_emb' (MiniCPM muP scaling) is set but architectures names LlamaForCausalLM"},
      {"cfg_minicpm_no_mup",
       [](Json& j) {
         j["architectures"] = {"MiniCPMForCausalLM"};
         j["use_mup"] = false;
       },
       "'use_mup' = false is not supported"},
      {"cfg_minicpm_scale",
       [](Json& j) {
         j["architectures"] = {"MiniCPMForCausalLM"};
         j["scale_depth"] = -1.4;
       },
       "'scale_depth' must be a positive finite number"},
      // Sizes: each absurd value refused before anything is allocated.
      {"cfg_huge_layers", [](Json& j) { j["num_hidden_layers"] = 1000000000; },
       "'num_hidden_layers' = 1000000000 exceeds the supported maximum 1024"},
      {"cfg_huge_hidden", [](Json& j) { j["hidden_size"] = int64_t{1} << 40; },
       "'hidden_size' = 1099511627776 exceeds the supported maximum"},
      {"cfg_huge_vocab", [](Json& j) { j["vocab_size"] = int64_t{1} << 31; },
       "'vocab_size' = 2147483648 exceeds the supported maximum"},
      {"cfg_huge_positions", [](Json& j) { j["max_position_embeddings"] = int64_t{1} << 62; },
       "'max_position_embeddings' = 4611686018427387904 exceeds"},
      {"cfg_u64", [](Json& j) { j["intermediate_size"] = UINT64_MAX; },
       "'intermediate_size' must be a positive integer"},
      {"cfg_huge_head_dim", [](Json& j) { j["head_dim"] = 4096; },
       "'head_dim' = 4096 exceeds the supported maximum 2048"},
      {"cfg_huge_heads", [](Json& j) { j["num_attention_heads"] = 1 << 20; },
       "'num_attention_heads' = 1048576 exceeds"},
      {"cfg_parameters",
       [](Json& j) {
         j["hidden_size"] = 65536;
         j["intermediate_size"] = 1 << 20;
         j["num_hidden_layers"] = 1024;
       },
       "weights, more than the supported 4398046511104"},
      {"cfg_heads_split", [](Json& j) {
         j.erase("head_dim");
         j["num_attention_heads"] = 3;
         j["num_key_value_heads"] = 1;
       },
       "hidden_size 8 is not a multiple of num_attention_heads 3"},
      {"cfg_theta", [](Json& j) { j["rope_theta"] = 1e300; }, "'rope_theta' = "},
      {"cfg_theta_nan", [](Json& j) { j["rope_theta"] = "nan"; },
       "'rope_theta' must be a positive finite number"},
      {"cfg_eps_big", [](Json& j) { j["rms_norm_eps"] = 5; }, "'rms_norm_eps' = "},
      {"cfg_arch_type", [](Json& j) { j["architectures"] = {7}; },
       "'architectures' must be a non-empty list of strings"},
      {"cfg_tie_type", [](Json& j) { j["tie_word_embeddings"] = 1; },
       "'tie_word_embeddings' must be true or false"},
      {"cfg_eps", [](Json& j) { j["rms_norm_eps"] = -1; }, "'rms_norm_eps'"},
      {"cfg_odd_head", [](Json& j) { j["head_dim"] = 5; }, "'head_dim' = 5"},
      {"cfg_not_object", [](Json& j) { j = Json::array(); }, "not a JSON object"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Checkpoint ckpt = ValidCheckpoint();
    c.edit(ckpt.config);
    ExpectRefused(Write(c.name, ckpt), TCPU_ERR_INVALID_MODEL, c.detail);
  }
  const std::string dir = TempDir() + "/cfg_text";
  mkdir(dir.c_str(), 0755);
  WriteFile(dir + "/config.json", "{\"hidden_size\": 8,");
  ExpectRefused(dir, TCPU_ERR_INVALID_MODEL, "config.json: not well-formed JSON");
}

TEST(LoaderTest, ShardedIndexDamage) {
  const Checkpoint valid = ValidCheckpoint();
  auto write_sharded = [&](const std::string& name, const Json& index) {
    const std::string dir = TempDir() + "/" + name;
    mkdir(dir.c_str(), 0755);
    WriteFile(dir + "/config.json", tcpu::engine::DumpJson(valid.config));
    WriteFile(dir + "/model-00001-of-00001.safetensors", SafetensorsBytes(valid));
    WriteFile(dir + "/model.safetensors.index.json", tcpu::engine::DumpJson(index));
    return dir;
  };
  Json map = Json::object();
  for (const auto& [name, t] : valid.tensors) map[name] = "model-00001-of-00001.safetensors";
  Json index = {{"weight_map", map}};
  tcpu_decoder* decoder = nullptr;
  ASSERT_EQ(tcpu_decoder_open(write_sharded("shard_ok", index).c_str(), 8, &decoder), TCPU_OK)
      << tcpu_last_error_detail();
  tcpu_decoder_close(decoder);

  Json bad = index;
  bad["weight_map"]["model.norm.weight"] = "../outside.safetensors";
  ExpectRefused(write_sharded("shard_escape", bad), TCPU_ERR_INVALID_MODEL,
                "must name a file in the checkpoint directory");
  bad = index;
  bad["weight_map"]["model.norm.weight"] = "model-00002-of-00002.safetensors";
  ExpectRefused(write_sharded("shard_missing_file", bad), TCPU_ERR_IO,
                "model-00002-of-00002.safetensors: cannot open");
  bad = index;
  bad["weight_map"]["model.extra.weight"] = "model-00001-of-00001.safetensors";
  ExpectRefused(write_sharded("shard_missing_tensor", bad), TCPU_ERR_INVALID_MODEL,
                "'model.extra.weight' listed by model.safetensors.index.json is not in the file");
  ExpectRefused(write_sharded("shard_no_map", Json::object()), TCPU_ERR_INVALID_MODEL,
                "'weight_map' must be a non-empty object");
}

TEST(LoaderTest, MissingFiles) {
  ExpectRefused(TempDir() + "/does_not_exist", TCPU_ERR_IO, "does_not_exist/config.json");
  const std::string dir = TempDir() + "/no_weights";
  mkdir(dir.c_str(), 0755);
  WriteFile(dir + "/config.json", tcpu::engine::DumpJson(ValidCheckpoint().config));
  ExpectRefused(dir, TCPU_ERR_IO,
                "neither model.safetensors nor model.safetensors.index.json exists");
}

}  // namespace
