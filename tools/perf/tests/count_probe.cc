// The plugin's test program: a loop in assembly whose instruction count is known exactly,
// run inside regions, so count_plugin_test can check per-symbol and per-region counts.
//   count_probe ITERATIONS: calls the loop once with ITERATIONS inside region "loop", twice
//   inside region "outer" (nested around a second "loop"), and with 0 outside any region.
#include <cstdio>
#include <cstdlib>

#include "tcpu/perf.h"

// Executes 1 + 2 * iterations + 1 instructions (iterations >= 1): mov, (subs, b.ne) x n, ret.
extern "C" void tcpu_count_probe_loop(long iterations);
__asm__(
    ".text\n"
    ".p2align 2\n"
    ".globl tcpu_count_probe_loop\n"
    ".type tcpu_count_probe_loop, %function\n"
    "tcpu_count_probe_loop:\n"
    "  mov x1, x0\n"
    "1:\n"
    "  subs x1, x1, #1\n"
    "  b.ne 1b\n"
    "  ret\n"
    ".size tcpu_count_probe_loop, . - tcpu_count_probe_loop\n");

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
