// Per-thread scratch memory for kernels (public controls: tcpu/scratch.h).
#ifndef TCPU_RUNTIME_SCRATCH_ARENA_H_
#define TCPU_RUNTIME_SCRATCH_ARENA_H_

#include <cstdint>

namespace tcpu {

// At least `bytes` of 64-byte aligned memory owned by the calling thread, valid until its
// next ScratchBytes call; grows (allocates) only past the largest size seen so far.
// nullptr if memory cannot be had (then the caller returns TCPU_ERR_OUT_OF_MEMORY).
void* ScratchBytes(int64_t bytes);

}  // namespace tcpu

#endif  // TCPU_RUNTIME_SCRATCH_ARENA_H_
