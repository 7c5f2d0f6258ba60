#include "engine/model/safetensors.h"

#include <algorithm>
#include <cstring>

#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"
#include "tcpu/bf16.h"

namespace tcpu::model {
namespace {

using Json = nlohmann::json;

// The JSON header may not exceed this (safetensors itself caps it at 100 MB).
constexpr uint64_t kMaxHeaderBytes = uint64_t{100} << 20;

bool ParseDType(const std::string& s, DType* dtype, std::string* problem) {
  if (s == "BF16") {
    *dtype = DType::kBF16;
  } else if (s == "F16") {
    *dtype = DType::kF16;
  } else if (s == "F32") {
    *dtype = DType::kF32;
  } else if (s == "U8") {
    *dtype = DType::kU8;
  } else {
    static const char* const kOther[] = {"BOOL",    "I8",      "I16", "U16",     "I32",
                                         "U32",     "I64",     "U64", "F64",     "F8_E4M3",
                                         "F8_E5M2", "F8_E8M0", "F4",  "F6_E2M3", "F6_E3M2"};
    const bool known = std::find(std::begin(kOther), std::end(kOther), s) != std::end(kOther);
    *problem = std::string(known ? "unsupported" : "unknown") + " dtype '" + s.substr(0, 32) +
               "' (supported: BF16, F16, F32, U8)";
    return false;
  }
  return true;
}

}  // namespace

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = static_cast<float>(mantissa) * 0x1p-24f;  // zero or subnormal
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? __builtin_inff() : __builtin_nanf("");
  } else {
    uint32_t bits = ((exponent + 112) << 23) | (mantissa << 13);
    std::memcpy(&magnitude, &bits, 4);
  }
  uint32_t bits;
  std::memcpy(&bits, &magnitude, 4);
  bits |= sign;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kBF16:
      return "BF16";
    case DType::kF16:
      return "F16";
    case DType::kF32:
      return "F32";
    case DType::kU8:
      return "U8";
    case DType::kQ4_0:
      return "Q4_0";
    case DType::kQ8_0:
      return "Q8_0";
  }
  return "?";
}

int64_t DTypeBytes(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return 4;
    case DType::kU8:
      return 1;
    case DType::kQ4_0:
    case DType::kQ8_0:
      return 0;
    default:
      return 2;
  }
}

bool IsFloatDType(DType dtype) {
  return dtype == DType::kBF16 || dtype == DType::kF16 || dtype == DType::kF32;
}

float ReadElementAsFloat(const TensorView& t, int64_t i) {
  if (t.dtype == DType::kU8) return static_cast<float>(t.data[i]);
  if (t.dtype == DType::kQ4_0) {
    const uint8_t* block = t.data + i / 32 * 18;
    uint16_t d;
    std::memcpy(&d, block, 2);
    const uint8_t byte = block[2 + i % 16];
    const int v = i % 32 < 16 ? byte & 0xf : byte >> 4;
    return HalfToFloat(d) * static_cast<float>(v - 8);
  }
  if (t.dtype == DType::kQ8_0) {
    const uint8_t* block = t.data + i / 32 * 34;
    uint16_t d;
    std::memcpy(&d, block, 2);
    return HalfToFloat(d) * static_cast<float>(static_cast<int8_t>(block[2 + i % 32]));
  }
  if (t.dtype == DType::kF32) {
    float f;
    std::memcpy(&f, t.data + 4 * i, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, t.data + 2 * i, 2);
  return t.dtype == DType::kBF16 ? tcpu_bf16_to_f32(h) : HalfToFloat(h);
}

bool ParseSafetensors(const uint8_t* data, int64_t size, const std::string& name,
                      SafetensorsFile* file, std::string* error) {
  auto fail = [&](const std::string& what) {
    *error = name + ": " + what;
    return false;
  };
  if (size < 8) {
    return fail("file is " + std::to_string(size) + " bytes, too short for the 8-byte header "
                "length");
  }
  uint64_t header_bytes = 0;
  for (int i = 7; i >= 0; --i) header_bytes = (header_bytes << 8) | data[i];
  if (header_bytes > kMaxHeaderBytes) {
    return fail("header length " + std::to_string(header_bytes) + " exceeds the 100 MB limit");
  }
  if (header_bytes > static_cast<uint64_t>(size - 8)) {
    return fail("header length " + std::to_string(header_bytes) + " runs past the end of the " +
                std::to_string(size) + "-byte file");
  }
  const char* header = reinterpret_cast<const char*>(data + 8);
  Json json;
  if (!engine::ParseJson(std::string_view(header, header_bytes), &json)) {
    return fail("header is not well-formed JSON");
  }
  if (!json.is_object()) return fail("header is not a JSON object");
  const uint8_t* section = data + 8 + header_bytes;
  const int64_t section_bytes = size - 8 - static_cast<int64_t>(header_bytes);

  struct Range {
    int64_t begin, end;
    const std::string* name;
  };
  std::vector<Range> ranges;
  SafetensorsFile parsed;
  for (auto it = json.begin(); it != json.end(); ++it) {
    const std::string& tensor = it.key();
    if (tensor == "__metadata__") {
      if (!it->is_object()) return fail("__metadata__ is not an object");
      for (auto entry = it->begin(); entry != it->end(); ++entry) {
        if (entry->is_string()) parsed.metadata[entry.key()] = entry->get<std::string>();
      }
      continue;
    }
    const std::string label = "tensor '" + tensor.substr(0, 200) + "'";
    if (!it->is_object()) return fail(label + " is not an object");
    const Json& entry = *it;
    const auto dtype_it = entry.find("dtype");
    const auto shape_it = entry.find("shape");
    const auto offsets_it = entry.find("data_offsets");
    if (dtype_it == entry.end() || !dtype_it->is_string()) {
      return fail(label + " has no string 'dtype'");
    }
    if (shape_it == entry.end() || !shape_it->is_array()) {
      return fail(label + " has no array 'shape'");
    }
    if (offsets_it == entry.end() || !offsets_it->is_array() || offsets_it->size() != 2) {
      return fail(label + " has no 'data_offsets' pair");
    }
    TensorView view;
    std::string problem;
    if (!ParseDType(dtype_it->get<std::string>(), &view.dtype, &problem)) {
      return fail(label + ": " + problem);
    }
    int64_t elements = 1;
    for (const Json& dim : *shape_it) {
      if (!dim.is_number_unsigned()) {
        return fail(label + " has a shape entry that is not a non-negative integer");
      }
      const uint64_t d = dim.get<uint64_t>();
      if (d > static_cast<uint64_t>(INT64_MAX) ||
          __builtin_mul_overflow(elements, static_cast<int64_t>(d), &elements)) {
        return fail(label + " has a shape whose element count overflows");
      }
      view.shape.push_back(static_cast<int64_t>(d));
    }
    const Json& begin_json = (*offsets_it)[0];
    const Json& end_json = (*offsets_it)[1];
    if (!begin_json.is_number_unsigned() || !end_json.is_number_unsigned()) {
      return fail(label + " has data_offsets that are not non-negative integers");
    }
    const uint64_t begin = begin_json.get<uint64_t>(), end = end_json.get<uint64_t>();
    if (begin > end) return fail(label + " has data_offsets [" + std::to_string(begin) + ", " +
                                 std::to_string(end) + ") that end before they begin");
    if (end > static_cast<uint64_t>(section_bytes)) {
      return fail(label + " has data_offsets [" + std::to_string(begin) + ", " +
                  std::to_string(end) + ") outside the " + std::to_string(section_bytes) +
                  "-byte data section");
    }
    int64_t bytes = 0;
    if (__builtin_mul_overflow(elements, DTypeBytes(view.dtype), &bytes) ||
        bytes != static_cast<int64_t>(end - begin)) {
      return fail(label + " spans " + std::to_string(end - begin) + " bytes but its shape and " +
                  "dtype " + DTypeName(view.dtype) + " need " + std::to_string(bytes));
    }
    view.data = section + begin;
    view.bytes = bytes;
    view.elements = elements;
    auto [slot, inserted] = parsed.tensors.emplace(tensor, std::move(view));
    if (!inserted) return fail(label + " appears twice");
    if (bytes > 0) {
      ranges.push_back({static_cast<int64_t>(begin), static_cast<int64_t>(end), &slot->first});
    }
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (size_t i = 1; i < ranges.size(); ++i) {
    if (ranges[i].begin < ranges[i - 1].end) {
      return fail("tensors '" + ranges[i - 1].name->substr(0, 200) + "' and '" +
                  ranges[i].name->substr(0, 200) + "' overlap in the data section");
    }
  }
  *file = std::move(parsed);
  return true;
}

}  // namespace tcpu::model
