#include "engine/common/read_file.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace tcpu::engine {

bool ReadFile(const std::string& path, std::string* contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return false;
  *contents = buffer.str();
  return true;
}

bool IsDirectory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string FileInDirectory(const std::string& path, const char* file_name) {
  return IsDirectory(path) ? path + "/" + file_name : path;
}

}  // namespace tcpu::engine
