// A launch's buffer: `size` bytes 64-byte aligned (as a GPU allocation is at least), between
// two 64-byte guards of a known pattern, so that a kernel writing past either end is caught.
#ifndef TCPU_TESTS_TRITON_REPLAY_GUARDED_BUFFER_H_
#define TCPU_TESTS_TRITON_REPLAY_GUARDED_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tcpu::replay {

class GuardedBuffer {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kGuardBytes = 64;

  // False when the memory cannot be had (a size the record got wrong, say).
  bool Allocate(size_t size);

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // Copies `bytes` (size() of them) in, or fills with `value`; the guards are laid again.
  void Fill(const std::string& bytes);
  void Fill(uint8_t value);

  // Empty when both guards hold their pattern; otherwise where the first changed byte is
  // ("byte 3 past the end", "byte 8 before the start").
  std::string CheckGuards() const;

 private:
  void LayGuards();

  std::unique_ptr<uint8_t, void (*)(void*)> memory_{nullptr, nullptr};
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_GUARDED_BUFFER_H_
