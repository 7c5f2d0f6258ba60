// The one way kernels split work across the thread pool: the units of up to kMaxUnitJobs
// jobs (e.g. the matrices of several GEMVs that share one activation vector) form one index
// space run in one parallel region. Small work stays on the calling thread (waking workers
// costs more than it saves); larger work goes out in tasks of at least kMinMacsPerTask.
// Every unit is computed whole by one thread, so results do not depend on the split.
#ifndef TCPU_RUNTIME_PARALLEL_UNITS_H_
#define TCPU_RUNTIME_PARALLEL_UNITS_H_

#include <cstdint>

#include "runtime/thread_pool.h"
#include "tcpu/status.h"

namespace tcpu {

inline constexpr int kMaxUnitJobs = 4;
inline constexpr int64_t kParallelMacs = int64_t{1} << 18;
inline constexpr int64_t kMinMacsPerTask = int64_t{1} << 17;

// Runs run(job, unit_begin, unit_end) over units[job] units of each of `count` (1 ..
// kMaxUnitJobs) jobs, unit u of job j costing macs_per_unit[j] multiply-accumulates (the
// split uses their average). Returns a tcpu_status (only the thread pool can fail).
template <typename Run>
int ParallelForUnits(const int64_t* units, const int64_t* macs_per_unit, int count, Run&& run) {
  // Unit u of job j is entry first[j] + u of the shared index space.
  int64_t first[kMaxUnitJobs + 1] = {0};
  int64_t macs = 0;
  for (int j = 0; j < count; ++j) {
    first[j + 1] = first[j] + units[j];
    macs += units[j] * macs_per_unit[j];
  }
  const int64_t total = first[count];
  auto run_range = [&](int64_t begin, int64_t end) {
    for (int j = 0; j < count && begin < end; ++j) {
      if (begin >= first[j + 1]) continue;
      const int64_t last = end < first[j + 1] ? end : first[j + 1];
      run(j, begin - first[j], last - first[j]);
      begin = last;
    }
  };
  if (total == 0) return TCPU_OK;
  if (macs < kParallelMacs) {
    run_range(0, total);
    return TCPU_OK;
  }
  const int64_t macs_per_entry = macs / total;
  const int64_t grain = macs_per_entry >= kMinMacsPerTask ? 1 : kMinMacsPerTask / macs_per_entry;
  return ParallelFor(total, grain, run_range);
}

}  // namespace tcpu

#endif  // TCPU_RUNTIME_PARALLEL_UNITS_H_
