#include "engine/gguf/gguf_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace tcpu::gguf {
namespace {

void PutLittleEndian(uint64_t v, int bytes, std::vector<uint8_t>* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void PutString(const std::string& s, std::vector<uint8_t>* out) {
  PutLittleEndian(s.size(), 8, out);
  out->insert(out->end(), s.begin(), s.end());
}

// The value's payload, typed by `type` (the array's element type for an element).
void PutValue(ValueType type, const MetadataValue& value, std::vector<uint8_t>* out) {
  if (type == ValueType::kString) {
    PutString(value.string, out);
  } else if (type == ValueType::kArray) {
    PutLittleEndian(static_cast<uint32_t>(value.element_type), 4, out);
    PutLittleEndian(value.elements.size(), 8, out);
    for (const MetadataValue& element : value.elements) {
      PutValue(value.element_type, element, out);
    }
  } else {
    PutLittleEndian(value.bits, FixedValueBytes(type), out);
  }
}

uint64_t AlignUp(uint64_t offset, uint64_t alignment) {
  return alignment == 0 ? offset : (offset + alignment - 1) / alignment * alignment;
}

MetadataValue Scalar(ValueType type, uint64_t bits) {
  MetadataValue value;
  value.type = type;
  value.bits = bits;
  return value;
}

}  // namespace

MetadataValue MetadataValue::Uint8(uint8_t v) { return Scalar(ValueType::kUint8, v); }
MetadataValue MetadataValue::Int8(int8_t v) {
  return Scalar(ValueType::kInt8, static_cast<uint8_t>(v));
}
MetadataValue MetadataValue::Uint16(uint16_t v) { return Scalar(ValueType::kUint16, v); }
MetadataValue MetadataValue::Int16(int16_t v) {
  return Scalar(ValueType::kInt16, static_cast<uint16_t>(v));
}
MetadataValue MetadataValue::Uint32(uint32_t v) { return Scalar(ValueType::kUint32, v); }
MetadataValue MetadataValue::Int32(int32_t v) {
  return Scalar(ValueType::kInt32, static_cast<uint32_t>(v));
}
MetadataValue MetadataValue::Uint64(uint64_t v) { return Scalar(ValueType::kUint64, v); }
MetadataValue MetadataValue::Int64(int64_t v) {
  return Scalar(ValueType::kInt64, static_cast<uint64_t>(v));
}
MetadataValue MetadataValue::Float32(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return Scalar(ValueType::kFloat32, bits);
}
MetadataValue MetadataValue::Float64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return Scalar(ValueType::kFloat64, bits);
}
MetadataValue MetadataValue::Bool(bool v) { return Scalar(ValueType::kBool, v ? 1 : 0); }

MetadataValue MetadataValue::String(std::string v) {
  MetadataValue value;
  value.type = ValueType::kString;
  value.string = std::move(v);
  return value;
}

MetadataValue MetadataValue::Array(ValueType element_type, std::vector<MetadataValue> elements) {
  MetadataValue value;
  value.type = ValueType::kArray;
  value.element_type = element_type;
  value.elements = std::move(elements);
  return value;
}

MetadataValue MetadataValue::StringArray(const std::vector<std::string>& strings) {
  std::vector<MetadataValue> elements;
  for (const std::string& s : strings) elements.push_back(String(s));
  return Array(ValueType::kString, std::move(elements));
}

MetadataValue MetadataValue::Float32Array(const std::vector<float>& values) {
  std::vector<MetadataValue> elements;
  for (float v : values) elements.push_back(Float32(v));
  return Array(ValueType::kFloat32, std::move(elements));
}

MetadataValue MetadataValue::Int32Array(const std::vector<int32_t>& values) {
  std::vector<MetadataValue> elements;
  for (int32_t v : values) elements.push_back(Int32(v));
  return Array(ValueType::kInt32, std::move(elements));
}

void GgufWriter::AddMetadata(std::string key, MetadataValue value) {
  metadata_.emplace_back(std::move(key), std::move(value));
}

void GgufWriter::AddTensor(TensorToWrite tensor) { tensors_.push_back(std::move(tensor)); }

std::vector<uint8_t> GgufWriter::Serialize() const {
  std::vector<uint8_t> out;
  out.insert(out.end(), {'G', 'G', 'U', 'F'});
  PutLittleEndian(version_, 4, &out);
  PutLittleEndian(tensors_.size(), 8, &out);
  const bool write_alignment = alignment_ != 32;
  PutLittleEndian(metadata_.size() + (write_alignment ? 1 : 0), 8, &out);
  if (write_alignment) {
    PutString("general.alignment", &out);
    PutLittleEndian(static_cast<uint32_t>(ValueType::kUint32), 4, &out);
    PutLittleEndian(alignment_, 4, &out);
  }
  for (const auto& [key, value] : metadata_) {
    PutString(key, &out);
    PutLittleEndian(static_cast<uint32_t>(value.type), 4, &out);
    PutValue(value.type, value, &out);
  }
  // Tensor infos, placing each tensor's data where its offset says (or after the last).
  std::vector<uint64_t> offsets;
  uint64_t next = 0, section_bytes = 0;
  for (const TensorToWrite& tensor : tensors_) {
    const uint64_t offset = tensor.offset.value_or(AlignUp(next, alignment_));
    offsets.push_back(offset);
    next = offset + tensor.data.size();
    section_bytes = std::max(section_bytes, next);
    PutString(tensor.name, &out);
    PutLittleEndian(tensor.dims.size(), 4, &out);
    for (uint64_t dim : tensor.dims) PutLittleEndian(dim, 8, &out);
    PutLittleEndian(tensor.type, 4, &out);
    PutLittleEndian(offset, 8, &out);
  }
  out.resize(AlignUp(out.size(), alignment_), 0);
  const size_t data_start = out.size();
  out.resize(data_start + section_bytes, 0);
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const std::vector<uint8_t>& data = tensors_[i].data;
    if (!data.empty()) std::memcpy(out.data() + data_start + offsets[i], data.data(), data.size());
  }
  return out;
}

bool GgufWriter::WriteFile(const std::string& path, std::string* error) const {
  const std::vector<uint8_t> bytes = Serialize();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    *error = "cannot open '" + path + "' for writing: " + std::strerror(errno);
    return false;
  }
  const size_t written = std::fwrite(bytes.data(), 1, bytes.size(), f);
  const bool closed = std::fclose(f) == 0;
  if (written != bytes.size() || !closed) {
    *error = "cannot write " + std::to_string(bytes.size()) + " bytes to '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace tcpu::gguf
