#include "tests/triton_replay/compare_buffer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace tcpu::replay {
namespace {

// An element's value as text: floats to 9 significant digits, integers exactly, bytes in hex.
std::string ValueText(const ElementType& type, const uint8_t* bytes) {
  char text[64];
  if (type.comparison != Comparison::kExact) {
    std::snprintf(text, sizeof(text), "%.9g", ElementValue(type, bytes));
  } else if (type.name == "byte") {
    std::snprintf(text, sizeof(text), "0x%02x", bytes[0]);
  } else if (type.name.rfind("!tt.ptr", 0) == 0) {
    uint64_t pointer;
    std::memcpy(&pointer, bytes, sizeof(pointer));
    std::snprintf(text, sizeof(text), "0x%" PRIx64, pointer);
  } else {
    std::snprintf(text, sizeof(text), "%.0f", ElementValue(type, bytes));
  }
  return text;
}

void AddRegion(std::vector<TypedRegion>* regions, size_t begin, size_t end,
               const ElementType& type) {
  if (begin >= end) return;
  const size_t whole = (end - begin) / type.size * type.size;
  if (whole > 0) regions->push_back({begin, begin + whole, type});
  if (begin + whole < end) regions->push_back({begin + whole, end, ElementTypeOf("byte")});
}

}  // namespace

std::vector<TypedRegion> TypeRegions(size_t size,
                                     std::vector<std::pair<size_t, std::string>> typed_offsets) {
  // In offset order, arguments at one offset in their own order.
  std::vector<size_t> order(typed_offsets.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&typed_offsets](size_t a, size_t b) {
    return typed_offsets[a].first != typed_offsets[b].first
               ? typed_offsets[a].first < typed_offsets[b].first
               : a < b;
  });
  // Each run of one type from its first offset; a later argument at an offset already typed
  // by another type at the same offset loses.
  std::vector<std::pair<size_t, std::string>> starts;
  for (size_t i : order) {
    const auto& [offset, type] = typed_offsets[i];
    if (offset >= size) continue;
    if (!starts.empty() && starts.back().first == offset) continue;
    if (!starts.empty() && starts.back().second == type) continue;
    starts.push_back({offset, type});
  }
  std::vector<TypedRegion> regions;
  AddRegion(&regions, 0, starts.empty() ? size : starts.front().first, ElementTypeOf("byte"));
  for (size_t i = 0; i < starts.size(); ++i) {
    const size_t end = i + 1 < starts.size() ? starts[i + 1].first : size;
    AddRegion(&regions, starts[i].first, end, ElementTypeOf(starts[i].second));
  }
  return regions;
}

std::optional<Mismatch> CompareBuffer(const std::vector<TypedRegion>& regions, const uint8_t* cpu,
                                      const uint8_t* gpu, size_t size) {
  Mismatch mismatch;
  for (const TypedRegion& region : regions) {
    const size_t step = region.type.size;
    for (size_t byte = region.begin; byte + step <= std::min(region.end, size); byte += step) {
      ++mismatch.elements;
      double error = 0;
      const bool match = ElementsMatch(region.type, cpu + byte, gpu + byte, &error);
      if (!(error <= mismatch.max_error)) mismatch.max_error = error;  // NaN-safe
      if (match) continue;
      if (mismatch.differing++ == 0) {
        mismatch.byte = byte;
        mismatch.element = (byte - region.begin % step) / step;
        mismatch.type = region.type.name;
        mismatch.gpu = ValueText(region.type, gpu + byte);
        mismatch.cpu = ValueText(region.type, cpu + byte);
      }
    }
  }
  if (mismatch.differing == 0) return std::nullopt;
  return mismatch;
}

std::string DescribeMismatch(const Mismatch& mismatch) {
  char error[32];
  std::snprintf(error, sizeof(error), "%.3g", mismatch.max_error);
  return "element " + std::to_string(mismatch.element) + " (byte " + std::to_string(mismatch.byte) +
         ", " + mismatch.type + "): gpu " + mismatch.gpu + " cpu " + mismatch.cpu + ", max error " +
         error + ", " + std::to_string(mismatch.differing) + " of " +
         std::to_string(mismatch.elements) + " elements differ";
}

}  // namespace tcpu::replay
