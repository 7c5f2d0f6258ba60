// The kernels' view of the thread pool (public controls: tcpu/threads.h).
#ifndef TCPU_RUNTIME_THREAD_POOL_H_
#define TCPU_RUNTIME_THREAD_POOL_H_

#include <cstdint>
#include <type_traits>

namespace tcpu {

using RangeFn = void (*)(void* context, int64_t begin, int64_t end);

// Splits [0, count) into at most NumThreads() contiguous ranges of at least `min_grain`
// items (static partitioning: thread t always gets the t-th range), runs them on the pool
// and returns when all are done. Runs inline when one range suffices, when called from
// inside a pool task, or when another thread is using the pool. Returns a tcpu_status
// (TCPU_ERR_INVALID_ENV / TCPU_ERR_THREADS if the pool cannot start; nothing ran then).
int ParallelForRaw(int64_t count, int64_t min_grain, RangeFn fn, void* context);

// ParallelFor(count, grain, [&](int64_t begin, int64_t end) { ... }): no allocation.
template <typename F>
int ParallelFor(int64_t count, int64_t min_grain, F&& body) {
  using Body = std::remove_reference_t<F>;
  return ParallelForRaw(
      count, min_grain,
      [](void* context, int64_t begin, int64_t end) {
        (*static_cast<Body*>(context))(begin, end);
      },
      const_cast<void*>(static_cast<const void*>(&body)));
}

// Threads the pool runs (starting it if needed), or a negative tcpu_status.
int NumThreads();

}  // namespace tcpu

#endif  // TCPU_RUNTIME_THREAD_POOL_H_
