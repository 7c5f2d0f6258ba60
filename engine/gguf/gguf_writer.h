// Writes GGUF version 3 files (ggml's docs/gguf.md) from metadata and tensors: the header,
// the metadata entries and tensor infos in the order they were added, zero padding to the
// alignment, then the data section. It writes what it is given without judging it (two
// entries with one key, an offset that is not aligned, a type id no reader knows), so that
// tests can build the malformed files a reader must refuse; gguf_reader.h is the judge.
#ifndef TCPU_ENGINE_GGUF_GGUF_WRITER_H_
#define TCPU_ENGINE_GGUF_GGUF_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/gguf/gguf_types.h"

namespace tcpu::gguf {

// A metadata value to write. Scalars keep their bits; arrays carry their element type
// explicitly, so that an empty array still has one.
struct MetadataValue {
  ValueType type = ValueType::kUint8;
  uint64_t bits = 0;
  std::string string;
  ValueType element_type = ValueType::kUint8;
  std::vector<MetadataValue> elements;

  static MetadataValue Uint8(uint8_t v);
  static MetadataValue Int8(int8_t v);
  static MetadataValue Uint16(uint16_t v);
  static MetadataValue Int16(int16_t v);
  static MetadataValue Uint32(uint32_t v);
  static MetadataValue Int32(int32_t v);
  static MetadataValue Uint64(uint64_t v);
  static MetadataValue Int64(int64_t v);
  static MetadataValue Float32(float v);
  static MetadataValue Float64(double v);
  static MetadataValue Bool(bool v);
  static MetadataValue String(std::string v);
  // Every element must have type `element_type` (not checked: the writer writes each
  // element's own bits with the array's element type).
  static MetadataValue Array(ValueType element_type, std::vector<MetadataValue> elements);
  static MetadataValue StringArray(const std::vector<std::string>& strings);
  static MetadataValue Float32Array(const std::vector<float>& values);
  static MetadataValue Int32Array(const std::vector<int32_t>& values);
};

struct TensorToWrite {
  std::string name;
  uint32_t type = 0;           // a ggml type id (TensorType), written as given
  std::vector<uint64_t> dims;  // ggml order: dims[0] is the row length
  std::vector<uint8_t> data;   // the tensor's bytes, written at `offset`
  // Data-section offset to record and write the data at; by default the next multiple of
  // the alignment after the previous tensor's data.
  std::optional<uint64_t> offset;
};

class GgufWriter {
 public:
  // Also writes a `general.alignment` entry first when `alignment` is not the default 32.
  explicit GgufWriter(uint32_t alignment = 32) : alignment_(alignment) {}

  void SetVersion(uint32_t version) { version_ = version; }
  void AddMetadata(std::string key, MetadataValue value);
  void AddTensor(TensorToWrite tensor);

  // The whole file. Later tensors' data overwrites earlier ones' where their offsets make
  // them overlap.
  std::vector<uint8_t> Serialize() const;
  // Writes Serialize() to `path`; false with *error naming the path if that fails.
  bool WriteFile(const std::string& path, std::string* error) const;

 private:
  uint32_t alignment_;
  uint32_t version_ = 3;
  std::vector<std::pair<std::string, MetadataValue>> metadata_;
  std::vector<TensorToWrite> tensors_;
};

}  // namespace tcpu::gguf

#endif  // TCPU_ENGINE_GGUF_GGUF_WRITER_H_
