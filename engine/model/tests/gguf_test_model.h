// Test data: a GGUF model held in memory (metadata and tensors in file order) that a test edits
// and writes, for the loader's malformed-file cases (gguf_loader_test, gguf_kquant_test).
#ifndef TCPU_ENGINE_MODEL_TESTS_GGUF_TEST_MODEL_H_
#define TCPU_ENGINE_MODEL_TESTS_GGUF_TEST_MODEL_H_

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "engine/gguf/gguf_writer.h"
#include "gtest/gtest.h"

namespace tcpu::testing {

struct GgufTestModel {
  std::vector<std::pair<std::string, gguf::MetadataValue>> metadata;
  std::vector<gguf::TensorToWrite> tensors;

  gguf::MetadataValue* Key(const std::string& key) {
    for (auto& [k, v] : metadata) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  void Erase(const std::string& key) {
    for (size_t i = 0; i < metadata.size(); ++i) {
      if (metadata[i].first == key) metadata.erase(metadata.begin() + i);
    }
  }
  gguf::TensorToWrite* Tensor(const std::string& name) {
    for (gguf::TensorToWrite& t : tensors) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }
  void EraseTensor(const std::string& name) {
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (tensors[i].name == name) tensors.erase(tensors.begin() + i);
    }
  }

  // The keys of a one-layer Llama: architecture, context 64, sizes, rms epsilon 1e-5.
  void AddLlamaKeys(uint32_t hidden, uint32_t ffn, uint32_t heads, uint32_t kv_heads) {
    auto u32 = [&](const std::string& key, uint32_t v) {
      metadata.emplace_back(key, gguf::MetadataValue::Uint32(v));
    };
    metadata.emplace_back("general.architecture", gguf::MetadataValue::String("llama"));
    u32("llama.context_length", 64);
    u32("llama.embedding_length", hidden);
    u32("llama.block_count", 1);
    u32("llama.feed_forward_length", ffn);
    u32("llama.attention.head_count", heads);
    u32("llama.attention.head_count_kv", kv_heads);
    metadata.emplace_back("llama.attention.layer_norm_rms_epsilon",
                          gguf::MetadataValue::Float32(1e-5f));
  }

  // Writes the model to TEST_TMPDIR/<name>.gguf and returns the path.
  std::string Write(const std::string& name) const {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name + ".gguf";
    gguf::GgufWriter writer;
    for (const auto& [key, value] : metadata) writer.AddMetadata(key, value);
    for (const gguf::TensorToWrite& t : tensors) writer.AddTensor(t);
    std::string error;
    EXPECT_TRUE(writer.WriteFile(path, &error)) << error;
    return path;
  }
};

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_MODEL_TESTS_GGUF_TEST_MODEL_H_
