// Whole small files (JSON configs) into memory, for the engine's loaders.
#ifndef TCPU_ENGINE_COMMON_READ_FILE_H_
#define TCPU_ENGINE_COMMON_READ_FILE_H_

#include <string>

namespace tcpu::engine {

// The contents of `path`; false if it cannot be opened or read.
bool ReadFile(const std::string& path, std::string* contents);

// Whether `path` names a directory.
bool IsDirectory(const std::string& path);

// `path` itself, or `path`/`file_name` when `path` is a directory (models are often named
// by their directory).
std::string FileInDirectory(const std::string& path, const char* file_name);

}  // namespace tcpu::engine

#endif  // TCPU_ENGINE_COMMON_READ_FILE_H_
