// One launch record of a corpus (tools/triton_capture/FORMAT.md, launches/ID.json) as the replay
// needs it: the grid, one entry per TTIR argument and the buffers with their blobs' paths.
#ifndef TCPU_TESTS_TRITON_REPLAY_LAUNCH_RECORD_H_
#define TCPU_TESTS_TRITON_REPLAY_LAUNCH_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace tcpu::replay {

struct ArgRecord {
  enum class Kind { kPtr, kScalar, kDesc };
  Kind kind = Kind::kPtr;
  // ptr, desc: the buffer's id and the byte offset into it.
  int64_t buffer = 0;
  int64_t offset = 0;
  // scalar: the TTIR type ("i32", "bf16", ...) and its value, exact: integers as written (the
  // JSON number's two's-complement 64 bits), floats as the IEEE bits of `type` ("bits").
  std::string type;
  uint64_t value_bits = 0;
  // desc: shape and strides in elements, outermost first.
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

struct BufferRecord {
  int64_t id = 0;
  int64_t nbytes = 0;
  std::string before;  // blob paths, relative to the corpus root
  std::string after;
  // Present when the launch wrote the bytes the buffer already held (FORMAT.md): the launch
  // again from `before` with the buffer filled with `fill` leaves `after` in it.
  struct Poisoned {
    int fill = 0;
    std::string after;
  };
  std::optional<Poisoned> poisoned;
};

struct LaunchRecord {
  std::string id;
  std::string kernel;
  std::string ttir;
  int32_t grid[3] = {1, 1, 1};
  std::vector<ArgRecord> args;
  std::vector<BufferRecord> buffers;
};

// Reads a record from its JSON. On malformed input returns false with *error naming the field
// and what was expected ("args[2].bits: expected a hex string such as \"0x3f800000\", got 1").
// Scalar values are range-checked against their TTIR type.
bool ParseLaunchRecord(const nlohmann::json& json, LaunchRecord* record, std::string* error);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_LAUNCH_RECORD_H_
