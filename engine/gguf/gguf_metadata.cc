// GgufFile's lookups and typed metadata accessors.
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "engine/gguf/gguf_reader.h"

namespace tcpu::gguf {
namespace {

bool IsIntegerType(ValueType type) {
  switch (type) {
    case ValueType::kUint8:
    case ValueType::kInt8:
    case ValueType::kUint16:
    case ValueType::kInt16:
    case ValueType::kUint32:
    case ValueType::kInt32:
    case ValueType::kUint64:
    case ValueType::kInt64:
      return true;
    default:
      return false;
  }
}

bool IsSignedType(ValueType type) {
  return type == ValueType::kInt8 || type == ValueType::kInt16 || type == ValueType::kInt32 ||
         type == ValueType::kInt64;
}

// The integer an integer-typed value's bits hold (sign-extended for the signed types).
__int128 IntegerOf(ValueType type, uint64_t bits) {
  if (!IsSignedType(type)) return bits;
  const int width = 8 * FixedValueBytes(type);
  const int shift = 64 - width;
  return static_cast<int64_t>(bits << shift) >> shift;
}

std::string ToString(__int128 v) {
  if (v < 0) return "-" + std::to_string(static_cast<uint64_t>(-(v + 1)) + 1);
  return std::to_string(static_cast<uint64_t>(v));
}

float Float32Of(uint64_t bits) {
  const auto narrow = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &narrow, 4);
  return f;
}

double Float64Of(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

// The bits of element i of an array of fixed-size elements.
uint64_t ElementBits(const Value& array, uint64_t i) {
  const int bytes = FixedValueBytes(array.element_type);
  const uint8_t* p = array.fixed_elements + i * static_cast<uint64_t>(bytes);
  uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

std::string Label(std::string_view key) { return "metadata key '" + std::string(key) + "'"; }

template <typename T>
bool FitsInteger(__int128 v) {
  return v >= static_cast<__int128>(std::numeric_limits<T>::min()) &&
         v <= static_cast<__int128>(std::numeric_limits<T>::max());
}

template <typename T>
const char* IntegerName() {
  if constexpr (std::is_same_v<T, uint32_t>) {
    return "uint32";
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return "int32";
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return "uint64";
  } else {
    static_assert(std::is_same_v<T, int64_t>, "an accessor for another integer type");
    return "int64";
  }
}

}  // namespace

const Value* GgufFile::FindValue(std::string_view key) const {
  const auto it = metadata_index_.find(key);
  return it == metadata_index_.end() ? nullptr : &metadata_[it->second].value;
}

const TensorInfo* GgufFile::FindTensor(std::string_view name) const {
  const auto it = tensor_index_.find(name);
  return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

namespace {

// The value of `key` if it exists and `accepts` its type (for arrays, its element type);
// otherwise nullptr with *error saying whether it is missing or what type it has.
const Value* Lookup(const GgufFile& file, std::string_view key, const char* wanted,
                    bool (*accepts)(ValueType), bool array, std::string* error) {
  const Value* value = file.FindValue(key);
  if (value == nullptr) {
    *error = Label(key) + " is missing";
    return nullptr;
  }
  if (array) {
    if (value->type != ValueType::kArray) {
      *error = Label(key) + " is " + ValueTypeName(value->type) + ", not an array of " + wanted;
      return nullptr;
    }
    if (!accepts(value->element_type)) {
      *error = Label(key) + " is an array of " + ValueTypeName(value->element_type) + ", not of " +
               wanted;
      return nullptr;
    }
  } else if (!accepts(value->type)) {
    *error = Label(key) + " is " + ValueTypeName(value->type) + ", not " + wanted;
    return nullptr;
  }
  return value;
}

bool AcceptsInteger(ValueType type) { return IsIntegerType(type); }
bool AcceptsBool(ValueType type) { return type == ValueType::kBool; }
bool AcceptsString(ValueType type) { return type == ValueType::kString; }
bool AcceptsFloat32(ValueType type) { return type == ValueType::kFloat32; }
bool AcceptsFloat(ValueType type) {
  return type == ValueType::kFloat32 || type == ValueType::kFloat64;
}

template <typename T>
bool GetInteger(const GgufFile& file, std::string_view key, T* out, std::string* error) {
  const Value* value = Lookup(file, key, "an integer", AcceptsInteger, /*array=*/false, error);
  if (value == nullptr) return false;
  const __int128 v = IntegerOf(value->type, value->bits);
  if (!FitsInteger<T>(v)) {
    *error = Label(key) + " = " + ToString(v) + " (" + ValueTypeName(value->type) +
             ") does not fit in " + IntegerName<T>();
    return false;
  }
  *out = static_cast<T>(v);
  return true;
}

}  // namespace

bool GgufFile::GetBool(std::string_view key, bool* out, std::string* error) const {
  const Value* value = Lookup(*this, key, "bool", AcceptsBool, /*array=*/false, error);
  if (value == nullptr) return false;
  *out = value->bits != 0;
  return true;
}

bool GgufFile::GetUint32(std::string_view key, uint32_t* out, std::string* error) const {
  return GetInteger(*this, key, out, error);
}
bool GgufFile::GetInt32(std::string_view key, int32_t* out, std::string* error) const {
  return GetInteger(*this, key, out, error);
}
bool GgufFile::GetUint64(std::string_view key, uint64_t* out, std::string* error) const {
  return GetInteger(*this, key, out, error);
}
bool GgufFile::GetInt64(std::string_view key, int64_t* out, std::string* error) const {
  return GetInteger(*this, key, out, error);
}

bool GgufFile::GetFloat32(std::string_view key, float* out, std::string* error) const {
  const Value* value = Lookup(*this, key, "float32", AcceptsFloat32, /*array=*/false, error);
  if (value == nullptr) return false;
  *out = Float32Of(value->bits);
  return true;
}

bool GgufFile::GetFloat64(std::string_view key, double* out, std::string* error) const {
  const Value* value =
      Lookup(*this, key, "float32 or float64", AcceptsFloat, /*array=*/false, error);
  if (value == nullptr) return false;
  *out = value->type == ValueType::kFloat32 ? Float32Of(value->bits) : Float64Of(value->bits);
  return true;
}

bool GgufFile::GetString(std::string_view key, std::string_view* out, std::string* error) const {
  const Value* value = Lookup(*this, key, "string", AcceptsString, /*array=*/false, error);
  if (value == nullptr) return false;
  *out = value->string;
  return true;
}

bool GgufFile::GetStringArray(std::string_view key, std::vector<std::string_view>* out,
                              std::string* error) const {
  const Value* value = Lookup(*this, key, "string", AcceptsString, /*array=*/true, error);
  if (value == nullptr) return false;
  out->clear();
  out->reserve(value->elements.size());
  for (const Value& element : value->elements) out->push_back(element.string);
  return true;
}

bool GgufFile::GetFloatArray(std::string_view key, std::vector<float>* out,
                             std::string* error) const {
  const Value* value = Lookup(*this, key, "float32", AcceptsFloat32, /*array=*/true, error);
  if (value == nullptr) return false;
  out->resize(static_cast<size_t>(value->count));
  for (uint64_t i = 0; i < value->count; ++i) (*out)[i] = Float32Of(ElementBits(*value, i));
  return true;
}

bool GgufFile::GetInt32Array(std::string_view key, std::vector<int32_t>* out,
                             std::string* error) const {
  const Value* value = Lookup(*this, key, "integers", AcceptsInteger, /*array=*/true, error);
  if (value == nullptr) return false;
  std::vector<int32_t> values(static_cast<size_t>(value->count));
  for (uint64_t i = 0; i < value->count; ++i) {
    const __int128 v = IntegerOf(value->element_type, ElementBits(*value, i));
    if (!FitsInteger<int32_t>(v)) {
      *error = Label(key) + " element " + std::to_string(i) + " = " + ToString(v) + " (" +
               ValueTypeName(value->element_type) + ") does not fit in int32";
      return false;
    }
    values[i] = static_cast<int32_t>(v);
  }
  *out = std::move(values);
  return true;
}

}  // namespace tcpu::gguf
