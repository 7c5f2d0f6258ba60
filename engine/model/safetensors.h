// A strict parser of the safetensors format (Hugging Face): an 8-byte little-endian header
// length, a JSON header {name: {dtype, shape, data_offsets}, "__metadata__": {...}}, then the
// data section the offsets index. Everything is checked before any tensor byte is touched:
// the header lies inside the file, the JSON is well formed, every tensor's offsets lie inside
// the data section, do not overlap another tensor's and span exactly shape x dtype bytes.
#ifndef TCPU_ENGINE_MODEL_SAFETENSORS_H_
#define TCPU_ENGINE_MODEL_SAFETENSORS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tcpu::model {

// U8 holds packed bytes (a pre-quantized checkpoint's matrices), never numbers to convert.
// Q4_0 is a GGUF tensor's blocks as the file stores them (never in a safetensors file): each
// row a run of 18-byte blocks of 32 values, an fp16 d then 16 bytes of nibbles v, value
// (v - 8) x d (low nibble of byte i: value i; high nibble: value 16 + i). Q8_0 likewise: 34-byte
// blocks of an fp16 d then 32 int8 q, value q x d.
enum class DType { kBF16, kF16, kF32, kU8, kQ4_0, kQ8_0 };

const char* DTypeName(DType dtype);
int64_t DTypeBytes(DType dtype);  // per element; 0 for Q4_0 and Q8_0 (18, 34 bytes per 32)
bool IsFloatDType(DType dtype);   // BF16, F16 or F32

struct TensorView {
  DType dtype = DType::kBF16;
  std::vector<int64_t> shape;
  const uint8_t* data = nullptr;  // inside the parsed buffer; may be unaligned
  int64_t bytes = 0;
  int64_t elements = 0;
};

struct SafetensorsFile {
  std::map<std::string, TensorView> tensors;
  // The string entries of `__metadata__` (the format's values are strings; others are skipped).
  std::map<std::string, std::string> metadata;
};

// Parses `size` bytes at `data` (the file, usually memory-mapped). `name` labels errors.
// Returns true, or false with *error naming the file, the tensor and what is wrong. A dtype
// other than BF16, F16, F32 and U8 (packed bytes) is an error naming it ("unsupported" for the
// other safetensors dtypes, "unknown" for anything else).
bool ParseSafetensors(const uint8_t* data, int64_t size, const std::string& name,
                      SafetensorsFile* file, std::string* error);

// An IEEE binary16 value as fp32 (exact: every fp16 value, subnormals included, is an fp32).
float HalfToFloat(uint16_t h);

// Element i of a tensor as fp32 (unaligned-safe; a U8 element is its byte's value, a Q4_0
// element (v - 8) x d and a Q8_0 element q x d exactly).
float ReadElementAsFloat(const TensorView& tensor, int64_t i);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_SAFETENSORS_H_
