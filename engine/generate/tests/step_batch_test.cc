// Stepwise generation (tcpu_generate_begin_*, _step_batch, _finish) over sibling decoders of
// the tiny Llama with the tiny byte-level tokenizer: sessions with different prompts and
// options stepped together give the text, ids and stats each gives alone with
// tcpu_generate_text; sessions join and leave mid-way (continuous batching); a session whose
// decoder fails ends with the error while the others go on unchanged; finish cancels an
// unfinished generation and leaves the session reusable with its cache; set_sampler; every
// misuse is refused naming it.
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

namespace {

constexpr char kModel[] = "tools/checkpoint/tiny_llama";
constexpr char kTokenizer[] = "tools/tokenize/tiny_byte_level_tokenizer/tokenizer.json";
constexpr int kSlots = 6;

// What one generation delivered.
struct Result {
  std::string text;
  std::vector<int32_t> history;
  tcpu_generate_stats stats{};
  int status = TCPU_OK;
};

int Append(const char* text, int64_t bytes, void* user_data) {
  static_cast<Result*>(user_data)->text.append(text, static_cast<size_t>(bytes));
  return 0;
}

std::vector<int32_t> HistoryOf(const tcpu_generate_session* session) {
  int64_t n = 0;
  EXPECT_EQ(tcpu_generate_session_history(session, nullptr, 0, &n), TCPU_ERR_BUFFER_TOO_SMALL);
  std::vector<int32_t> ids(static_cast<size_t>(n));
  EXPECT_EQ(tcpu_generate_session_history(session, ids.data(), n, &n), TCPU_OK);
  return ids;
}

// One generation's request: a prompt and its options (the text goes to a Result).
struct Request {
  std::string prompt;
  int64_t max_new_tokens = 8;
  std::vector<const char*> stop_strings;

  tcpu_generate_options Options(Result* result) const {
    tcpu_generate_options o;
    tcpu_generate_default_options(&o);
    o.max_new_tokens = max_new_tokens;
    o.stop_strings = stop_strings.empty() ? nullptr : stop_strings.data();
    o.n_stop_strings = static_cast<int64_t>(stop_strings.size());
    o.callback = Append;
    o.user_data = result;
    return o;
  }
};

void ExpectSame(const Result& got, const Result& alone, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(got.status, alone.status);
  EXPECT_EQ(got.text, alone.text);
  EXPECT_EQ(got.history, alone.history);
  EXPECT_EQ(got.stats.stop_reason, alone.stats.stop_reason);
  EXPECT_EQ(got.stats.generated_tokens, alone.stats.generated_tokens);
  EXPECT_EQ(got.stats.context_tokens, alone.stats.context_tokens);
  EXPECT_EQ(got.stats.reused_tokens, alone.stats.reused_tokens);
  EXPECT_EQ(got.stats.text_bytes, alone.stats.text_bytes);
}

// kSlots sessions, each over its own sibling decoder of one loaded model.
class StepBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(tcpu_tokenizer_open(kTokenizer, &tokenizer_), TCPU_OK) << tcpu_last_error_detail();
    ASSERT_EQ(tcpu_decoder_open(kModel, 256, &base_), TCPU_OK) << tcpu_last_error_detail();
    for (int i = 0; i < kSlots; ++i) {
      tcpu_decoder* d = nullptr;
      ASSERT_EQ(tcpu_decoder_open_sibling(base_, 128, &d), TCPU_OK) << tcpu_last_error_detail();
      decoders_.push_back(d);
      tcpu_generate_session* s = nullptr;
      ASSERT_EQ(tcpu_generate_session_create(d, tokenizer_, nullptr, nullptr, nullptr, &s), TCPU_OK)
          << tcpu_last_error_detail();
      sessions_.push_back(s);
    }
  }
  void TearDown() override {
    for (tcpu_generate_session* s : sessions_) tcpu_generate_session_destroy(s);
    for (tcpu_decoder* d : decoders_) tcpu_decoder_close(d);
    tcpu_decoder_close(base_);
    tcpu_tokenizer_close(tokenizer_);
  }

  // `requests` in turn on one fresh session of its own (a new decoder), tcpu_generate_text.
  std::vector<Result> Alone(const std::vector<Request>& requests) const {
    tcpu_decoder* decoder = nullptr;
    EXPECT_EQ(tcpu_decoder_open_sibling(base_, 128, &decoder), TCPU_OK);
    tcpu_generate_session* session = nullptr;
    EXPECT_EQ(
        tcpu_generate_session_create(decoder, tokenizer_, nullptr, nullptr, nullptr, &session),
        TCPU_OK);
    std::vector<Result> results(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      const tcpu_generate_options o = requests[i].Options(&results[i]);
      results[i].status = tcpu_generate_text(session, requests[i].prompt.data(),
                                             static_cast<int64_t>(requests[i].prompt.size()), &o,
                                             &results[i].stats);
      results[i].history = HistoryOf(session);
    }
    tcpu_generate_session_destroy(session);
    tcpu_decoder_close(decoder);
    return results;
  }

  int Begin(int slot, const Request& request, Result* result) {
    const tcpu_generate_options o = request.Options(result);
    return tcpu_generate_begin_text(sessions_[slot], request.prompt.data(),
                                    static_cast<int64_t>(request.prompt.size()), &o);
  }

  void Finish(int slot, Result* result) {
    result->status = tcpu_generate_finish(sessions_[slot], &result->stats);
    result->history = HistoryOf(sessions_[slot]);
  }

  tcpu_tokenizer* tokenizer_ = nullptr;
  tcpu_decoder* base_ = nullptr;
  std::vector<tcpu_decoder*> decoders_;
  std::vector<tcpu_generate_session*> sessions_;
};

std::vector<Request> SixRequests() {
  std::vector<Request> r(kSlots);
  const char* prompts[kSlots] = {"Hello",
                                 "The quick brown fox jumps",
                                 "你好，世界。",
                                 "A longer prompt, so that this session starts further on.",
                                 "x",
                                 "Once upon a time"};
  for (int i = 0; i < kSlots; ++i) {
    r[i].prompt = prompts[i];
    r[i].max_new_tokens = 4 + 3 * i;
  }
  return r;
}

TEST_F(StepBatchTest, SessionsSteppedTogetherGiveWhatEachGivesAlone) {
  std::vector<Request> requests = SixRequests();
  // Session 3 also stops at a string its own generation produces (from its text alone).
  const std::string text3 = Alone({requests[3]})[0].text;
  ASSERT_GT(text3.size(), 4u);
  size_t cut = text3.size() / 2;
  while (cut > 0 && (static_cast<unsigned char>(text3[cut]) & 0xC0) == 0x80) --cut;
  const std::string stop = text3.substr(cut, 1);
  requests[3].stop_strings = {stop.c_str()};

  std::vector<Result> together(kSlots);
  for (int i = 0; i < kSlots; ++i) {
    ASSERT_EQ(Begin(i, requests[i], &together[i]), TCPU_OK) << tcpu_last_error_detail();
  }
  std::vector<tcpu_generate_session*> active(sessions_);
  std::vector<int> slots = {0, 1, 2, 3, 4, 5};
  while (!active.empty()) {
    std::vector<int32_t> finished(active.size(), -1);
    ASSERT_EQ(tcpu_generate_step_batch(active.data(), static_cast<int64_t>(active.size()),
                                       finished.data()),
              TCPU_OK)
        << tcpu_last_error_detail();
    for (size_t i = active.size(); i-- > 0;) {
      ASSERT_TRUE(finished[i] == 0 || finished[i] == 1);
      if (finished[i] == 0) continue;
      Finish(slots[i], &together[slots[i]]);
      active.erase(active.begin() + static_cast<std::ptrdiff_t>(i));
      slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  for (int i = 0; i < kSlots; ++i) {
    ExpectSame(together[i], Alone({requests[i]})[0], "session " + std::to_string(i));
  }
  EXPECT_EQ(together[3].stats.stop_reason, TCPU_STOP_STRING);
}

// Continuous batching: slot 0 runs a first turn, leaves, and comes back with a second turn
// (reusing its cache); slots 1 and 2 join later; every generation equals its run alone.
TEST_F(StepBatchTest, SessionsJoinAndLeaveMidWay) {
  const std::vector<Request> requests = SixRequests();
  Request second_turn;
  std::vector<Result> turns(2), joined(2);
  ASSERT_EQ(Begin(0, requests[0], &turns[0]), TCPU_OK);
  bool first_turn_done = false, second_turn_done = false;
  bool open[3] = {true, false, false};
  int rounds = 0;
  while (open[0] || open[1] || open[2]) {
    if (rounds == 2) {
      ASSERT_EQ(Begin(1, requests[1], &joined[0]), TCPU_OK);
      open[1] = true;
    }
    if (rounds == 3) {
      ASSERT_EQ(Begin(2, requests[4], &joined[1]), TCPU_OK);
      open[2] = true;
    }
    std::vector<tcpu_generate_session*> batch;
    std::vector<int> slots;
    for (int s = 0; s < 3; ++s) {
      if (open[s]) {
        batch.push_back(sessions_[s]);
        slots.push_back(s);
      }
    }
    std::vector<int32_t> finished(batch.size());
    ASSERT_EQ(
        tcpu_generate_step_batch(batch.data(), static_cast<int64_t>(batch.size()), finished.data()),
        TCPU_OK)
        << tcpu_last_error_detail();
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!finished[i]) continue;
      const int s = slots[i];
      open[s] = false;
      if (s == 0 && !first_turn_done) {
        Finish(0, &turns[0]);
        first_turn_done = true;
        // The next turn: the conversation so far and a new message, as text.
        second_turn.prompt = requests[0].prompt + turns[0].text + " and then?";
        second_turn.max_new_tokens = 5;
        ASSERT_EQ(Begin(0, second_turn, &turns[1]), TCPU_OK) << tcpu_last_error_detail();
        open[0] = true;
      } else if (s == 0) {
        Finish(0, &turns[1]);
        second_turn_done = true;
      } else {
        Finish(s, &joined[s - 1]);
      }
    }
    ++rounds;
  }
  ASSERT_TRUE(second_turn_done);
  const std::vector<Result> alone = Alone({requests[0], second_turn});
  ExpectSame(turns[0], alone[0], "slot 0, first turn");
  ExpectSame(turns[1], alone[1], "slot 0, second turn");
  EXPECT_GT(turns[1].stats.reused_tokens, 0);
  ExpectSame(joined[0], Alone({requests[1]})[0], "slot 1");
  ExpectSame(joined[1], Alone({requests[4]})[0], "slot 2");
}

TEST_F(StepBatchTest, AFailingSessionEndsWithItsErrorAndTheOthersGoOn) {
  const std::vector<Request> requests = SixRequests();
  std::vector<Result> results(2);
  ASSERT_EQ(Begin(0, requests[5], &results[0]), TCPU_OK);
  ASSERT_EQ(Begin(1, requests[1], &results[1]), TCPU_OK);
  // Behind the session's back, slot 1's decoder is filled: its next feed fails.
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoders_[1], &info), TCPU_OK);
  int32_t next = 0;
  for (int64_t p = info.position; p < info.max_tokens; ++p) {
    ASSERT_EQ(tcpu_decoder_step(decoders_[1], 1, nullptr, &next), TCPU_OK);
  }
  tcpu_generate_session* batch[2] = {sessions_[0], sessions_[1]};
  int32_t finished[2] = {0, 0};
  ASSERT_EQ(tcpu_generate_step_batch(batch, 2, finished), TCPU_OK) << tcpu_last_error_detail();
  EXPECT_EQ(finished[0], 0);
  EXPECT_EQ(finished[1], 1);
  EXPECT_EQ(tcpu_generate_finish(sessions_[1], &results[1].stats), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("KV cache is full"), std::string::npos)
      << tcpu_last_error_detail();
  EXPECT_EQ(results[1].stats.generated_tokens, 1);
  while (finished[0] == 0) ASSERT_EQ(tcpu_generate_step_batch(batch, 1, finished), TCPU_OK);
  Finish(0, &results[0]);
  ExpectSame(results[0], Alone({requests[5]})[0], "the session that went on");
}

TEST_F(StepBatchTest, FinishCancelsAndTheSessionReusesItsCache) {
  Request request = SixRequests()[1];
  request.max_new_tokens = 50;
  Result result;
  ASSERT_EQ(Begin(0, request, &result), TCPU_OK);
  int32_t finished = 0;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(tcpu_generate_step_batch(&sessions_[0], 1, &finished), TCPU_OK);
    ASSERT_EQ(finished, 0);
  }
  Finish(0, &result);
  EXPECT_EQ(result.status, TCPU_OK);
  EXPECT_EQ(result.stats.stop_reason, TCPU_STOP_CANCELLED);
  EXPECT_EQ(result.stats.generated_tokens, 3);
  // All three tokens were fed: the next call over the same ids reuses the whole cache.
  tcpu_generate_options o;
  tcpu_generate_default_options(&o);
  o.max_new_tokens = 4;
  tcpu_generate_stats stats;
  ASSERT_EQ(tcpu_generate_ids(sessions_[0], result.history.data(),
                              static_cast<int64_t>(result.history.size()), &o, &stats),
            TCPU_OK)
      << tcpu_last_error_detail();
  EXPECT_EQ(stats.reused_tokens, static_cast<int64_t>(result.history.size()));
  EXPECT_EQ(stats.prefill_tokens, 0);
  const std::vector<int32_t> continued = HistoryOf(sessions_[0]);
  // The same as a fresh session over those ids.
  ASSERT_EQ(tcpu_generate_ids(sessions_[1], result.history.data(),
                              static_cast<int64_t>(result.history.size()), &o, &stats),
            TCPU_OK);
  EXPECT_EQ(HistoryOf(sessions_[1]), continued);
}

TEST_F(StepBatchTest, SetSamplerReplacesTheSamplerBetweenGenerations) {
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoders_[0], &info), TCPU_OK);
  tcpu_sampler_params params;
  tcpu_sampler_default_params(&params);
  params.temperature = 1.5f;
  params.seed = 7;
  tcpu_sampler *set = nullptr, *created = nullptr;
  ASSERT_EQ(tcpu_sampler_create(&params, info.vocab_size, &set), TCPU_OK);
  ASSERT_EQ(tcpu_sampler_create(&params, info.vocab_size, &created), TCPU_OK);
  tcpu_generate_session* with_sampler = nullptr;
  ASSERT_EQ(tcpu_generate_session_create(decoders_[1], tokenizer_, created, nullptr, nullptr,
                                         &with_sampler),
            TCPU_OK);
  const Request request = SixRequests()[3];
  Result greedy = Alone({request})[0], sampled, reference, greedy_again;

  ASSERT_EQ(tcpu_generate_session_set_sampler(sessions_[0], set), TCPU_OK);
  tcpu_generate_options o = request.Options(&sampled);
  ASSERT_EQ(tcpu_generate_text(sessions_[0], request.prompt.data(),
                               static_cast<int64_t>(request.prompt.size()), &o, &sampled.stats),
            TCPU_OK);
  o = request.Options(&reference);
  ASSERT_EQ(tcpu_generate_text(with_sampler, request.prompt.data(),
                               static_cast<int64_t>(request.prompt.size()), &o, &reference.stats),
            TCPU_OK);
  EXPECT_EQ(sampled.text, reference.text);
  EXPECT_NE(sampled.text, greedy.text);

  // Not while a generation is in progress; NULL is greedy again.
  o = request.Options(&greedy_again);
  ASSERT_EQ(tcpu_generate_begin_text(sessions_[0], request.prompt.data(),
                                     static_cast<int64_t>(request.prompt.size()), &o),
            TCPU_OK);
  EXPECT_EQ(tcpu_generate_session_set_sampler(sessions_[0], nullptr), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("a generation is in progress"),
            std::string::npos);
  ASSERT_EQ(tcpu_generate_finish(sessions_[0], nullptr), TCPU_OK);
  greedy_again.text.clear();
  ASSERT_EQ(tcpu_generate_session_set_sampler(sessions_[0], nullptr), TCPU_OK);
  ASSERT_EQ(
      tcpu_generate_text(sessions_[0], request.prompt.data(),
                         static_cast<int64_t>(request.prompt.size()), &o, &greedy_again.stats),
      TCPU_OK);
  EXPECT_EQ(greedy_again.text, greedy.text);
  EXPECT_EQ(tcpu_generate_session_set_sampler(nullptr, nullptr), TCPU_ERR_NULL_POINTER);
  tcpu_generate_session_destroy(with_sampler);
  tcpu_sampler_destroy(created);
  tcpu_sampler_destroy(set);
}

bool DetailHas(const char* text) {
  return std::string(tcpu_last_error_detail()).find(text) != std::string::npos;
}

TEST_F(StepBatchTest, MisuseIsRefusedNamingIt) {
  const Request request = SixRequests()[0];
  Result result;
  const tcpu_generate_options o = request.Options(&result);
  const std::vector<int32_t> ids = {1, 2, 3};
  int32_t finished[3] = {0, 0, 0};

  // Nothing begun.
  EXPECT_EQ(tcpu_generate_finish(sessions_[0], nullptr), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("no generation in progress")) << tcpu_last_error_detail();
  EXPECT_EQ(tcpu_generate_step_batch(&sessions_[0], 1, finished), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("sessions[0] has no generation in progress")) << tcpu_last_error_detail();

  // Begin twice; a one-call generation while one is in progress.
  ASSERT_EQ(Begin(0, request, &result), TCPU_OK);
  EXPECT_EQ(Begin(0, request, &result), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("tcpu_generate_begin_text: a generation is in progress"))
      << tcpu_last_error_detail();
  EXPECT_EQ(tcpu_generate_ids(sessions_[0], ids.data(), 3, &o, nullptr), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_generate_begin_chat(sessions_[0], nullptr, 0, &o), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("created without a chat template")) << tcpu_last_error_detail();

  // Bad batches.
  ASSERT_EQ(tcpu_generate_begin_ids(sessions_[1], ids.data(), 3, &o), TCPU_OK);
  tcpu_generate_session* twice[2] = {sessions_[0], sessions_[0]};
  EXPECT_EQ(tcpu_generate_step_batch(twice, 2, finished), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("sessions[1] is sessions[0] again")) << tcpu_last_error_detail();
  tcpu_generate_session* with_null[2] = {sessions_[0], nullptr};
  EXPECT_EQ(tcpu_generate_step_batch(with_null, 2, finished), TCPU_ERR_NULL_POINTER);
  EXPECT_TRUE(DetailHas("sessions[1] is NULL")) << tcpu_last_error_detail();
  EXPECT_EQ(tcpu_generate_step_batch(nullptr, 1, finished), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_generate_step_batch(&sessions_[0], 1, nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_generate_step_batch(&sessions_[0], 0, finished), TCPU_ERR_INVALID_SIZE);
  tcpu_generate_session* sharing = nullptr;  // a second session over slot 2's decoder
  ASSERT_EQ(
      tcpu_generate_session_create(decoders_[2], tokenizer_, nullptr, nullptr, nullptr, &sharing),
      TCPU_OK);
  tcpu_generate_session* shared[2] = {sessions_[2], sharing};
  ASSERT_EQ(tcpu_generate_begin_ids(sessions_[2], ids.data(), 3, &o), TCPU_OK);
  ASSERT_EQ(tcpu_generate_begin_ids(sharing, ids.data(), 3, &o), TCPU_OK);
  EXPECT_EQ(tcpu_generate_step_batch(shared, 2, finished), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("sessions[1] shares its decoder with sessions[0]"))
      << tcpu_last_error_detail();
  EXPECT_EQ(tcpu_generate_finish(sharing, nullptr), TCPU_OK);
  tcpu_generate_session_destroy(sharing);
  EXPECT_EQ(tcpu_generate_finish(sessions_[2], nullptr), TCPU_OK);

  // A refused batch stepped nothing: slot 0 and 1 still at their first token.
  tcpu_generate_session* pair[2] = {sessions_[0], sessions_[1]};
  while (finished[0] == 0 || finished[1] == 0) {
    if (finished[0] == 0 && finished[1] == 0) {
      ASSERT_EQ(tcpu_generate_step_batch(pair, 2, finished), TCPU_OK);
    } else {
      const int open = finished[0] == 0 ? 0 : 1;
      ASSERT_EQ(tcpu_generate_step_batch(&pair[open], 1, &finished[open]), TCPU_OK);
    }
  }
  // Stepping a generation that has ended.
  EXPECT_EQ(tcpu_generate_step_batch(&sessions_[0], 1, finished), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(DetailHas("the generation of sessions[0] has ended")) << tcpu_last_error_detail();
  tcpu_generate_stats stats;
  ASSERT_EQ(tcpu_generate_finish(sessions_[0], &stats), TCPU_OK);
  EXPECT_LE(stats.generated_tokens, request.max_new_tokens);
  EXPECT_EQ(tcpu_generate_finish(sessions_[0], &stats), TCPU_ERR_INVALID_ARGUMENT);
  ASSERT_EQ(tcpu_generate_finish(sessions_[1], &stats), TCPU_OK);
  EXPECT_EQ(tcpu_generate_finish(nullptr, &stats), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_generate_begin_ids(nullptr, ids.data(), 3, &o), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_generate_begin_ids(sessions_[0], ids.data(), 3, nullptr), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_generate_begin_ids(sessions_[0], nullptr, 3, &o), TCPU_ERR_NULL_POINTER);
}

}  // namespace
