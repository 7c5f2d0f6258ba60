// Per-thread scratch memory for kernels (public controls: tcpu/scratch.h).
#ifndef TCPU_RUNTIME_SCRATCH_ARENA_H_
#define TCPU_RUNTIME_SCRATCH_ARENA_H_

#include <cstdint>

namespace tcpu {

// Scratch and workspace buffers are 64-byte aligned (a cache line, and any SVE vector's
// natural alignment up to 512 bits); slots inside one are laid out at multiples of it.
inline constexpr int64_t kScratchAlignment = 64;

// `bytes` rounded up to a multiple of kScratchAlignment (bytes >= 0, not near INT64_MAX).
inline int64_t AlignScratch(int64_t bytes) {
  return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
}

// At least `bytes` of 64-byte aligned memory owned by the calling thread, valid until its
// next ScratchBytes call; grows (allocates) only past the largest size seen so far.
// nullptr if memory cannot be had (then the caller returns TCPU_ERR_OUT_OF_MEMORY).
void* ScratchBytes(int64_t bytes);

}  // namespace tcpu

#endif  // TCPU_RUNTIME_SCRATCH_ARENA_H_
