#include "engine/gguf/gguf_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "engine/common/utf8.h"

namespace tcpu::gguf {
namespace {

constexpr uint64_t kMaxKeyBytes = 65535;
constexpr uint64_t kMaxTensorNameBytes = 64;
constexpr uint32_t kMaxDims = 4;
constexpr size_t kMaxWarnings = 32;

// The fewest bytes any metadata entry or tensor info can take, which bounds what a count
// may claim before anything is reserved for it: an entry is a key length (8), a key byte, a
// value type (4) and a 1-byte value; a tensor info a name length (8), n_dims (4), a type (4)
// and an offset (8).
constexpr uint64_t kMinEntryBytes = 8 + 1 + 4 + 1;
constexpr uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;

uint64_t LoadLittleEndian(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The fewest bytes one array element of `type` takes: a string is at least its length, an
// array at least its element type and count.
uint64_t MinElementBytes(ValueType type) {
  if (type == ValueType::kString) return 8;
  if (type == ValueType::kArray) return 4 + 8;
  return static_cast<uint64_t>(FixedValueBytes(type));
}

// `s` quoted for an error message: at most 80 bytes, anything outside printable ASCII
// written as \xNN so that a hostile name cannot garble the message.
std::string Quote(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < 80; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (s.size() > 80) out += "...";
  return out + "'";
}

std::string At(uint64_t offset) { return " at offset " + std::to_string(offset); }

const char* RemovedTensorTypeNote(uint32_t id) {
  if (id == 4 || id == 5 || (id >= 31 && id <= 33) || (id >= 36 && id <= 38)) {
    return " (a type GGUF files no longer carry)";
  }
  return "";
}

}  // namespace

// Reads the file front to back; every Read* checks the bytes that remain first.
class Parser {
 public:
  Parser(const uint8_t* data, size_t size, const std::string& name)
      : data_(data), size_(size), name_(name) {}

  bool Parse(GgufFile* file, std::string* error);

 private:
  uint64_t Remaining() const { return size_ - pos_; }

  bool Need(uint64_t bytes, const char* what) {
    if (bytes <= Remaining()) return true;
    problem_ = std::string(what) + At(pos_) + " needs " + std::to_string(bytes) +
               " bytes but the " + std::to_string(size_) + "-byte file has " +
               std::to_string(Remaining()) + " left";
    return false;
  }
  bool ReadUint(int bytes, const char* what, uint64_t* out) {
    if (!Need(static_cast<uint64_t>(bytes), what)) return false;
    *out = LoadLittleEndian(data_ + pos_, bytes);
    pos_ += static_cast<size_t>(bytes);
    return true;
  }
  bool ReadUint32(const char* what, uint32_t* out) {
    uint64_t v;
    if (!ReadUint(4, what, &v)) return false;
    *out = static_cast<uint32_t>(v);
    return true;
  }
  bool ReadUint64(const char* what, uint64_t* out) { return ReadUint(8, what, out); }
  bool ReadString(const char* what, std::string_view* out) {
    const uint64_t length_offset = pos_;
    uint64_t length;
    if (!ReadUint64(what, &length)) return false;
    if (length > Remaining()) {
      problem_ = std::string(what) + " length " + std::to_string(length) + At(length_offset) +
                 " runs past the end of the " + std::to_string(size_) + "-byte file (" +
                 std::to_string(Remaining()) + " bytes left)";
      return false;
    }
    *out = std::string_view(reinterpret_cast<const char*>(data_ + pos_), length);
    pos_ += static_cast<size_t>(length);
    return true;
  }

  bool ParseHeader(uint64_t* tensor_count, uint64_t* entry_count);
  bool ParseEntry(GgufFile* file);
  bool ParseValue(ValueType type, int depth, Value* out);
  bool ParseArray(int depth, Value* out);
  bool ApplyAlignment(GgufFile* file);
  bool ParseTensorInfo(GgufFile* file);
  bool PlaceTensors(GgufFile* file);
  void Warn(GgufFile* file, std::string warning) {
    if (file->warnings_.size() < kMaxWarnings) file->warnings_.push_back(std::move(warning));
  }

  const uint8_t* data_;
  uint64_t size_;
  const std::string& name_;
  uint64_t pos_ = 0;
  std::string problem_;  // what went wrong, without the file name
};

bool Parser::ParseHeader(uint64_t* tensor_count, uint64_t* entry_count) {
  if (size_ < 4 || std::memcmp(data_, "GGUF", 4) != 0) {
    if (size_ < 4) {
      problem_ = "file is " + std::to_string(size_) + " bytes, too short for the magic 'GGUF'";
    } else {
      problem_ = "magic is " + Quote(std::string_view(reinterpret_cast<const char*>(data_), 4)) +
                 ", not 'GGUF' (not a GGUF file)";
    }
    return false;
  }
  pos_ = 4;
  uint32_t version;
  if (!ReadUint32("version", &version)) return false;
  if (version != 3) {
    problem_ = "GGUF version " + std::to_string(version) + At(4) + " is not supported (only 3)";
    if (version == 0x03000000) problem_ += "; the file looks big-endian, which is not supported";
    return false;
  }
  if (!ReadUint64("tensor_count", tensor_count)) return false;
  if (!ReadUint64("metadata_kv_count", entry_count)) return false;
  if (*entry_count > Remaining() / kMinEntryBytes) {
    problem_ = "metadata_kv_count " + std::to_string(*entry_count) + At(16) +
               " cannot fit: each entry takes at least " + std::to_string(kMinEntryBytes) +
               " bytes and " + std::to_string(Remaining()) + " remain";
    return false;
  }
  if (*tensor_count > Remaining() / kMinTensorInfoBytes) {
    problem_ = "tensor_count " + std::to_string(*tensor_count) + At(8) +
               " cannot fit: each tensor info takes at least " +
               std::to_string(kMinTensorInfoBytes) + " bytes and " + std::to_string(Remaining()) +
               " remain";
    return false;
  }
  return true;
}

bool Parser::ParseEntry(GgufFile* file) {
  const uint64_t entry_offset = pos_;
  std::string_view key;
  if (!ReadString("metadata key", &key)) {
    problem_ = "metadata entry" + At(entry_offset) + ": " + problem_;
    return false;
  }
  const std::string label = "metadata key " + Quote(key) + At(entry_offset);
  if (key.empty() || key.size() > kMaxKeyBytes) {
    problem_ = label + " is " + std::to_string(key.size()) + " bytes long (must be 1.." +
               std::to_string(kMaxKeyBytes) + ")";
    return false;
  }
  for (size_t i = 0; i < key.size(); ++i) {
    const auto c = static_cast<unsigned char>(key[i]);
    if (c < 0x20 || c >= 0x7f) {
      problem_ = label + " has byte " + Quote(key.substr(i, 1)) + " at index " + std::to_string(i) +
                 " (keys must be printable ASCII)";
      return false;
    }
  }
  if (file->metadata_index_.count(key) != 0) {
    problem_ = label + " appears twice (first" +
               At(file->metadata_[file->metadata_index_[key]].file_offset) + ")";
    return false;
  }
  uint32_t type_id;
  const uint64_t type_offset = pos_;
  if (!ReadUint32("value type", &type_id)) {
    problem_ = label + ": " + problem_;
    return false;
  }
  if (!IsValueType(type_id)) {
    problem_ = label + " has value type id " + std::to_string(type_id) + At(type_offset) +
               " (GGUF defines 0..12)";
    return false;
  }
  MetadataEntry entry;
  entry.key = key;
  entry.file_offset = entry_offset;
  if (!ParseValue(static_cast<ValueType>(type_id), 0, &entry.value)) {
    problem_ = label + ": " + problem_;
    return false;
  }
  if (entry.value.type == ValueType::kString) {
    size_t bad;
    if (!engine::IsValidUtf8(entry.value.string, &bad)) {
      Warn(file, "metadata key " + Quote(key) + ": string value" + At(entry.value.file_offset) +
                     " is not UTF-8 at byte " + std::to_string(bad));
    }
  } else if (entry.value.type == ValueType::kArray &&
             entry.value.element_type == ValueType::kString) {
    for (size_t i = 0; i < entry.value.elements.size(); ++i) {
      size_t bad;
      if (!engine::IsValidUtf8(entry.value.elements[i].string, &bad)) {
        Warn(file, "metadata key " + Quote(key) + ": element " + std::to_string(i) +
                       At(entry.value.elements[i].file_offset) + " is not UTF-8 at byte " +
                       std::to_string(bad));
      }
    }
  }
  file->metadata_index_.emplace(key, file->metadata_.size());
  file->metadata_.push_back(std::move(entry));
  return true;
}

bool Parser::ParseValue(ValueType type, int depth, Value* out) {
  out->type = type;
  out->file_offset = pos_;
  if (type == ValueType::kString) return ReadString("string", &out->string);
  if (type == ValueType::kArray) return ParseArray(depth, out);
  if (!ReadUint(FixedValueBytes(type), ValueTypeName(type), &out->bits)) return false;
  if (type == ValueType::kBool && out->bits > 1) {
    problem_ =
        "bool value " + std::to_string(out->bits) + At(out->file_offset) + " is neither 0 nor 1";
    return false;
  }
  return true;
}

bool Parser::ParseArray(int depth, Value* out) {
  uint32_t element_type_id;
  if (!ReadUint32("array element type", &element_type_id)) return false;
  if (!IsValueType(element_type_id)) {
    problem_ = "array element type id " + std::to_string(element_type_id) + At(out->file_offset) +
               " is not a GGUF value type (0..12)";
    return false;
  }
  const auto element_type = static_cast<ValueType>(element_type_id);
  if (element_type == ValueType::kArray && depth + 1 >= kMaxArrayDepth) {
    problem_ = "arrays nested deeper than " + std::to_string(kMaxArrayDepth) + At(out->file_offset);
    return false;
  }
  const uint64_t count_offset = pos_;
  if (!ReadUint64("array length", &out->count)) return false;
  const uint64_t min_bytes = MinElementBytes(element_type);
  if (out->count > Remaining() / min_bytes) {
    problem_ = "array of " + std::to_string(out->count) + " " + ValueTypeName(element_type) +
               " elements" + At(count_offset) + " needs at least " + std::to_string(min_bytes) +
               " bytes per element but " + std::to_string(Remaining()) + " bytes remain";
    return false;
  }
  out->element_type = element_type;
  if (min_bytes == static_cast<uint64_t>(FixedValueBytes(element_type))) {
    out->fixed_elements = data_ + pos_;
    if (element_type == ValueType::kBool) {
      for (uint64_t i = 0; i < out->count; ++i) {
        if (out->fixed_elements[i] > 1) {
          problem_ = "bool element " + std::to_string(i) + " = " +
                     std::to_string(out->fixed_elements[i]) + At(pos_ + i) + " is neither 0 nor 1";
          return false;
        }
      }
    }
    pos_ += static_cast<size_t>(out->count * min_bytes);
    return true;
  }
  out->elements.resize(static_cast<size_t>(out->count));
  for (uint64_t i = 0; i < out->count; ++i) {
    if (!ParseValue(element_type, depth + 1, &out->elements[i])) {
      problem_ = "element " + std::to_string(i) + ": " + problem_;
      return false;
    }
  }
  return true;
}

bool Parser::ApplyAlignment(GgufFile* file) {
  const auto it = file->metadata_index_.find("general.alignment");
  if (it == file->metadata_index_.end()) return true;
  const MetadataEntry& entry = file->metadata_[it->second];
  const Value* value = &entry.value;
  const std::string label = "metadata key 'general.alignment'" + At(entry.file_offset);
  if (value->type != ValueType::kUint32) {
    problem_ = label + " is " + ValueTypeName(value->type) + ", not uint32";
    return false;
  }
  const uint64_t alignment = value->bits;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    problem_ = label + " is " + std::to_string(alignment) + ", not a nonzero power of two";
    return false;
  }
  file->alignment_ = static_cast<uint32_t>(alignment);
  return true;
}

bool Parser::ParseTensorInfo(GgufFile* file) {
  TensorInfo info;
  info.info_offset = pos_;
  if (!ReadString("tensor name", &info.name)) {
    problem_ = "tensor info" + At(info.info_offset) + ": " + problem_;
    return false;
  }
  const std::string label = "tensor " + Quote(info.name) + At(info.info_offset);
  size_t bad;
  if (info.name.size() > kMaxTensorNameBytes) {
    problem_ = label + " has a " + std::to_string(info.name.size()) + "-byte name (at most " +
               std::to_string(kMaxTensorNameBytes) + ")";
    return false;
  }
  if (!engine::IsValidUtf8(info.name, &bad)) {
    problem_ = label + " has a name that is not UTF-8 at byte " + std::to_string(bad);
    return false;
  }
  if (file->tensor_index_.count(info.name) != 0) {
    problem_ = label + " appears twice (first" +
               At(file->tensors_[file->tensor_index_[info.name]].info_offset) + ")";
    return false;
  }
  uint32_t n_dims;
  if (!ReadUint32("n_dimensions", &n_dims)) {
    problem_ = label + ": " + problem_;
    return false;
  }
  if (n_dims > kMaxDims) {
    problem_ = label + " has " + std::to_string(n_dims) + " dimensions (at most " +
               std::to_string(kMaxDims) + ")";
    return false;
  }
  info.elements = 1;
  for (uint32_t d = 0; d < n_dims; ++d) {
    const uint64_t dim_offset = pos_;
    uint64_t dim;
    if (!ReadUint64("dimension", &dim)) {
      problem_ = label + ": " + problem_;
      return false;
    }
    if (dim > static_cast<uint64_t>(INT64_MAX) ||
        __builtin_mul_overflow(info.elements, static_cast<int64_t>(dim), &info.elements)) {
      problem_ = label + ": dimension " + std::to_string(d) + " = " + std::to_string(dim) +
                 At(dim_offset) + " makes the element count overflow int64";
      return false;
    }
    info.dims.push_back(static_cast<int64_t>(dim));
  }
  const uint64_t type_offset = pos_;
  uint32_t type_id;
  if (!ReadUint32("tensor type", &type_id)) {
    problem_ = label + ": " + problem_;
    return false;
  }
  info.type = FindTensorType(type_id);
  if (info.type == nullptr) {
    problem_ = label + " has unknown ggml type id " + std::to_string(type_id) + At(type_offset) +
               RemovedTensorTypeNote(type_id);
    return false;
  }
  const int64_t row = info.dims.empty() ? 1 : info.dims[0];
  if (row % info.type->block_elements != 0) {
    problem_ = label + " of type " + info.type->name + " has a first dimension of " +
               std::to_string(row) + ", not a multiple of its " +
               std::to_string(info.type->block_elements) + "-element block";
    return false;
  }
  if (__builtin_mul_overflow(info.elements / info.type->block_elements, info.type->block_bytes,
                             &info.bytes)) {
    problem_ = label + " of type " + info.type->name + " and " + std::to_string(info.elements) +
               " elements has a byte size that overflows int64";
    return false;
  }
  const uint64_t offset_offset = pos_;
  if (!ReadUint64("tensor offset", &info.offset)) {
    problem_ = label + ": " + problem_;
    return false;
  }
  if (info.offset % file->alignment_ != 0) {
    problem_ = label + " has data offset " + std::to_string(info.offset) + At(offset_offset) +
               ", not a multiple of the alignment " + std::to_string(file->alignment_);
    return false;
  }
  file->tensor_index_.emplace(info.name, file->tensors_.size());
  file->tensors_.push_back(std::move(info));
  return true;
}

bool Parser::PlaceTensors(GgufFile* file) {
  // The data section starts at the first multiple of the alignment after the tensor infos.
  const uint64_t alignment = file->alignment_;
  file->data_offset_ = (pos_ + alignment - 1) / alignment * alignment;
  const uint64_t section_bytes = file->data_offset_ <= size_ ? size_ - file->data_offset_ : 0;
  std::vector<const TensorInfo*> by_offset;
  for (TensorInfo& info : file->tensors_) {
    const uint64_t bytes = static_cast<uint64_t>(info.bytes);
    if (info.offset > section_bytes || bytes > section_bytes - info.offset) {
      problem_ = "tensor " + Quote(info.name) + At(info.info_offset) + " of type " +
                 info.type->name + " (" + std::to_string(bytes) + " bytes) at data offset " +
                 std::to_string(info.offset) + " lies outside the " +
                 std::to_string(section_bytes) + "-byte data section (file offset " +
                 std::to_string(file->data_offset_) + ")";
      return false;
    }
    info.data = bytes > 0 ? data_ + file->data_offset_ + info.offset : nullptr;
    if (bytes > 0) by_offset.push_back(&info);
  }
  std::sort(by_offset.begin(), by_offset.end(),
            [](const TensorInfo* a, const TensorInfo* b) { return a->offset < b->offset; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const TensorInfo& before = *by_offset[i - 1];
    const TensorInfo& after = *by_offset[i];
    if (after.offset < before.offset + static_cast<uint64_t>(before.bytes)) {
      problem_ = "tensors " + Quote(before.name) + " (data offset " +
                 std::to_string(before.offset) + ", " + std::to_string(before.bytes) +
                 " bytes) and " + Quote(after.name) + " (data offset " +
                 std::to_string(after.offset) + ") overlap";
      return false;
    }
  }
  return true;
}

bool Parser::Parse(GgufFile* file, std::string* error) {
  uint64_t tensor_count = 0, entry_count = 0;
  bool ok = ParseHeader(&tensor_count, &entry_count);
  if (ok) file->metadata_.reserve(static_cast<size_t>(entry_count));
  for (uint64_t i = 0; ok && i < entry_count; ++i) ok = ParseEntry(file);
  ok = ok && ApplyAlignment(file);
  if (ok) file->tensors_.reserve(static_cast<size_t>(tensor_count));
  for (uint64_t i = 0; ok && i < tensor_count; ++i) ok = ParseTensorInfo(file);
  ok = ok && PlaceTensors(file);
  if (!ok) {
    *error = name_ + ": " + problem_;
    return false;
  }
  file->version_ = 3;
  return true;
}

bool ParseGguf(const uint8_t* data, size_t size, const std::string& name, GgufFile* file,
               std::string* error) {
  GgufFile parsed;
  Parser parser(data, size, name);
  if (!parser.Parse(&parsed, error)) return false;
  *file = std::move(parsed);
  return true;
}

}  // namespace tcpu::gguf
