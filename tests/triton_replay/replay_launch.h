// One launch replayed: its record read, its buffers laid out and filled from `before`, the CPU
// kernel launched over the grid, every buffer compared with `after` (and a poisoned buffer's
// second launch with its `poisoned.after`).
#ifndef TCPU_TESTS_TRITON_REPLAY_REPLAY_LAUNCH_H_
#define TCPU_TESTS_TRITON_REPLAY_REPLAY_LAUNCH_H_

#include <cstdint>
#include <string>

#include "tests/triton_replay/corpus_index.h"

namespace tcpu::replay {

// Where a launch stopped: "ok", or the stage that failed: "record" (the corpus entry is unusable:
// a malformed record, a missing blob, a size that does not match, arguments that do not fit
// the TTIR kernel), "compile" (tcpu-compile refused the TTIR), "run" (the launch returned an
// error, wrote outside a buffer, crashed or timed out) or "compare" (a buffer differs).
struct LaunchResult {
  std::string stage;
  std::string detail;
  // Of a launch counted in a region (ReplayLaunch): the elements of the buffers the GPU's launch
  // wrote (changed, or poisoned and rewritten) and of the largest buffer, each counted in the
  // element type its pointer argument addresses: the work a kernel's instructions are divided by.
  int64_t elements_written = 0;
  int64_t elements_largest = 0;
};

// Replays `launch` of the corpus at `corpus` with the kernels of the generated table. Never
// throws or aborts on bad data. With a `region`, the launch from `before` runs once more inside
// that tcpu/perf.h region (tools/perf's instruction counts); the poisoned launches run outside.
LaunchResult ReplayLaunch(const std::string& corpus, const LaunchEntry& launch,
                          const std::string& region = "");

// The report line: "ID KERNEL STAGE[ DETAIL]".
std::string ReportLine(const LaunchEntry& launch, const LaunchResult& result);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_REPLAY_LAUNCH_H_
