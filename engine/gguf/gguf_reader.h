// A strict reader of GGUF version 3 files (ggml's docs/gguf.md): the header, every metadata
// key/value, the tensor infos and the aligned data section, over bytes the caller holds (a
// memory-mapped file or a buffer). Every count, length and offset is checked against the
// bytes that remain before it is used, so no input makes the reader allocate more than a
// small multiple of its size, read outside it, or overflow. Nothing is copied: strings and
// tensor data point into the caller's bytes, which must outlive the GgufFile.
//
// What is refused (each error names the file, the key or tensor, the value and its offset):
// a magic other than "GGUF"; a version other than 3 (big-endian files included); counts and
// lengths that run past the end; keys that are empty, longer than 65535 bytes or not
// printable ASCII; duplicate keys; value type ids outside 0..12; bools other than 0 or 1;
// arrays nested deeper than kMaxArrayDepth; `general.alignment` that is not a uint32, zero
// or not a power of two; tensor names longer than 64 bytes or not UTF-8; duplicate tensor
// names; more than 4 dimensions; a dimension above INT64_MAX or an element or byte count
// that overflows int64; unknown or removed ggml type ids; a first dimension that is not a
// multiple of the type's block; tensor offsets that are not multiples of the alignment, lie
// outside the data section, or overlap another tensor.
// Tolerated: string values that are not UTF-8 (vocabularies hold byte pieces) are kept as
// bytes and listed in warnings().
#ifndef TCPU_ENGINE_GGUF_GGUF_READER_H_
#define TCPU_ENGINE_GGUF_GGUF_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/gguf/gguf_types.h"

namespace tcpu::gguf {

// Arrays of arrays are allowed by the format; deeper nesting than this is refused (it has no
// use in a model file and unbounded recursion would let a file exhaust the stack).
inline constexpr int kMaxArrayDepth = 8;

// `general.alignment` when a file does not set it.
inline constexpr uint32_t kDefaultAlignment = 32;

// One metadata value, decoded but not copied.
struct Value {
  ValueType type = ValueType::kUint8;
  uint64_t file_offset = 0;  // where the value's bytes start
  // Scalars: the value's bits, zero-extended (an int8 -1 is 0xff; a float32 its IEEE bits).
  uint64_t bits = 0;
  // kString: the bytes as stored (not NUL-terminated; UTF-8 unless warnings() says not).
  std::string_view string;
  // kArray: `count` elements of `element_type`. Fixed-size elements stay in the file
  // (`fixed_elements`, little-endian, possibly unaligned); strings and arrays are decoded
  // into `elements`.
  ValueType element_type = ValueType::kUint8;
  uint64_t count = 0;
  const uint8_t* fixed_elements = nullptr;
  std::vector<Value> elements;
};

struct MetadataEntry {
  std::string_view key;
  uint64_t file_offset = 0;  // where the entry (its key's length) starts
  Value value;
};

struct TensorInfo {
  std::string_view name;
  std::vector<int64_t> dims;  // ggml order: dims[0] is the fastest-varying (a row's length)
  const TensorTypeTraits* type = nullptr;
  uint64_t offset = 0;       // relative to the data section, a multiple of the alignment
  uint64_t info_offset = 0;  // where the tensor's info record starts in the file
  int64_t elements = 0;
  int64_t bytes = 0;
  const uint8_t* data = nullptr;  // `bytes` bytes inside the caller's buffer (null if none)
};

class GgufFile {
 public:
  uint32_t version() const { return version_; }
  uint32_t alignment() const { return alignment_; }
  uint64_t data_offset() const { return data_offset_; }  // file offset of the data section
  const std::vector<MetadataEntry>& metadata() const { return metadata_; }
  const std::vector<TensorInfo>& tensors() const { return tensors_; }
  // Non-fatal findings (string values that are not UTF-8), at most a few dozen lines.
  const std::vector<std::string>& warnings() const { return warnings_; }

  const Value* FindValue(std::string_view key) const;
  const TensorInfo* FindTensor(std::string_view name) const;

  // Typed accessors: true with *out set, or false with *error naming the key and saying
  // whether it is missing, of another type (naming it) or out of the requested range.
  // Integer accessors take any integer type whose value fits (the format's counts are
  // uint64 by convention and uint32 in many files); GetFloat64 takes float32 or float64,
  // GetFloat32 only float32; GetBool only bool; GetString only string.
  bool GetBool(std::string_view key, bool* out, std::string* error) const;
  bool GetUint32(std::string_view key, uint32_t* out, std::string* error) const;
  bool GetInt32(std::string_view key, int32_t* out, std::string* error) const;
  bool GetUint64(std::string_view key, uint64_t* out, std::string* error) const;
  bool GetInt64(std::string_view key, int64_t* out, std::string* error) const;
  bool GetFloat32(std::string_view key, float* out, std::string* error) const;
  bool GetFloat64(std::string_view key, double* out, std::string* error) const;
  bool GetString(std::string_view key, std::string_view* out, std::string* error) const;
  // Arrays: the element type follows the scalar rules above (GetInt32Array takes arrays of
  // any integer type whose every element fits in int32, naming the first that does not).
  bool GetStringArray(std::string_view key, std::vector<std::string_view>* out,
                      std::string* error) const;
  bool GetFloatArray(std::string_view key, std::vector<float>* out, std::string* error) const;
  bool GetInt32Array(std::string_view key, std::vector<int32_t>* out, std::string* error) const;

 private:
  friend class Parser;

  uint32_t version_ = 0;
  uint32_t alignment_ = kDefaultAlignment;
  uint64_t data_offset_ = 0;
  std::vector<MetadataEntry> metadata_;
  std::vector<TensorInfo> tensors_;
  std::vector<std::string> warnings_;
  std::unordered_map<std::string_view, size_t> metadata_index_;
  std::unordered_map<std::string_view, size_t> tensor_index_;
};

// Parses the `size` bytes at `data` as a GGUF v3 file. `name` labels errors. Returns true,
// or false with *error saying what is wrong (see above); *file is untouched on failure.
bool ParseGguf(const uint8_t* data, size_t size, const std::string& name, GgufFile* file,
               std::string* error);

}  // namespace tcpu::gguf

#endif  // TCPU_ENGINE_GGUF_GGUF_READER_H_
