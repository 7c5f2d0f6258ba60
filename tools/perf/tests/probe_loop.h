// The probes' loop of known length, in assembly so no compiler changes it.
#ifndef TOOLS_PERF_TESTS_PROBE_LOOP_H_
#define TOOLS_PERF_TESTS_PROBE_LOOP_H_

// Executes 1 + 2 * iterations + 1 instructions (iterations >= 1): mov, (subs, b.ne) x n, ret.
extern "C" void tcpu_count_probe_loop(long iterations);

#endif  // TOOLS_PERF_TESTS_PROBE_LOOP_H_
