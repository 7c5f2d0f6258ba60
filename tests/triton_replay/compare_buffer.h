// Comparing a buffer the CPU kernel left with the bytes the GPU left, element by element in the
// types of the pointer arguments into it (tools/triton_capture/FORMAT.md, "Comparing").
#ifndef TCPU_TESTS_TRITON_REPLAY_COMPARE_BUFFER_H_
#define TCPU_TESTS_TRITON_REPLAY_COMPARE_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/triton_replay/element_type.h"

namespace tcpu::replay {

// Bytes [begin, end) of a buffer, compared as elements of `type` from `begin` on.
struct TypedRegion {
  size_t begin = 0;
  size_t end = 0;
  ElementType type;
};

// The regions of a `size`-byte buffer typed by the arguments into it, each given as (byte offset,
// TTIR element type): an argument types the bytes from its offset up to the next offset of an
// argument of another type (in offset order; at one offset the first argument wins), or the end.
// Bytes before the first argument, and a tail too short for one element, compare as bytes.
std::vector<TypedRegion> TypeRegions(size_t size,
                                     std::vector<std::pair<size_t, std::string>> typed_offsets);

// The first element that differs, and how much the buffer differs overall.
struct Mismatch {
  size_t byte = 0;     // where the element starts in the buffer
  size_t element = 0;  // its index counted in elements of its type from the buffer's start
  std::string type;    // its type
  std::string gpu;     // the two values, as text
  std::string cpu;
  double max_error = 0;  // the largest |cpu - gpu| over the buffer (inf where NaN or inf differ)
  size_t differing = 0;  // elements that differ, of `elements`
  size_t elements = 0;
};

// Compares `cpu` with `gpu` (both `size` bytes) region by region; nullopt when they match.
std::optional<Mismatch> CompareBuffer(const std::vector<TypedRegion>& regions, const uint8_t* cpu,
                                      const uint8_t* gpu, size_t size);

// "element 37 (byte 148, f32): gpu 0.25 cpu 0.2503, max error 0.0003, 2 of 1024 elements differ"
std::string DescribeMismatch(const Mismatch& mismatch);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_COMPARE_BUFFER_H_
