// libFuzzer target: any bytes as a GGUF file. A refusal must say why; an accepted file must
// describe only bytes inside the input, which touching every tensor byte and every metadata
// value checks (under ASan, a read outside the input's exact-size copy is a crash).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"

namespace {

uint64_t Touch(const tcpu::gguf::Value& value) {
  uint64_t sum = value.bits;
  for (char c : value.string) sum += static_cast<uint8_t>(c);
  if (value.fixed_elements != nullptr) {
    const uint64_t bytes = value.count * tcpu::gguf::FixedValueBytes(value.element_type);
    for (uint64_t i = 0; i < bytes; ++i) sum += value.fixed_elements[i];
  }
  for (const tcpu::gguf::Value& element : value.elements) sum += Touch(element);
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  tcpu::gguf::GgufFile file;
  std::string error;
  if (!tcpu::gguf::ParseGguf(bytes.data(), bytes.size(), "fuzz", &file, &error)) {
    if (error.empty()) __builtin_trap();  // every refusal must say why
    return 0;
  }
  volatile uint64_t sink = 0;
  for (const tcpu::gguf::MetadataEntry& entry : file.metadata()) {
    sink = sink + Touch(entry.value);
    // The typed accessors on every key must answer without crashing.
    std::vector<std::string_view> strings;
    std::vector<float> floats;
    std::vector<int32_t> ints;
    uint64_t u64;
    double f64;
    file.GetStringArray(entry.key, &strings, &error);
    file.GetFloatArray(entry.key, &floats, &error);
    file.GetInt32Array(entry.key, &ints, &error);
    file.GetUint64(entry.key, &u64, &error);
    file.GetFloat64(entry.key, &f64, &error);
  }
  for (const tcpu::gguf::TensorInfo& tensor : file.tensors()) {
    if (tensor.data < bytes.data() && tensor.bytes > 0) __builtin_trap();
    for (int64_t i = 0; i < tensor.bytes; ++i) sink = sink + tensor.data[i];
  }
  return 0;
}
