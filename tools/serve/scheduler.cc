#include "tools/serve/scheduler.h"

#include <utility>

#include "tcpu/status.h"
#include "tools/serve/slot_choice.h"

namespace tcpu::serve {

bool Job::Wait(std::string* text, Outcome* outcome) {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [this] { return !pending_.empty() || outcome_.end != End::kRunning; });
  text->append(pending_);
  pending_.clear();
  if (outcome_.end == End::kRunning) return false;
  *outcome = outcome_;
  return true;
}

void Job::Deliver(const char* text, int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_.append(text, static_cast<size_t>(bytes));
  changed_.notify_all();
}

void Job::Finish(Outcome outcome) {
  std::lock_guard<std::mutex> lock(mu_);
  outcome_ = std::move(outcome);
  changed_.notify_all();
}

Scheduler::Scheduler(std::vector<tcpu_generate_session*> sessions, int64_t vocab_size,
                     size_t max_queue)
    : vocab_size_(vocab_size), max_queue_(max_queue), slots_(sessions.size()) {
  for (size_t i = 0; i < sessions.size(); ++i) slots_[i].session = sessions[i];
}

Scheduler::~Scheduler() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = quit_ = cancel_all_ = true;
  }
  if (thread_.joinable()) {
    work_.notify_all();
    thread_.join();
  } else {
    RunOnce();  // the caller drove the scheduler: end what it left
  }
}

void Scheduler::StartThread() {
  thread_ = std::thread([this] { Loop(); });
}

Scheduler::Admission Scheduler::Submit(std::shared_ptr<Job> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return Admission::kClosed;
    if (queue_.size() + static_cast<size_t>(busy_) >= slots_.size() + max_queue_) {
      return Admission::kFull;
    }
    queue_.push_back(std::move(job));
  }
  work_.notify_all();
  return Admission::kAccepted;
}

void Scheduler::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  closed_ = true;
}

bool Scheduler::WaitIdle(std::chrono::steady_clock::duration timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return idle_.wait_for(lock, timeout, [this] { return queue_.empty() && busy_ == 0; });
}

void Scheduler::CancelAll() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    cancel_all_ = true;
  }
  work_.notify_all();
}

bool Scheduler::Shutdown(std::chrono::steady_clock::duration deadline) {
  Close();
  if (WaitIdle(deadline)) return false;
  CancelAll();
  return true;
}

Scheduler::Load Scheduler::load() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {static_cast<int64_t>(slots_.size()), busy_, static_cast<int64_t>(queue_.size()),
          cancelled_};
}

std::vector<Scheduler::Slot*> Scheduler::AdmitLocked() {
  std::vector<Slot*> starting;
  std::vector<const std::vector<int32_t>*> histories;
  std::vector<uint64_t> last_used;
  std::vector<bool> free;
  for (const Slot& slot : slots_) {
    histories.push_back(&slot.history);
    last_used.push_back(slot.last_used);
    free.push_back(slot.job == nullptr);
  }
  while (!queue_.empty()) {
    const int chosen = ChooseSlot(histories, last_used, free, queue_.front()->input().prompt_ids);
    if (chosen < 0) break;
    Slot* slot = &slots_[static_cast<size_t>(chosen)];
    slot->job = std::move(queue_.front());
    queue_.pop_front();
    free[static_cast<size_t>(chosen)] = false;
    ++busy_;
    starting.push_back(slot);
  }
  return starting;
}

int Scheduler::OnText(const char* text, int64_t bytes, void* slot) {
  Job* job = static_cast<Slot*>(slot)->job.get();
  job->Deliver(text, bytes);
  return job->cancelled() ? 1 : 0;  // a client that went away stops its generation
}

void Scheduler::Start(Slot* slot) {
  const Job::Input& input = slot->job->input();
  int status = tcpu_sampler_create(&input.sampling, vocab_size_, &slot->sampler);
  if (status == TCPU_OK) status = tcpu_generate_session_set_sampler(slot->session, slot->sampler);
  if (status == TCPU_OK) {
    std::vector<const char*> stop;
    for (const std::string& s : input.stop) stop.push_back(s.c_str());
    tcpu_generate_options options;
    tcpu_generate_default_options(&options);
    options.max_new_tokens = input.max_new_tokens;
    options.stop_strings = stop.empty() ? nullptr : stop.data();
    options.n_stop_strings = static_cast<int64_t>(stop.size());
    options.callback = OnText;
    options.user_data = slot;
    status = tcpu_generate_begin_ids(slot->session, input.prompt_ids.data(),
                                     static_cast<int64_t>(input.prompt_ids.size()), &options);
  }
  if (status == TCPU_OK) return;
  Job::Outcome outcome;
  outcome.end = Job::End::kFailed;
  outcome.status = status;
  outcome.detail = tcpu_last_error_detail();
  Free(slot, std::move(outcome));
}

void Scheduler::Release(Slot* slot, Job::End end) {
  Job::Outcome outcome;
  outcome.end = end;
  const int status = tcpu_generate_finish(slot->session, &outcome.stats);
  if (status != TCPU_OK) {
    outcome.end = Job::End::kFailed;
    outcome.status = status;
    outcome.detail = tcpu_last_error_detail();
  }
  Free(slot, std::move(outcome));
}

void Scheduler::Free(Slot* slot, Job::Outcome outcome) {
  tcpu_generate_session_set_sampler(slot->session, nullptr);
  tcpu_sampler_destroy(slot->sampler);
  slot->sampler = nullptr;
  int64_t n = 0;
  slot->history.clear();
  if (tcpu_generate_session_history(slot->session, nullptr, 0, &n) == TCPU_ERR_BUFFER_TOO_SMALL) {
    slot->history.resize(static_cast<size_t>(n));
    if (tcpu_generate_session_history(slot->session, slot->history.data(), n, &n) != TCPU_OK) {
      slot->history.clear();  // no prefix to reuse: the next prompt prefills in full
    }
  }
  std::shared_ptr<Job> job = std::move(slot->job);
  slot->last_used = ++clock_;
  {
    std::lock_guard<std::mutex> lock(mu_);
    --busy_;
  }
  // Last: a client that has its answer finds the slot free (GET /health).
  job->Finish(std::move(outcome));
}

void Scheduler::Step() {
  std::vector<tcpu_generate_session*> sessions;
  std::vector<Slot*> running;
  for (Slot& slot : slots_) {
    if (slot.job == nullptr) continue;
    sessions.push_back(slot.session);
    running.push_back(&slot);
  }
  if (running.empty()) return;
  std::vector<int32_t> finished(running.size(), 0);
  const int status = tcpu_generate_step_batch(
      sessions.data(), static_cast<int64_t>(sessions.size()), finished.data());
  bool any_finished = false;
  for (size_t i = 0; i < running.size(); ++i) {
    if (finished[i] == 0) continue;
    any_finished = true;
    Release(running[i], Job::End::kFinished);
  }
  if (status == TCPU_OK || any_finished) return;
  // A batch refused as a whole (nothing stepped): end every generation in it with the error rather
  // than refusing it again forever.
  const std::string detail = tcpu_last_error_detail();
  for (Slot* slot : running) {
    tcpu_generate_stats stats;
    tcpu_generate_finish(slot->session, &stats);
    Job::Outcome outcome;
    outcome.end = Job::End::kFailed;
    outcome.status = status;
    outcome.detail = detail;
    outcome.stats = stats;
    Free(slot, std::move(outcome));
  }
}

bool Scheduler::RunOnce() {
  std::deque<std::shared_ptr<Job>> dropped;
  bool cancel_all = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancel_all_) {
      cancel_all = true;
      cancel_all_ = false;
      dropped.swap(queue_);
    }
  }
  for (const std::shared_ptr<Job>& job : dropped) job->Finish({Job::End::kShutdown, {}, 0, ""});
  // The slots of ended jobs are freed first, so that queued jobs can take them in this turn.
  for (Slot& slot : slots_) {
    if (slot.job == nullptr) continue;
    if (cancel_all) {
      Release(&slot, Job::End::kShutdown);
    } else if (slot.job->cancelled()) {
      // The client went away: nobody reads the outcome.
      Release(&slot, Job::End::kFinished);
      std::lock_guard<std::mutex> lock(mu_);
      ++cancelled_;
    }
  }
  std::vector<Slot*> starting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    starting = AdmitLocked();
  }
  for (Slot* slot : starting) Start(slot);
  Step();
  std::lock_guard<std::mutex> lock(mu_);
  const bool idle = queue_.empty() && busy_ == 0;
  if (idle) idle_.notify_all();
  return !idle;
}

void Scheduler::Loop() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [this] { return quit_ || cancel_all_ || busy_ > 0 || !queue_.empty(); });
      if (quit_ && !cancel_all_ && queue_.empty() && busy_ == 0) return;
    }
    RunOnce();
  }
}

}  // namespace tcpu::serve
