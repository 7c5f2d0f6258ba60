// Shared pieces of the kernel benchmarks: cheap weights and the thread-count argument.
#ifndef TCPU_RUNTIME_TESTING_BENCHMARK_UTIL_H_
#define TCPU_RUNTIME_TESTING_BENCHMARK_UTIL_H_

#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"

namespace tcpu::testing {

// Deterministic int8 values from a xorshift generator: random-looking, and cheap enough to
// fill hundreds of MB under emulation (std::mt19937 is not).
std::vector<int8_t> CheapInt8(int64_t count, uint32_t seed);

// Sets the runtime's thread count for a benchmark: 0 = the pool's default (the fastest
// cluster, or TCPU_NUM_THREADS, as read before any benchmark changed it), else that many.
// Returns false after SkipWithError if the runtime refuses.
bool SetBenchmarkThreads(benchmark::State& state, int64_t threads);

}  // namespace tcpu::testing

#endif  // TCPU_RUNTIME_TESTING_BENCHMARK_UTIL_H_
