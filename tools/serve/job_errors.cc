#include "tools/serve/job_errors.h"

#include <string>

#include "tcpu/status.h"

namespace tcpu::serve {

ApiError AdmissionError(Scheduler::Admission admission) {
  if (admission == Scheduler::Admission::kClosed) {
    return ServerError(503, "server_error", "shutting_down", "the server is shutting down");
  }
  ApiError error =
      ServerError(503, "server_error", "server_busy",
                  "every slot is busy and the queue is full (--parallel, --queue); retry later");
  error.retry_after_seconds = 1;
  return error;
}

ApiError OutcomeError(const Job::Outcome& outcome) {
  if (outcome.end == Job::End::kShutdown) {
    return ServerError(503, "server_error", "shutting_down",
                       "the server is shutting down; the generation was cancelled");
  }
  if (outcome.status == TCPU_ERR_INVALID_ARGUMENT) {
    return InvalidRequest("", std::string("the request was refused: ") + outcome.detail);
  }
  return ServerError(500, "server_error", "generation_failed",
                     std::string("generation failed: ") + tcpu_status_string(outcome.status) +
                         ": " + outcome.detail);
}

}  // namespace tcpu::serve
