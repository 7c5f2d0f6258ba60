// libFuzzer target: any bytes as a safetensors file (and as config.json text). A parse that
// succeeds must describe tensors that lie wholly inside the input, which reading every element
// checks (under ASan, a read outside the input buffer is a crash); its metadata goes through the
// pre-quantized checks, with the input as the config.json to compare.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/model_config.h"
#include "engine/model/prequantized_format.h"
#include "engine/model/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A private copy sized exactly to the input, so ASan sees any read past its end.
  std::vector<uint8_t> bytes(data, data + size);
  tcpu::model::SafetensorsFile file;
  std::string error;
  if (tcpu::model::ParseSafetensors(bytes.data(), static_cast<int64_t>(bytes.size()), "fuzz",
                                    &file, &error)) {
    volatile float sink = 0;
    for (const auto& [name, tensor] : file.tensors) {
      for (int64_t i = 0; i < tensor.elements; ++i) {
        sink = sink + tcpu::model::ReadElementAsFloat(tensor, i);
      }
    }
    bool prequantized = false;
    tcpu::model::PrequantizedInfo info;
    const std::string config(reinterpret_cast<const char*>(data), size);
    if (!tcpu::model::ReadPrequantizedMetadata(file.metadata, "fuzz", config, &prequantized, &info,
                                               &error) &&
        error.empty()) {
      __builtin_trap();
    }
  } else if (error.empty()) {
    __builtin_trap();  // every refusal must say why
  }
  tcpu::model::ModelConfig config;
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (!tcpu::model::ParseModelConfig(text, "fuzz", &config, &error) && error.empty()) {
    __builtin_trap();
  }
  return 0;
}
