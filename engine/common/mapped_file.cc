#include "engine/common/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace tcpu::engine {

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    Reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() { Reset(); }

void MappedFile::Reset() {
  if (data_ != nullptr && size_ > 0) munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

bool MappedFile::Open(const std::string& path, std::string* error) {
  Reset();
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = path + ": not a regular file";
    close(fd);
    return false;
  }
  if (st.st_size > 0) {
    void* map = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      *error = path + ": cannot map: " + std::strerror(errno);
      close(fd);
      return false;
    }
    data_ = static_cast<const uint8_t*>(map);
  } else {
    static const uint8_t kEmpty = 0;
    data_ = &kEmpty;  // size 0: never read, never unmapped
  }
  size_ = st.st_size;
  close(fd);
  return true;
}

bool ReadTextFile(const std::string& path, std::string* text, std::string* error) {
  MappedFile file;
  if (!file.Open(path, error)) return false;
  if (file.size() > (int64_t{64} << 20)) {
    *error = path + ": " + std::to_string(file.size()) + " bytes is too large for a JSON file";
    return false;
  }
  text->assign(reinterpret_cast<const char*>(file.data()), static_cast<size_t>(file.size()));
  return true;
}

}  // namespace tcpu::engine
