// The two enumerations of the GGUF format (ggml's docs/gguf.md): the metadata value types
// and the ggml tensor types, with each tensor type's block size and block bytes so that a
// tensor's byte size follows from its dimensions.
#ifndef TCPU_ENGINE_GGUF_GGUF_TYPES_H_
#define TCPU_ENGINE_GGUF_GGUF_TYPES_H_

#include <cstdint>

namespace tcpu::gguf {

// gguf_metadata_value_type, by its on-disk id.
enum class ValueType : uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

// True for the ids 0..12 the format defines.
bool IsValueType(uint32_t id);
// "uint8", "string", "array" ...; "unknown" for an id IsValueType refuses.
const char* ValueTypeName(ValueType type);
// Bytes of one value of a fixed-size type (1, 2, 4 or 8); 0 for string and array.
int FixedValueBytes(ValueType type);

// ggml_type, by its on-disk id. Ids the format removed (4, 5, 31..33, 36..38) are absent.
enum class TensorType : uint32_t {
  kF32 = 0,
  kF16 = 1,
  kQ4_0 = 2,
  kQ4_1 = 3,
  kQ5_0 = 6,
  kQ5_1 = 7,
  kQ8_0 = 8,
  kQ8_1 = 9,
  kQ2_K = 10,
  kQ3_K = 11,
  kQ4_K = 12,
  kQ5_K = 13,
  kQ6_K = 14,
  kQ8_K = 15,
  kIQ2_XXS = 16,
  kIQ2_XS = 17,
  kIQ3_XXS = 18,
  kIQ1_S = 19,
  kIQ4_NL = 20,
  kIQ3_S = 21,
  kIQ2_S = 22,
  kIQ4_XS = 23,
  kI8 = 24,
  kI16 = 25,
  kI32 = 26,
  kI64 = 27,
  kF64 = 28,
  kIQ1_M = 29,
  kBF16 = 30,
  kTQ1_0 = 34,
  kTQ2_0 = 35,
  kMXFP4 = 39,
};

// How a tensor type is stored: rows are cut into blocks of `block_elements` consecutive
// values along the first (fastest) dimension, each stored in `block_bytes` bytes.
struct TensorTypeTraits {
  TensorType type;
  const char* name;  // as ggml spells it: "F32", "Q4_K", "IQ2_XXS" ...
  int64_t block_elements;
  int64_t block_bytes;
};

// The traits of tensor type `id`, or nullptr if the format defines no such type (an unknown
// or a removed id).
const TensorTypeTraits* FindTensorType(uint32_t id);
// "Q4_K" ...; "unknown" for a value that is not one of the enumerators.
const char* TensorTypeName(TensorType type);

}  // namespace tcpu::gguf

#endif  // TCPU_ENGINE_GGUF_GGUF_TYPES_H_
