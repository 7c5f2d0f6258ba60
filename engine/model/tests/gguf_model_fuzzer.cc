// libFuzzer target: any bytes as a GGUF file, read as tcpu_decoder_open and
// tcpu_tokenizer_open read one: the model config from the metadata, every tensor the loader
// takes as a TensorView (each element read: a view outside the input is an ASan report;
// Llama's q/k rows reordered), and the tokenizer built from the metadata and run on a text.
// Every refusal must say why.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/model/gguf_model_config.h"
#include "engine/model/gguf_tensor.h"
#include "engine/model/gguf_tensor_names.h"
#include "engine/tokenizer/gguf_tokenizer.h"
#include "engine/tokenizer/tokenizer.h"

namespace {

void ReadModel(const tcpu::gguf::GgufFile& file) {
  tcpu::model::ModelConfig config;
  std::string error;
  if (!tcpu::model::ModelConfigFromGguf(file, "fuzz", &config, &error)) {
    if (error.empty()) __builtin_trap();
    return;
  }
  std::vector<std::unique_ptr<uint8_t[]>> storage;
  volatile float sink = 0;
  for (const tcpu::gguf::TensorInfo& info : file.tensors()) {
    const std::string name = tcpu::model::HfNameOfGgufTensor(info.name);
    if (name.empty()) continue;
    tcpu::model::TensorView view;
    if (!tcpu::model::GgufTensorView(info, "fuzz", &storage, &view, &error)) {
      if (error.empty()) __builtin_trap();
      continue;
    }
    const bool q = name.find("q_proj") != std::string::npos;
    const int64_t heads = q ? config.num_attention_heads : config.num_key_value_heads;
    if (tcpu::model::GgufPermutesQkRows(config.architecture) &&
        name.find("_proj") != std::string::npos &&
        (q || name.find("k_proj") != std::string::npos) &&
        view.shape[0] == heads * config.head_dim) {
      tcpu::model::UndoRopePermutation(heads, config.head_dim, &view, &storage);
    }
    for (int64_t i = 0; i < view.elements; ++i) {
      sink = sink + tcpu::model::ReadElementAsFloat(view, i);
    }
  }
}

void ReadTokenizer(const tcpu::gguf::GgufFile& file) {
  tcpu::tokenizer::Json tokenizer_json, config_json;
  std::string error;
  if (!tcpu::tokenizer::TokenizerJsonFromGguf(file, "fuzz", &tokenizer_json, &config_json,
                                              &error)) {
    if (error.empty()) __builtin_trap();
    return;
  }
  tcpu::tokenizer::Tokenizer tokenizer;
  if (!tokenizer.LoadParsed(tokenizer_json, &config_json, &error)) {
    if (error.empty()) __builtin_trap();
    return;
  }
  std::vector<int32_t> ids;
  std::string text;
  if (!tokenizer.Encode("Hello, world! 12345 \xe4\xbd\xa0\xe5\xa5\xbd", true, &ids, &error) ||
      !tokenizer.Decode(ids, false, &text, &error)) {
    __builtin_trap();  // a loaded tokenizer encodes any UTF-8 and decodes its own ids
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A private copy sized exactly to the input, so ASan sees any read past its end.
  std::vector<uint8_t> bytes(data, data + size);
  tcpu::gguf::GgufFile file;
  std::string error;
  if (!tcpu::gguf::ParseGguf(bytes.data(), bytes.size(), "fuzz", &file, &error)) {
    if (error.empty()) __builtin_trap();
    return 0;
  }
  ReadModel(file);
  ReadTokenizer(file);
  return 0;
}
