#include "tests/triton_replay/json_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tcpu::replay {

bool ReadBinaryFile(const std::string& path, std::string* out, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  std::ostringstream bytes;
  bytes << file.rdbuf();
  if (file.bad()) {
    *error = "cannot read it whole";
    return false;
  }
  *out = std::move(bytes).str();
  return true;
}

bool ReadJsonFile(const std::string& path, nlohmann::json* out, std::string* error) {
  std::string text;
  if (!ReadBinaryFile(path, &text, error)) return false;
  try {
    *out = nlohmann::json::parse(text);
    return true;
  } catch (const nlohmann::json::exception& e) {
    *error = std::string("not JSON: ") + e.what();
  }
  *out = nullptr;
  return false;
}

}  // namespace tcpu::replay
