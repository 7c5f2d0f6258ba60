#include "tests/triton_replay/launch_record.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "tests/triton_replay/element_type.h"

namespace tcpu::replay {
namespace {

using nlohmann::json;

// A JSON value as a short text for error messages.
std::string Shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

// Reads the fields of one JSON object; each failed read names `path.field` in *error.
class Fields {
 public:
  Fields(const json& object, std::string path, std::string* error)
      : object_(object), path_(std::move(path)), error_(error) {}

  bool IsObject() {
    if (object_.is_object()) return true;
    return Fail("", "expected an object, got " + Shown(object_));
  }
  bool Has(const char* name) const { return object_.contains(name); }
  const json& Get(const char* name) const { return object_.at(name); }
  std::string Path(const char* name) const { return path_.empty() ? name : path_ + "." + name; }

  bool Fail(const char* name, const std::string& message) {
    *error_ = (*name ? Path(name) : path_) + ": " + message;
    return false;
  }
  bool Require(const char* name) { return Has(name) || Fail(name, "missing"); }
  bool String(const char* name, std::string* out) {
    if (!Require(name)) return false;
    if (!Get(name).is_string()) return Fail(name, "expected a string, got " + Shown(Get(name)));
    *out = Get(name).get<std::string>();
    return true;
  }
  // An integer number (or a bool where `bools`), as its two's-complement 64 bits.
  bool Integer(const char* name, int64_t* out, bool bools = false) {
    if (!Require(name)) return false;
    const json& value = Get(name);
    if (value.is_number_unsigned()) {
      *out = static_cast<int64_t>(value.get<uint64_t>());
    } else if (value.is_number_integer()) {
      *out = value.get<int64_t>();
    } else if (bools && value.is_boolean()) {
      *out = value.get<bool>() ? 1 : 0;
    } else {
      return Fail(name, "expected an integer, got " + Shown(value));
    }
    return true;
  }
  bool NonNegative(const char* name, int64_t* out) {
    if (!Integer(name, out)) return false;
    if (*out < 0) {
      return Fail(name, "expected a non-negative integer, got " + Shown(Get(name)));
    }
    return true;
  }
  bool IntegerList(const char* name, std::vector<int64_t>* out) {
    if (!Require(name)) return false;
    const json& list = Get(name);
    if (!list.is_array()) return Fail(name, "expected a list of integers, got " + Shown(list));
    out->clear();
    for (const json& item : list) {
      if (!item.is_number_integer()) {
        return Fail(name, "expected a list of integers, got " + Shown(list));
      }
      out->push_back(item.get<int64_t>());
    }
    return true;
  }

 private:
  const json& object_;
  std::string path_;
  std::string* error_;
};

std::string Indexed(const char* list, size_t index) {
  return std::string(list) + "[" + std::to_string(index) + "]";
}

// "0x3f800000" (the 0x optional) into *bits; false unless it is hex of at most `bits` bits.
bool ParseHexBits(const std::string& text, int width, uint64_t* bits) {
  std::string digits = text;
  if (digits.rfind("0x", 0) == 0 || digits.rfind("0X", 0) == 0) digits = digits.substr(2);
  if (digits.empty() || digits.size() > 16) return false;
  for (char c : digits) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  *bits = std::strtoull(digits.c_str(), nullptr, 16);
  return width == 64 || *bits >> width == 0;
}

bool ParseScalar(Fields& fields, ArgRecord* arg) {
  if (!fields.String("type", &arg->type)) return false;
  const ScalarType* scalar = FindScalarType(arg->type);
  if (scalar == nullptr) {
    return fields.Fail("type",
                       "'" + arg->type + "' is not a TTIR scalar type (" + ScalarTypeNames() + ")");
  }
  if (scalar->is_float) {
    std::string bits;
    if (!fields.Has("bits"))
      return fields.Fail("bits", "missing (a float scalar is exact in bits)");
    if (!fields.String("bits", &bits)) return false;
    if (!ParseHexBits(bits, scalar->bits, &arg->value_bits)) {
      return fields.Fail("bits", "expected the hex of " + std::to_string(scalar->bits) +
                                     " IEEE bits of " + arg->type +
                                     " (\"0x3f800000\" for an f32 "
                                     "1.0), got \"" +
                                     bits + "\"");
    }
    return true;
  }
  int64_t value = 0;
  if (!fields.Integer("value", &value, /*bools=*/true)) return false;
  // Signed or unsigned, the value must fit the width (Triton passes u32 values to i32 too).
  const int width = scalar->bits;
  const bool is_unsigned = fields.Get("value").is_number_unsigned();
  bool fits = width == 64 || (is_unsigned ? static_cast<uint64_t>(value) >> width == 0
                                          : value >= -(int64_t{1} << (width - 1)) &&
                                                value < (int64_t{1} << width));
  if (width == 1) fits = value == 0 || value == 1;
  if (!fits) {
    return fields.Fail("value", Shown(fields.Get("value")) + " does not fit " + arg->type);
  }
  arg->value_bits = static_cast<uint64_t>(value);
  return true;
}

bool ParseArg(const json& json_arg, size_t index, ArgRecord* arg, std::string* error) {
  Fields fields(json_arg, Indexed("args", index), error);
  if (!fields.IsObject()) return false;
  std::string kind;
  if (!fields.String("kind", &kind)) return false;
  if (kind == "scalar") {
    arg->kind = ArgRecord::Kind::kScalar;
    return ParseScalar(fields, arg);
  }
  if (kind != "ptr" && kind != "desc") {
    return fields.Fail("kind", "expected \"ptr\", \"scalar\" or \"desc\", got \"" + kind + "\"");
  }
  arg->kind = kind == "ptr" ? ArgRecord::Kind::kPtr : ArgRecord::Kind::kDesc;
  if (!fields.Integer("buffer", &arg->buffer) || !fields.NonNegative("offset", &arg->offset)) {
    return false;
  }
  if (arg->kind == ArgRecord::Kind::kPtr) return true;
  if (!fields.IntegerList("shape", &arg->shape) || !fields.IntegerList("strides", &arg->strides)) {
    return false;
  }
  if (arg->shape.size() != arg->strides.size()) {
    return fields.Fail("strides", std::to_string(arg->strides.size()) + " strides for " +
                                      std::to_string(arg->shape.size()) + " dimensions");
  }
  return true;
}

bool ParseBuffer(const json& json_buffer, size_t index, BufferRecord* buffer, std::string* error) {
  Fields fields(json_buffer, Indexed("buffers", index), error);
  if (!fields.IsObject() || !fields.Integer("id", &buffer->id) ||
      !fields.NonNegative("nbytes", &buffer->nbytes) || !fields.String("before", &buffer->before) ||
      !fields.String("after", &buffer->after)) {
    return false;
  }
  if (!fields.Has("poisoned") || fields.Get("poisoned").is_null()) return true;
  Fields poisoned(fields.Get("poisoned"), fields.Path("poisoned"), error);
  BufferRecord::Poisoned entry;
  int64_t fill = 0;
  if (!poisoned.IsObject() || !poisoned.Integer("fill", &fill) ||
      !poisoned.String("after", &entry.after)) {
    return false;
  }
  if (fill < 0 || fill > 255) return poisoned.Fail("fill", "expected a byte (0 to 255)");
  entry.fill = static_cast<int>(fill);
  buffer->poisoned = entry;
  return true;
}

}  // namespace

bool ParseLaunchRecord(const json& json_record, LaunchRecord* record, std::string* error) {
  Fields fields(json_record, "", error);
  if (!fields.IsObject() || !fields.String("id", &record->id) ||
      !fields.String("kernel", &record->kernel) || !fields.String("ttir", &record->ttir)) {
    return false;
  }
  std::vector<int64_t> grid;
  if (!fields.IntegerList("grid", &grid)) return false;
  if (grid.size() != 3) {
    return fields.Fail("grid", "expected 3 dimensions, got " + Shown(fields.Get("grid")));
  }
  for (int d = 0; d < 3; ++d) {
    if (grid[d] < 1 || grid[d] > INT32_MAX) {
      return fields.Fail("grid",
                         "expected sizes from 1 to 2^31-1, got " + Shown(fields.Get("grid")));
    }
    record->grid[d] = static_cast<int32_t>(grid[d]);
  }
  for (const char* list : {"args", "buffers"}) {
    if (!fields.Require(list)) return false;
    if (!fields.Get(list).is_array()) {
      return fields.Fail(list, "expected a list, got " + Shown(fields.Get(list)));
    }
  }
  const json& args = fields.Get("args");
  record->args.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (!ParseArg(args[i], i, &record->args[i], error)) return false;
  }
  const json& buffers = fields.Get("buffers");
  record->buffers.resize(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!ParseBuffer(buffers[i], i, &record->buffers[i], error)) return false;
    for (size_t j = 0; j < i; ++j) {
      if (record->buffers[j].id == record->buffers[i].id) {
        *error = Indexed("buffers", i) + ".id: " + std::to_string(record->buffers[i].id) +
                 " is also the id of " + Indexed("buffers", j);
        return false;
      }
    }
  }
  return true;
}

}  // namespace tcpu::replay
