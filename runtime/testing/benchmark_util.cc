#include "runtime/testing/benchmark_util.h"

#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu::testing {

std::vector<int8_t> CheapInt8(int64_t count, uint32_t seed) {
  std::vector<int8_t> v(static_cast<size_t>(count));
  uint32_t s = seed * 2654435761u + 1;
  for (int8_t& e : v) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    e = static_cast<int8_t>(s);
  }
  return v;
}

bool SetBenchmarkThreads(benchmark::State& state, int64_t threads) {
  static const int default_threads = tcpu_get_num_threads();
  const int want = threads > 0 ? static_cast<int>(threads) : default_threads;
  if (want < 1 || tcpu_set_num_threads(want) != TCPU_OK) {
    state.SkipWithError(tcpu_last_error_detail());
    return false;
  }
  return true;
}

}  // namespace tcpu::testing
