// A JSON file read and parsed in one call, with nlohmann's parser compiled in this one unit.
#ifndef TCPU_TESTS_TRITON_REPLAY_JSON_FILE_H_
#define TCPU_TESTS_TRITON_REPLAY_JSON_FILE_H_

#include <string>

#include "nlohmann/json.hpp"

namespace tcpu::replay {

// Reads `path` into *out. On failure returns false with *error saying why ("cannot open: No
// such file or directory", or the parser's message); never throws.
bool ReadJsonFile(const std::string& path, nlohmann::json* out, std::string* error);

// The bytes of `path` into *out; false with *error ("cannot open: ...") otherwise.
bool ReadBinaryFile(const std::string& path, std::string* out, std::string* error);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_JSON_FILE_H_
