#include "engine/gguf/gguf_types.h"

namespace tcpu::gguf {
namespace {

// Block sizes and bytes per block from the block layouts ggml defines for each type (a scale
// in fp16 is 2 bytes, QK_K = 256 values per super-block).
constexpr TensorTypeTraits kTensorTypes[] = {
    {TensorType::kF32, "F32", 1, 4},
    {TensorType::kF16, "F16", 1, 2},
    {TensorType::kQ4_0, "Q4_0", 32, 2 + 16},
    {TensorType::kQ4_1, "Q4_1", 32, 2 + 2 + 16},
    {TensorType::kQ5_0, "Q5_0", 32, 2 + 4 + 16},
    {TensorType::kQ5_1, "Q5_1", 32, 2 + 2 + 4 + 16},
    {TensorType::kQ8_0, "Q8_0", 32, 2 + 32},
    {TensorType::kQ8_1, "Q8_1", 32, 2 + 2 + 32},
    {TensorType::kQ2_K, "Q2_K", 256, 16 + 64 + 2 + 2},
    {TensorType::kQ3_K, "Q3_K", 256, 32 + 64 + 12 + 2},
    {TensorType::kQ4_K, "Q4_K", 256, 2 + 2 + 12 + 128},
    {TensorType::kQ5_K, "Q5_K", 256, 2 + 2 + 12 + 32 + 128},
    {TensorType::kQ6_K, "Q6_K", 256, 128 + 64 + 16 + 2},
    {TensorType::kQ8_K, "Q8_K", 256, 4 + 256 + 32},
    {TensorType::kIQ2_XXS, "IQ2_XXS", 256, 2 + 64},
    {TensorType::kIQ2_XS, "IQ2_XS", 256, 2 + 64 + 8},
    {TensorType::kIQ3_XXS, "IQ3_XXS", 256, 2 + 96},
    {TensorType::kIQ1_S, "IQ1_S", 256, 2 + 32 + 16},
    {TensorType::kIQ4_NL, "IQ4_NL", 32, 2 + 16},
    {TensorType::kIQ3_S, "IQ3_S", 256, 2 + 64 + 8 + 32 + 4},
    {TensorType::kIQ2_S, "IQ2_S", 256, 2 + 64 + 8 + 8},
    {TensorType::kIQ4_XS, "IQ4_XS", 256, 2 + 2 + 4 + 128},
    {TensorType::kI8, "I8", 1, 1},
    {TensorType::kI16, "I16", 1, 2},
    {TensorType::kI32, "I32", 1, 4},
    {TensorType::kI64, "I64", 1, 8},
    {TensorType::kF64, "F64", 1, 8},
    {TensorType::kIQ1_M, "IQ1_M", 256, 32 + 16 + 8},
    {TensorType::kBF16, "BF16", 1, 2},
    {TensorType::kTQ1_0, "TQ1_0", 256, 48 + 4 + 2},
    {TensorType::kTQ2_0, "TQ2_0", 256, 64 + 2},
    {TensorType::kMXFP4, "MXFP4", 32, 1 + 16},
};

}  // namespace

bool IsValueType(uint32_t id) { return id <= static_cast<uint32_t>(ValueType::kFloat64); }

const char* ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kUint8:
      return "uint8";
    case ValueType::kInt8:
      return "int8";
    case ValueType::kUint16:
      return "uint16";
    case ValueType::kInt16:
      return "int16";
    case ValueType::kUint32:
      return "uint32";
    case ValueType::kInt32:
      return "int32";
    case ValueType::kFloat32:
      return "float32";
    case ValueType::kBool:
      return "bool";
    case ValueType::kString:
      return "string";
    case ValueType::kArray:
      return "array";
    case ValueType::kUint64:
      return "uint64";
    case ValueType::kInt64:
      return "int64";
    case ValueType::kFloat64:
      return "float64";
  }
  return "unknown";
}

int FixedValueBytes(ValueType type) {
  switch (type) {
    case ValueType::kUint8:
    case ValueType::kInt8:
    case ValueType::kBool:
      return 1;
    case ValueType::kUint16:
    case ValueType::kInt16:
      return 2;
    case ValueType::kUint32:
    case ValueType::kInt32:
    case ValueType::kFloat32:
      return 4;
    case ValueType::kUint64:
    case ValueType::kInt64:
    case ValueType::kFloat64:
      return 8;
    case ValueType::kString:
    case ValueType::kArray:
      return 0;
  }
  return 0;
}

const TensorTypeTraits* FindTensorType(uint32_t id) {
  for (const TensorTypeTraits& traits : kTensorTypes) {
    if (static_cast<uint32_t>(traits.type) == id) return &traits;
  }
  return nullptr;
}

const char* TensorTypeName(TensorType type) {
  const TensorTypeTraits* traits = FindTensorType(static_cast<uint32_t>(type));
  return traits != nullptr ? traits->name : "unknown";
}

}  // namespace tcpu::gguf
