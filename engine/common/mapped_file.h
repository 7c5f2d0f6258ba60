// A read-only memory map of a whole file (released on destruction).
#ifndef TCPU_ENGINE_COMMON_MAPPED_FILE_H_
#define TCPU_ENGINE_COMMON_MAPPED_FILE_H_

#include <cstdint>
#include <string>

namespace tcpu::engine {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  ~MappedFile();

  // Maps `path`; false with *error naming the path and the system error.
  bool Open(const std::string& path, std::string* error);

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }

 private:
  void Reset();
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
};

// Reads a whole (small) text file; false with *error naming the path.
bool ReadTextFile(const std::string& path, std::string* text, std::string* error);

}  // namespace tcpu::engine

#endif  // TCPU_ENGINE_COMMON_MAPPED_FILE_H_
