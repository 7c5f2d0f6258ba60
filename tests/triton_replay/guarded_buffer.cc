#include "tests/triton_replay/guarded_buffer.h"

#include <cstdlib>
#include <cstring>

namespace tcpu::replay {
namespace {

// The guard pattern: no constant byte a kernel is likely to write (zero, 0xff, a fill).
uint8_t GuardByte(size_t i) { return static_cast<uint8_t>(0xa5 ^ (i * 29)); }

}  // namespace

bool GuardedBuffer::Allocate(size_t size) {
  if (size > (SIZE_MAX - 3 * kAlignment) / 2) return false;
  // Rounded up so that the trailing guard starts right at the end of the data.
  const size_t total =
      (kGuardBytes + size + kGuardBytes + kAlignment - 1) / kAlignment * kAlignment;
  void* memory = std::aligned_alloc(kAlignment, total);
  if (memory == nullptr) return false;
  memory_ = {static_cast<uint8_t*>(memory), std::free};
  data_ = memory_.get() + kGuardBytes;
  size_ = size;
  LayGuards();
  return true;
}

void GuardedBuffer::LayGuards() {
  for (size_t i = 0; i < kGuardBytes; ++i) {
    data_[-1 - static_cast<ptrdiff_t>(i)] = GuardByte(i);
    data_[size_ + i] = GuardByte(i);
  }
}

void GuardedBuffer::Fill(const std::string& bytes) {
  std::memcpy(data_, bytes.data(), size_);
  LayGuards();
}

void GuardedBuffer::Fill(uint8_t value) {
  std::memset(data_, value, size_);
  LayGuards();
}

std::string GuardedBuffer::CheckGuards() const {
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (data_[-1 - static_cast<ptrdiff_t>(i)] != GuardByte(i)) {
      return "byte " + std::to_string(i + 1) + " before the start";
    }
  }
  for (size_t i = 0; i < kGuardBytes; ++i) {
    if (data_[size_ + i] != GuardByte(i)) return "byte " + std::to_string(i) + " past the end";
  }
  return "";
}

}  // namespace tcpu::replay
