// The scheduler of tcpu-serve over the tiny Llama checkpoint and the tiny byte-level tokenizer,
// driven step by step by the test (RunOnce), so that what is queued, running or cancelled at each
// step is decided here and not by timing: a request beyond the slots and the queue is refused with
// 503 and Retry-After; a shutdown with deadline 0 cancels the generations in flight (and the queued
// ones) with shutting_down; a client that went away frees its slot at the next step and the request
// waiting for it gets its single-client answer; a request goes to the slot whose cache holds the
// longest prefix of its prompt, and prefills only the rest.
#include "tools/serve/scheduler.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/generate.h"
#include "tcpu/sampler.h"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"
#include "tools/serve/job_errors.h"

namespace tcpu::serve {
namespace {

constexpr char kModel[] = "tools/checkpoint/tiny_llama";
constexpr char kTokenizer[] = "tools/tokenize/tiny_byte_level_tokenizer/tokenizer.json";
constexpr int64_t kContext = 256;

// `slots` sessions over sibling decoders of one loaded tiny model, as tcpu-serve opens them.
class Slots {
 public:
  explicit Slots(int slots) {
    EXPECT_EQ(tcpu_tokenizer_open(kTokenizer, &tokenizer_), TCPU_OK) << tcpu_last_error_detail();
    tcpu_decoder* base = nullptr;
    EXPECT_EQ(tcpu_decoder_open(kModel, kContext, &base), TCPU_OK) << tcpu_last_error_detail();
    decoders_.push_back(base);
    for (int i = 1; i < slots; ++i) {
      tcpu_decoder* sibling = nullptr;
      EXPECT_EQ(tcpu_decoder_open_sibling(base, kContext, &sibling), TCPU_OK)
          << tcpu_last_error_detail();
      decoders_.push_back(sibling);
    }
    for (tcpu_decoder* decoder : decoders_) {
      tcpu_generate_session* session = nullptr;
      EXPECT_EQ(
          tcpu_generate_session_create(decoder, tokenizer_, nullptr, nullptr, kModel, &session),
          TCPU_OK)
          << tcpu_last_error_detail();
      sessions_.push_back(session);
    }
    tcpu_decoder_info info;
    tcpu_decoder_get_info(base, &info);
    vocab_size_ = info.vocab_size;
  }
  ~Slots() {
    for (tcpu_generate_session* s : sessions_) tcpu_generate_session_destroy(s);
    for (tcpu_decoder* d : decoders_) tcpu_decoder_close(d);
    tcpu_tokenizer_close(tokenizer_);
  }

  const std::vector<tcpu_generate_session*>& sessions() const { return sessions_; }
  int64_t vocab_size() const { return vocab_size_; }

  // The ids of `text`, with the tokenizer's special tokens (a prompt's BOS) or without (text that
  // continues a prompt).
  std::vector<int32_t> Encode(const std::string& text, bool add_special = true) const {
    const int special = add_special ? 1 : 0;
    int64_t n = 0;
    tcpu_tokenizer_encode(tokenizer_, text.data(), static_cast<int64_t>(text.size()), special,
                          nullptr, 0, &n);
    std::vector<int32_t> ids(static_cast<size_t>(n));
    EXPECT_EQ(tcpu_tokenizer_encode(tokenizer_, text.data(), static_cast<int64_t>(text.size()),
                                    special, ids.data(), n, &n),
              TCPU_OK);
    return ids;
  }

 private:
  tcpu_tokenizer* tokenizer_ = nullptr;
  std::vector<tcpu_decoder*> decoders_;
  std::vector<tcpu_generate_session*> sessions_;
  int64_t vocab_size_ = 0;
};

std::shared_ptr<Job> GreedyJob(std::vector<int32_t> prompt, int64_t max_new_tokens) {
  Job::Input input;
  input.prompt_ids = std::move(prompt);
  input.max_new_tokens = max_new_tokens;
  tcpu_sampler_default_params(&input.sampling);
  input.sampling.temperature = 0.0f;
  return std::make_shared<Job>(std::move(input));
}

struct Answer {
  std::string text;
  Job::Outcome outcome;
};

// The job's text and outcome; it must have ended (Wait would block otherwise).
Answer Ended(Job* job) {
  Answer answer;
  EXPECT_TRUE(job->Wait(&answer.text, &answer.outcome));
  return answer;
}

// Runs the scheduler until nothing is queued or running.
void Drain(Scheduler* scheduler) {
  while (scheduler->RunOnce()) {
  }
}

// What `prompt` gets from a scheduler of one fresh slot, alone.
std::string AloneText(const std::vector<int32_t>& prompt, int64_t max_new_tokens) {
  Slots slots(1);
  Scheduler scheduler(slots.sessions(), slots.vocab_size(), 0);
  auto job = GreedyJob(prompt, max_new_tokens);
  EXPECT_EQ(scheduler.Submit(job), Scheduler::Admission::kAccepted);
  Drain(&scheduler);
  const Answer answer = Ended(job.get());
  EXPECT_EQ(answer.outcome.end, Job::End::kFinished);
  return answer.text;
}

TEST(SchedulerTest, ARequestBeyondTheSlotsAndTheQueueIs503WithRetryAfter) {
  Slots slots(1);
  Scheduler scheduler(slots.sessions(), slots.vocab_size(), /*max_queue=*/1);
  auto running = GreedyJob(slots.Encode("Once upon a time"), 8);
  auto queued = GreedyJob(slots.Encode("Hello there"), 8);
  ASSERT_EQ(scheduler.Submit(running), Scheduler::Admission::kAccepted);
  scheduler.RunOnce();
  ASSERT_EQ(scheduler.Submit(queued), Scheduler::Admission::kAccepted);
  const Scheduler::Load load = scheduler.load();
  EXPECT_EQ(load.busy, 1);
  EXPECT_EQ(load.queued, 1);

  const Scheduler::Admission refused = scheduler.Submit(GreedyJob(slots.Encode("Hi"), 8));
  ASSERT_EQ(refused, Scheduler::Admission::kFull);
  const ApiError error = AdmissionError(refused);
  EXPECT_EQ(error.http_status, 503);
  EXPECT_EQ(error.code, "server_busy");
  EXPECT_EQ(error.type, "server_error");
  EXPECT_EQ(error.retry_after_seconds, 1);

  // Both accepted requests get their answers, and then there is room again.
  Drain(&scheduler);
  EXPECT_EQ(Ended(running.get()).outcome.end, Job::End::kFinished);
  EXPECT_EQ(Ended(queued.get()).outcome.end, Job::End::kFinished);
  EXPECT_EQ(scheduler.Submit(GreedyJob(slots.Encode("Hi"), 8)), Scheduler::Admission::kAccepted);
}

TEST(SchedulerTest, ShutdownWithDeadlineZeroCancelsWhatRunsAndWhatWaits) {
  const std::string prompt = "Once upon a time";
  Slots slots(1);
  Scheduler scheduler(slots.sessions(), slots.vocab_size(), /*max_queue=*/4);
  auto running = GreedyJob(slots.Encode(prompt), 64);
  auto queued = GreedyJob(slots.Encode("Hello there"), 64);
  ASSERT_EQ(scheduler.Submit(running), Scheduler::Admission::kAccepted);
  ASSERT_EQ(scheduler.Submit(queued), Scheduler::Admission::kAccepted);
  for (int step = 0; step < 3; ++step) ASSERT_TRUE(scheduler.RunOnce());

  EXPECT_TRUE(scheduler.Shutdown(std::chrono::seconds(0)));  // it had to cancel
  const Scheduler::Admission closed = scheduler.Submit(GreedyJob(slots.Encode("Hi"), 8));
  ASSERT_EQ(closed, Scheduler::Admission::kClosed);
  EXPECT_EQ(AdmissionError(closed).code, "shutting_down");
  EXPECT_EQ(AdmissionError(closed).http_status, 503);
  EXPECT_FALSE(scheduler.RunOnce());  // the cancellation takes one turn; nothing is left

  const Answer cancelled = Ended(running.get());
  EXPECT_EQ(cancelled.outcome.end, Job::End::kShutdown);
  EXPECT_EQ(cancelled.outcome.stats.stop_reason, TCPU_STOP_CANCELLED);
  EXPECT_EQ(cancelled.outcome.stats.generated_tokens, 3);
  EXPECT_EQ(OutcomeError(cancelled.outcome).code, "shutting_down");
  EXPECT_EQ(OutcomeError(cancelled.outcome).http_status, 503);
  // What the client got before the cancellation is the start of its answer.
  EXPECT_EQ(AloneText(slots.Encode(prompt), 64).rfind(cancelled.text, 0), 0u) << cancelled.text;
  const Answer never_started = Ended(queued.get());
  EXPECT_EQ(never_started.outcome.end, Job::End::kShutdown);
  EXPECT_EQ(never_started.text, "");
}

TEST(SchedulerTest, ShutdownOfAnIdleServerCancelsNothing) {
  Slots slots(1);
  Scheduler scheduler(slots.sessions(), slots.vocab_size(), 1);
  EXPECT_FALSE(scheduler.Shutdown(std::chrono::seconds(0)));  // idle: nothing to cancel
  EXPECT_EQ(scheduler.Submit(GreedyJob(slots.Encode("Hi"), 8)), Scheduler::Admission::kClosed);
}

TEST(SchedulerTest, AClientThatWentAwayFreesItsSlotAtTheNextStep) {
  const std::vector<std::string> prompts = {"Tell me a story", "Why is the sky blue?"};
  Slots slots(1);
  Scheduler scheduler(slots.sessions(), slots.vocab_size(), /*max_queue=*/1);
  auto gone = GreedyJob(slots.Encode(prompts[0]), 64);
  auto waiting = GreedyJob(slots.Encode(prompts[1]), 16);
  ASSERT_EQ(scheduler.Submit(gone), Scheduler::Admission::kAccepted);
  scheduler.RunOnce();
  ASSERT_EQ(scheduler.Submit(waiting), Scheduler::Admission::kAccepted);
  scheduler.RunOnce();
  EXPECT_EQ(scheduler.load().queued, 1);

  gone->Cancel();
  scheduler.RunOnce();
  const Scheduler::Load load = scheduler.load();
  EXPECT_EQ(load.cancelled, 1);
  EXPECT_EQ(load.busy, 1);  // the waiting request took the freed slot in the same turn
  EXPECT_EQ(load.queued, 0);
  const Answer ended = Ended(gone.get());
  EXPECT_EQ(ended.outcome.stats.stop_reason, TCPU_STOP_CANCELLED);
  EXPECT_EQ(ended.outcome.stats.generated_tokens, 2);

  Drain(&scheduler);
  const Answer answer = Ended(waiting.get());
  EXPECT_EQ(answer.outcome.end, Job::End::kFinished);
  EXPECT_EQ(answer.text, AloneText(slots.Encode(prompts[1]), 16));
}

TEST(SchedulerTest, ARequestGoesToTheSlotCachingTheLongestPrefixOfItsPrompt) {
  Slots slots(2);
  Scheduler scheduler(slots.sessions(), slots.vocab_size(), 4);
  const std::vector<int32_t> first = slots.Encode("Hello there, how are you?");
  const std::vector<int32_t> second = slots.Encode("Why is the sky blue?");
  // One after the other: the first takes slot 0, the second the unused slot 1.
  for (const std::vector<int32_t>* prompt : {&first, &second}) {
    auto job = GreedyJob(*prompt, 4);
    ASSERT_EQ(scheduler.Submit(job), Scheduler::Admission::kAccepted);
    Drain(&scheduler);
    EXPECT_EQ(Ended(job.get()).outcome.stats.reused_tokens, 0);
  }
  // The second conversation goes on: slot 1 holds its prefix, although slot 0 is the least recently
  // used; only the new tokens are prefilled. Then the first, in slot 0.
  for (const std::vector<int32_t>* prompt : {&second, &first}) {
    std::vector<int32_t> next_turn = *prompt;
    const std::vector<int32_t> more = slots.Encode(" And then?", /*add_special=*/false);
    next_turn.insert(next_turn.end(), more.begin(), more.end());
    auto job = GreedyJob(next_turn, 4);
    ASSERT_EQ(scheduler.Submit(job), Scheduler::Admission::kAccepted);
    Drain(&scheduler);
    const Answer answer = Ended(job.get());
    EXPECT_GE(answer.outcome.stats.reused_tokens, static_cast<int64_t>(prompt->size()));
    EXPECT_EQ(answer.outcome.stats.prefill_tokens,
              static_cast<int64_t>(next_turn.size()) - answer.outcome.stats.reused_tokens);
    EXPECT_EQ(answer.text, AloneText(next_turn, 4));
  }
}

}  // namespace
}  // namespace tcpu::serve
