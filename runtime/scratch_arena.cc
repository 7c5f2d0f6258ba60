#include "runtime/scratch_arena.h"

#include <cstdlib>
#include <new>

#include "runtime/check.h"
#include "tcpu/scratch.h"

namespace tcpu {
namespace {


// One per thread; grows geometrically so a slowly growing size reallocates rarely.
struct Arena {
  void* data = nullptr;
  int64_t capacity = 0;
  ~Arena() { std::free(data); }
};

thread_local Arena arena;

bool Grow(int64_t bytes) {
  if (bytes <= arena.capacity) return true;
  int64_t want = bytes;
  if (arena.capacity > 0 && arena.capacity <= INT64_MAX / 2) {
    want = bytes > 2 * arena.capacity ? bytes : 2 * arena.capacity;
  }
  want = AlignScratch(want);
  void* fresh = std::aligned_alloc(kScratchAlignment, static_cast<size_t>(want));
  if (fresh == nullptr && want > bytes) {  // Retry without the geometric headroom.
    want = (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
    fresh = std::aligned_alloc(kScratchAlignment, static_cast<size_t>(want));
  }
  if (fresh == nullptr) return false;
  std::free(arena.data);
  arena.data = fresh;
  arena.capacity = want;
  return true;
}

}  // namespace

void* ScratchBytes(int64_t bytes) {
  if (bytes < 0 || bytes > INT64_MAX - kScratchAlignment) return nullptr;
  if (!Grow(bytes == 0 ? 1 : bytes)) return nullptr;
  return arena.data;
}

}  // namespace tcpu

extern "C" int tcpu_scratch_reserve(int64_t bytes) {
  if (bytes < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "tcpu_scratch_reserve: bytes = %lld, expected >= 0",
                      static_cast<long long>(bytes));
  }
  if (tcpu::ScratchBytes(bytes) == nullptr) {
    return tcpu::Fail(TCPU_ERR_OUT_OF_MEMORY, "tcpu_scratch_reserve: cannot allocate %lld bytes",
                      static_cast<long long>(bytes));
  }
  return tcpu::Succeed();
}

extern "C" int64_t tcpu_scratch_capacity(void) { return tcpu::arena.capacity; }
