/* Instruction-count regions: tools/perf's QEMU plugin counts the guest instructions a thread
 * executes between tcpu_perf_region_begin(name) and tcpu_perf_region_end(name).
 *
 * Without the plugin both are no-ops of a few instructions (a call, a byte load, a return),
 * so benchmarks and gates may keep them in place. The plugin recognises the two functions by
 * their symbol names and reads `name` through the byte load, which is why they are functions
 * in the runtime and never inlined. They return nothing: a marker has nothing to check.
 *
 *   tcpu_perf_region_begin("gemv_i8 n=512 k=2048");
 *   tcpu_gemv_i8(packed, x, y, 512, 2048);
 *   tcpu_perf_region_end("gemv_i8 n=512 k=2048");
 *
 * Regions nest; an end must name the innermost open region of its thread (the plugin reports
 * a mismatch). A NULL name is ignored. Counting: `bazel run //tools/perf:count -- ...`
 * (tools/perf/README.md).
 *
 * The thread pool (tcpu/threads.h) marks every parallel region it runs on its workers: the
 * calling thread's wait as TCPU_PERF_PARALLEL_REGION and each worker's share of the range as
 * TCPU_PERF_PARALLEL_SHARE_REGION. From those the plugin reports, for every region open on the
 * calling thread, how evenly the work was spread: the sum over parallel regions of the
 * busiest worker's instructions against the sum of the workers' mean.
 */
#ifndef TCPU_PERF_H_
#define TCPU_PERF_H_

#define TCPU_PERF_PARALLEL_REGION "tcpu.parallel_for"
#define TCPU_PERF_PARALLEL_SHARE_REGION "tcpu.parallel_for.share"

#ifdef __cplusplus
extern "C" {
#endif

void tcpu_perf_region_begin(const char* name);
void tcpu_perf_region_end(const char* name);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_PERF_H_ */
