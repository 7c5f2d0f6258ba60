// The errors of a request the scheduler did not run to its end: refused at admission (every slot
// and the queue taken, or the server shutting down), or ended by the engine or the shutdown.
#ifndef TCPU_TOOLS_SERVE_JOB_ERRORS_H_
#define TCPU_TOOLS_SERVE_JOB_ERRORS_H_

#include "tools/serve/api_error.h"
#include "tools/serve/scheduler.h"

namespace tcpu::serve {

// The answer to a refused Submit (not kAccepted): kFull is 503 server_busy with Retry-After: 1,
// kClosed 503 shutting_down.
ApiError AdmissionError(Scheduler::Admission admission);

// The answer to a job that ended otherwise than End::kFinished: kShutdown is 503 shutting_down, a
// request the engine refused 400, any other failure 500 generation_failed with its detail.
ApiError OutcomeError(const Job::Outcome& outcome);

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_JOB_ERRORS_H_
