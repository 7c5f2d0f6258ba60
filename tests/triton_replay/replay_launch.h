// One launch replayed: its record read, its buffers laid out and filled from `before`, the CPU
// kernel launched over the grid, every buffer compared with `after` (and a poisoned buffer's
// second launch with its `poisoned.after`).
#ifndef TCPU_TESTS_TRITON_REPLAY_REPLAY_LAUNCH_H_
#define TCPU_TESTS_TRITON_REPLAY_REPLAY_LAUNCH_H_

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
};

// Replays `launch` of the corpus at `corpus` with the kernels of the generated table. Never
// throws or aborts on bad data.
LaunchResult ReplayLaunch(const std::string& corpus, const LaunchEntry& launch);

// The report line: "ID KERNEL STAGE[ DETAIL]".
std::string ReportLine(const LaunchEntry& launch, const LaunchResult& result);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_REPLAY_LAUNCH_H_
