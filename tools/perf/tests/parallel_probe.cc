// The plugin's parallel-balance test program: tcpu::ParallelFor over units of a known loop
// (tcpu_count_probe_loop, count_probe.cc's), inside region "step", so count_plugin_test can
// check what the plugin makes of the thread pool's markers.
//   parallel_probe UNITS ITERATIONS REGIONS: REGIONS parallel regions of UNITS units each, every
//   unit one loop of ITERATIONS, and one loop of ITERATIONS on the calling thread before them
//   (serial work). Threads: TCPU_NUM_THREADS.
#include <cstdio>
#include <cstdlib>

#include "runtime/thread_pool.h"
#include "tcpu/perf.h"
#include "tools/perf/tests/probe_loop.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: parallel_probe UNITS ITERATIONS REGIONS\n");
    return 2;
  }
  const long units = std::strtol(argv[1], nullptr, 10);
  const long iterations = std::strtol(argv[2], nullptr, 10);
  const long regions = std::strtol(argv[3], nullptr, 10);
  if (units < 1 || iterations < 1 || regions < 1) {
    std::fprintf(stderr, "parallel_probe: UNITS, ITERATIONS and REGIONS must be >= 1\n");
    return 2;
  }
  tcpu_perf_region_begin("step");
  tcpu_count_probe_loop(iterations);
  for (long r = 0; r < regions; ++r) {
    const int status = tcpu::ParallelFor(units, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) tcpu_count_probe_loop(iterations);
    });
    if (status != 0) {
      std::fprintf(stderr, "parallel_probe: ParallelFor failed with %d\n", status);
      return 1;
    }
  }
  tcpu_perf_region_end("step");
  return 0;
}
