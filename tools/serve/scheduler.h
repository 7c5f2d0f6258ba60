// The slots of tcpu-serve and the loop that steps them. Each slot is a generation session over its
// own sibling decoder (one loaded model, a KV cache per slot). HTTP handler threads submit a Job
// (the prompt's ids and how to sample) and then only exchange text with it; one driver owns every
// session and calls RunOnce: it ends the jobs whose client went away (freeing their slots), starts
// queued jobs in the free slot whose cached tokens share the longest prefix with the prompt (so a
// conversation's next turn prefills only what is new), then advances all running slots together,
// one token per tcpu_generate_step_batch (one GEMM per weight matrix for all of them). In
// tcpu-serve the driver is the scheduler's own thread (StartThread); a test drives RunOnce itself
// and so decides exactly what is queued, running or cancelled at each step.
#ifndef TCPU_TOOLS_SERVE_SCHEDULER_H_
#define TCPU_TOOLS_SERVE_SCHEDULER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tcpu/generate.h"
#include "tcpu/sampler.h"

namespace tcpu::serve {

// One request's generation, shared by its handler thread and the scheduler's driver.
class Job {
 public:
  struct Input {
    std::vector<int32_t> prompt_ids;  // the whole context (the rendered conversation)
    int64_t max_new_tokens = 1;
    std::vector<std::string> stop;  // stop strings
    tcpu_sampler_params sampling{};
  };
  enum class End {
    kRunning,   // not ended yet
    kFinished,  // stats hold the stop reason and counts
    kFailed,    // the engine refused or failed: status and detail
    kShutdown,  // cancelled by the server's shutdown (or never started)
  };
  struct Outcome {
    End end = End::kRunning;
    tcpu_generate_stats stats{};
    int status = 0;  // a tcpu_status when kFailed
    std::string detail;
  };

  explicit Job(Input input) : input_(std::move(input)) {}
  const Input& input() const { return input_; }

  // Handler side: blocks until there is text not taken yet or the job has ended; appends that text
  // to *text and returns true (with *outcome) once the job has ended and all its text is taken.
  bool Wait(std::string* text, Outcome* outcome);
  // The client went away: the scheduler finishes the generation at its next step.
  void Cancel() { cancelled_.store(true); }
  bool cancelled() const { return cancelled_.load(); }

  // Scheduler side.
  void Deliver(const char* text, int64_t bytes);
  void Finish(Outcome outcome);

 private:
  const Input input_;
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;
  std::condition_variable changed_;
  std::string pending_;  // delivered, not yet taken
  Outcome outcome_;
};

class Scheduler {
 public:
  // One slot per session; the sessions' decoders are siblings over one model (they may also be
  // unrelated: tcpu_generate_step_batch then steps them one by one). The sessions must outlive the
  // scheduler. max_queue: jobs that may wait for a slot. Nothing runs until StartThread, or until
  // the caller calls RunOnce.
  Scheduler(std::vector<tcpu_generate_session*> sessions, int64_t vocab_size, size_t max_queue);
  // Cancels what is left (End::kShutdown) and stops the thread, if started.
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Starts the thread that calls RunOnce whenever a job is queued or running (tcpu-serve). Once
  // started, only that thread calls RunOnce.
  void StartThread();
  // One turn of the loop, from one driver at a time: ends the generations whose client went away
  // (after CancelAll: every queued and running job, End::kShutdown), moves queued jobs into the
  // free slots, then steps every running slot by one token. Returns whether a job is still queued
  // or running.
  bool RunOnce();

  enum class Admission { kAccepted, kFull, kClosed };
  // kFull when every slot is taken and the queue holds max_queue jobs; kClosed after Close().
  Admission Submit(std::shared_ptr<Job> job);

  // Accepts no more jobs; those accepted run to their end.
  void Close();
  // Waits until no job is queued or running, at most `timeout`; true if so.
  bool WaitIdle(std::chrono::steady_clock::duration timeout);
  // Ends every queued and running job (End::kShutdown) at the next RunOnce.
  void CancelAll();
  // The server's stop: Close, wait up to `deadline` for the accepted jobs to end, then CancelAll
  // what is left. True if it had to cancel.
  bool Shutdown(std::chrono::steady_clock::duration deadline);

  struct Load {
    int64_t slots = 0;
    int64_t busy = 0;
    int64_t queued = 0;
    int64_t cancelled = 0;  // generations ended because their client went away
  };
  Load load() const;

 private:
  struct Slot {
    tcpu_generate_session* session = nullptr;
    std::vector<int32_t> history;  // the tokens its KV cache holds
    std::shared_ptr<Job> job;      // null when free
    tcpu_sampler* sampler = nullptr;
    uint64_t last_used = 0;
  };

  void Loop();
  // Under mu_: moves queued jobs into free slots; returns the slots that start.
  std::vector<Slot*> AdmitLocked();
  void Start(Slot* slot);
  // Finishes slot's generation (cancelling it if it is still running) and frees the slot.
  void Release(Slot* slot, Job::End end);
  // Gives the job its outcome, keeps the slot's cached tokens and frees the slot.
  void Free(Slot* slot, Job::Outcome outcome);
  void Step();
  static int OnText(const char* text, int64_t bytes, void* slot);

  const int64_t vocab_size_;
  const size_t max_queue_;
  std::vector<Slot> slots_;  // owned by the driver (RunOnce)
  uint64_t clock_ = 0;       // orders the slots' last use

  mutable std::mutex mu_;
  std::condition_variable work_;  // a job queued, CancelAll, or the end
  std::condition_variable idle_;  // nothing queued or running
  std::deque<std::shared_ptr<Job>> queue_;
  int64_t busy_ = 0;  // slots with a job (written by the driver under mu_)
  int64_t cancelled_ = 0;
  bool closed_ = false;
  bool cancel_all_ = false;
  bool quit_ = false;
  std::thread thread_;
};

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_SCHEDULER_H_
