// The plugin's test program: a loop in assembly whose instruction count is known exactly,
// run inside regions, so count_plugin_test can check per-symbol and per-region counts.
//   count_probe ITERATIONS: calls the loop once with ITERATIONS inside region "loop", twice
//   inside region "outer" (nested around a second "loop"), and with 0 outside any region.
#include <cstdio>
#include <cstdlib>

#include "tcpu/perf.h"
#include "tools/perf/tests/probe_loop.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: count_probe ITERATIONS\n");
    return 2;
  }
  const long iterations = std::strtol(argv[1], nullptr, 10);
  if (iterations < 1) {
    std::fprintf(stderr, "count_probe: ITERATIONS must be >= 1, got '%s'\n", argv[1]);
    return 2;
  }
  tcpu_perf_region_begin("loop");
  tcpu_count_probe_loop(iterations);
  tcpu_perf_region_end("loop");
  tcpu_perf_region_begin("outer");
  tcpu_count_probe_loop(iterations);
  tcpu_perf_region_begin("loop");
  tcpu_count_probe_loop(iterations);
  tcpu_perf_region_end("loop");
  tcpu_perf_region_end("outer");
  tcpu_count_probe_loop(1);
  return 0;
}
