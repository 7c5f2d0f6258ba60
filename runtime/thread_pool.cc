// The persistent thread pool behind tcpu::ParallelFor and tcpu/threads.h.
//
// Workers wait for a generation counter to change (spinning briefly, then yielding, then
// sleeping on a condition variable), run their static range, and count down a shared
// counter the caller waits on. Worker t is pinned to cpus_[t]; the calling thread only
// waits, so a caller on a little core never becomes the straggler.
//
// Shrinking (tcpu_set_num_threads to fewer threads) keeps the workers beyond the new count,
// asleep: a Triton launcher's `threads` hint sets its count and restores the caller's around
// every launch, and stopping and starting threads each time cost more than a small grid's
// work (90 k guest instructions for two threads). Only growing past the started workers
// starts the pool again.
//
// Each parallel region is marked for tools/perf's counting plugin (tcpu/perf.h): the caller's
// wait as kParallelRegion, every active worker's range (empty ones too: an idle core is part
// of the balance) as kShareRegion. Without the plugin a marker is a call of three instructions.
#include "runtime/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/check.h"
#include "runtime/cpu_topology.h"
#include "tcpu/perf.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

constexpr int kMaxThreads = 1024;
constexpr int kSpinIterations = 2000;
constexpr int kYieldIterations = 200;
constexpr char kParallelRegion[] = TCPU_PERF_PARALLEL_REGION;
constexpr char kShareRegion[] = TCPU_PERF_PARALLEL_SHARE_REGION;

thread_local bool in_pool_task = false;

inline void CpuRelax() {
#if defined(__aarch64__)
  __asm__ __volatile__("yield");
#elif defined(__x86_64__)
  __builtin_ia32_pause();
#endif
}

// What the pool should run on: from TCPU_CPUS / TCPU_NUM_THREADS / an explicit count.
struct Placement {
  int status = TCPU_OK;
  std::string error;
  std::vector<int> cpus;  // cpus[t] for thread t; -1 = unpinned
};

Placement Plan(int requested_threads) {
  Placement p;
  const std::vector<int> allowed = AllowedCpus();
  std::vector<int> candidates;
  if (const char* env = std::getenv("TCPU_CPUS"); env != nullptr && *env != '\0') {
    std::string error;
    if (!ParseCpuList(env, &candidates, &error)) {
      p.status = TCPU_ERR_INVALID_ENV;
      p.error = "TCPU_CPUS: " + error;
      return p;
    }
    for (int id : candidates) {
      bool ok = false;
      for (int a : allowed) ok = ok || a == id;
      if (!ok && !allowed.empty()) {
        p.status = TCPU_ERR_INVALID_ENV;
        p.error = "TCPU_CPUS='" + std::string(env) + "': CPU " + std::to_string(id) +
                  " is not available to this process";
        return p;
      }
    }
  } else {
    candidates = FastestCluster(ReadCpuDescriptions(kSysfsCpuRoot, allowed));
  }

  int threads = requested_threads;
  if (threads <= 0) {
    threads = candidates.empty() ? 1 : static_cast<int>(candidates.size());
    if (const char* env = std::getenv("TCPU_NUM_THREADS"); env != nullptr && *env != '\0') {
      char* end = nullptr;
      const long n = std::strtol(env, &end, 10);
      if (end == env || *end != '\0' || n < 1 || n > kMaxThreads) {
        p.status = TCPU_ERR_INVALID_ENV;
        p.error = "TCPU_NUM_THREADS='" + std::string(env) + "': expected an integer in 1.." +
                  std::to_string(kMaxThreads);
        return p;
      }
      threads = static_cast<int>(n);
    }
  }
  for (int t = 0; t < threads; ++t) {
    p.cpus.push_back(candidates.empty() ? -1 : candidates[t % candidates.size()]);
  }
  return p;
}

class Pool {
 public:
  static Pool& Instance() {
    static Pool* pool = new Pool();  // Never destroyed: workers may outlive static teardown.
    return *pool;
  }

  // Starts the pool with the default placement if it is not running.
  int EnsureStarted() {
    if (started_.load(std::memory_order_acquire)) return status_;
    std::lock_guard<std::mutex> lock(run_mutex_);
    if (!started_.load(std::memory_order_relaxed)) StartLocked(0);
    return status_;
  }

  int Resize(int threads) {
    std::lock_guard<std::mutex> lock(run_mutex_);
    if (started_.load(std::memory_order_relaxed) && status_ == TCPU_OK &&
        threads <= static_cast<int>(placement_.cpus.size())) {
      active_.store(threads, std::memory_order_relaxed);  // The first `threads`, as placed.
      return status_;
    }
    StopLocked();
    StartLocked(threads);
    return status_;
  }

  int Run(int64_t count, int64_t min_grain, RangeFn fn, void* context) {
    if (count <= 0) return TCPU_OK;
    if (min_grain < 1) min_grain = 1;
    const int64_t max_ranges = (count + min_grain - 1) / min_grain;
    if (max_ranges <= 1 || in_pool_task) {
      fn(context, 0, count);
      return TCPU_OK;
    }
    if (int status = EnsureStarted(); status != TCPU_OK) return status;
    std::unique_lock<std::mutex> lock(run_mutex_, std::try_to_lock);
    const int active = active_.load(std::memory_order_relaxed);
    if (!lock.owns_lock() || active <= 1) {  // Busy, or a single thread.
      fn(context, 0, count);
      return TCPU_OK;
    }
    const int64_t threads = active;
    fn_ = fn;
    context_ = context;
    count_ = count;
    ranges_ = static_cast<int>(max_ranges < threads ? max_ranges : threads);
    tcpu_perf_region_begin(kParallelRegion);
    pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> sleep_lock(sleep_mutex_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (int spin = 0; pending_.load(std::memory_order_acquire) != 0; ++spin) {
      if (spin < kSpinIterations) {
        CpuRelax();
      } else {
        std::this_thread::yield();
      }
    }
    tcpu_perf_region_end(kParallelRegion);
    return TCPU_OK;
  }

  int Threads() {
    const int status = EnsureStarted();
    if (status != TCPU_OK) return status;
    return active_.load(std::memory_order_relaxed);
  }

  int Cpus(int* out, int capacity) {
    const int status = EnsureStarted();
    if (status != TCPU_OK) return status;
    const int n = active_.load(std::memory_order_relaxed);
    for (int i = 0; i < n && i < capacity; ++i) out[i] = placement_.cpus[i];
    return n;
  }

  const std::string& Error() const { return placement_.error; }

 private:
  void StartLocked(int threads) {
    placement_ = Plan(threads);
    status_ = placement_.status;
    active_.store(std::max<int>(1, static_cast<int>(placement_.cpus.size())),
                  std::memory_order_relaxed);
    stop_.store(false, std::memory_order_relaxed);
    if (status_ == TCPU_OK && placement_.cpus.size() > 1) {
      try {
        // Workers start from the generation of now: a region posted before a worker gets
        // scheduled must still be seen as new by it.
        const uint64_t start_generation = generation_.load(std::memory_order_relaxed);
        for (size_t t = 0; t < placement_.cpus.size(); ++t) {
          workers_.emplace_back(
              [this, t, start_generation] { WorkerLoop(static_cast<int>(t), start_generation); });
        }
      } catch (const std::system_error&) {
        StopLocked();
        status_ = TCPU_ERR_THREADS;
        placement_.error = "cannot start " + std::to_string(placement_.cpus.size()) + " threads";
      }
    }
    started_.store(true, std::memory_order_release);
  }

  void StopLocked() {
    {
      std::lock_guard<std::mutex> sleep_lock(sleep_mutex_);
      stop_.store(true, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& w : workers_) w.join();
    workers_.clear();
    started_.store(false, std::memory_order_release);
  }

  void WorkerLoop(int t, uint64_t seen) {
    if (const int cpu = placement_.cpus[t]; cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      // Best effort: a sandbox may forbid pinning; the work is still done.
      pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    }
    in_pool_task = true;
    for (;;) {
      uint64_t now = 0;
      for (int spin = 0;; ++spin) {
        now = generation_.load(std::memory_order_acquire);
        if (now != seen || stop_.load(std::memory_order_acquire)) break;
        if (spin < kSpinIterations) {
          CpuRelax();
        } else if (spin < kSpinIterations + kYieldIterations) {
          std::this_thread::yield();
        } else {
          std::unique_lock<std::mutex> lock(sleep_mutex_);
          wake_.wait(lock, [&] {
            return generation_.load(std::memory_order_acquire) != seen ||
                   stop_.load(std::memory_order_acquire);
          });
          spin = 0;
        }
      }
      if (stop_.load(std::memory_order_acquire)) return;
      seen = now;
      if (t < active_.load(std::memory_order_relaxed)) {  // Kept past a shrink: count down.
        tcpu_perf_region_begin(kShareRegion);
        if (t < ranges_) {
          const int64_t begin = count_ * t / ranges_;
          const int64_t end = count_ * (t + 1) / ranges_;
          if (begin < end) fn_(context_, begin, end);
        }
        tcpu_perf_region_end(kShareRegion);
      }
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  std::mutex run_mutex_;  // One parallel region (or resize) at a time.
  std::atomic<bool> started_{false};
  int status_ = TCPU_OK;
  Placement placement_;  // of every started worker
  std::vector<std::thread> workers_;
  // Workers that take ranges, the first active_: written between regions (under run_mutex_),
  // read by workers during one and by tcpu_get_num_threads at any time.
  std::atomic<int> active_{1};

  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> pending_{0};

  // The current region, written before generation_ is bumped.
  RangeFn fn_ = nullptr;
  void* context_ = nullptr;
  int64_t count_ = 0;
  int ranges_ = 0;
};

}  // namespace

int ParallelForRaw(int64_t count, int64_t min_grain, RangeFn fn, void* context) {
  const int status = Pool::Instance().Run(count, min_grain, fn, context);
  if (status != TCPU_OK) return Fail(status, "thread pool: %s", Pool::Instance().Error().c_str());
  return TCPU_OK;
}

int NumThreads() { return Pool::Instance().Threads(); }

}  // namespace tcpu

extern "C" int tcpu_set_num_threads(int num_threads) {
  if (num_threads < 1 || num_threads > tcpu::kMaxThreads) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "tcpu_set_num_threads: num_threads = %d, expected 1..%d", num_threads,
                      tcpu::kMaxThreads);
  }
  const int status = tcpu::Pool::Instance().Resize(num_threads);
  if (status != TCPU_OK) {
    return tcpu::Fail(status, "tcpu_set_num_threads: %s", tcpu::Pool::Instance().Error().c_str());
  }
  return tcpu::Succeed();
}

extern "C" int tcpu_get_num_threads(void) {
  const int n = tcpu::Pool::Instance().Threads();
  if (n < 0) {
    return tcpu::Fail(n, "tcpu_get_num_threads: %s", tcpu::Pool::Instance().Error().c_str());
  }
  return n;
}

extern "C" int tcpu_get_thread_cpus(int* cpus, int capacity) {
  if (capacity < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "tcpu_get_thread_cpus: capacity = %d, expected >= 0",
                      capacity);
  }
  if (capacity > 0) TCPU_CHECK_NOT_NULL("tcpu_get_thread_cpus", cpus);
  const int n = tcpu::Pool::Instance().Cpus(cpus, capacity);
  if (n < 0) {
    return tcpu::Fail(n, "tcpu_get_thread_cpus: %s", tcpu::Pool::Instance().Error().c_str());
  }
  return n;
}
