// Tests of the generation API: the streaming pieces (TextStream holds characters split
// across byte-level tokens, StopStrings holds possible stop-string prefixes), EOS ids from
// generation_config.json, and whole sessions over the tiny Llama checkpoint with the tiny
// byte-level tokenizer: valid UTF-8 out, every stop condition, and a second turn that
// prefills only its new tokens yet generates what a fresh session over the whole
// conversation generates.
#include "tcpu/generate.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "engine/generate/generation_config.h"
#include "engine/generate/stop_strings.h"
#include "engine/generate/text_stream.h"
#include "gtest/gtest.h"
#include "tcpu/chat_template.h"
#include "tcpu/decoder.h"
#include "tcpu/sampler.h"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

namespace {

constexpr char kModel[] = "tools/checkpoint/tiny_llama";
constexpr char kTokenizer[] = "tools/tokenize/tiny_byte_level_tokenizer/tokenizer.json";

bool IsValidUtf8(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    const size_t length = lead < 0x80         ? 1
                          : (lead >> 5) == 6  ? 2
                          : (lead >> 4) == 14 ? 3
                          : (lead >> 3) == 30 ? 4
                                              : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

struct Tokenizer {
  Tokenizer() {
    EXPECT_EQ(tcpu_tokenizer_open(kTokenizer, &handle), TCPU_OK) << tcpu_last_error_detail();
  }
  ~Tokenizer() { tcpu_tokenizer_close(handle); }

  std::vector<int32_t> Encode(const std::string& text) const {
    int64_t n = 0;
    tcpu_tokenizer_encode(handle, text.data(), static_cast<int64_t>(text.size()), 0, nullptr, 0,
                          &n);
    std::vector<int32_t> ids(static_cast<size_t>(n));
    EXPECT_EQ(tcpu_tokenizer_encode(handle, text.data(), static_cast<int64_t>(text.size()), 0,
                                    ids.data(), n, &n),
              TCPU_OK);
    return ids;
  }

  std::string Decode(const std::vector<int32_t>& ids) const {
    int64_t bytes = 0;
    tcpu_tokenizer_decode(handle, ids.data(), static_cast<int64_t>(ids.size()), 1, nullptr, 0,
                          &bytes);
    std::string text(static_cast<size_t>(bytes) + 1, '\0');
    EXPECT_EQ(tcpu_tokenizer_decode(handle, ids.data(), static_cast<int64_t>(ids.size()), 1,
                                    text.data(), bytes + 1, &bytes),
              TCPU_OK);
    text.resize(static_cast<size_t>(bytes));
    return text;
  }

  tcpu_tokenizer* handle = nullptr;
};

TEST(TextStreamTest, HoldsCharactersSplitAcrossTokensUntilComplete) {
  Tokenizer tokenizer;
  const std::string text = "héllo 你好, wörld 🌍🙂 ok";
  const std::vector<int32_t> ids = tokenizer.Encode(text);
  // The premise: some tokens carry only part of a character.
  int partial_tokens = 0;
  for (int32_t id : ids)
    partial_tokens += !IsValidUtf8(tokenizer.Decode({id})) ||
                      tokenizer.Decode({id}).find("\xEF\xBF\xBD") != std::string::npos;
  ASSERT_GE(partial_tokens, 4);

  tcpu::generate::TextStream stream(tokenizer.handle, true);
  std::string joined;
  int pieces = 0;
  for (int32_t id : ids) {
    std::string piece;
    ASSERT_EQ(stream.Push(id, &piece), TCPU_OK);
    EXPECT_TRUE(IsValidUtf8(piece)) << piece;
    EXPECT_EQ(piece.find("\xEF\xBF\xBD"), std::string::npos) << "a split character leaked";
    pieces += !piece.empty();
    joined += piece;
  }
  std::string rest;
  ASSERT_EQ(stream.Finish(&rest), TCPU_OK);
  joined += rest;
  EXPECT_EQ(joined, text);
  EXPECT_LT(pieces, static_cast<int>(ids.size()));  // held tokens released together
}

TEST(StopStringsTest, HoldsWhatMayBeginAStopStringAndCutsAtIt) {
  tcpu::generate::StopStrings stops({"<|stop|>", "END"});
  std::string out;
  EXPECT_FALSE(stops.Feed("Hel", &out));
  EXPECT_FALSE(stops.Feed("lo <", &out));
  EXPECT_EQ(out, "Hello ");  // "<" may begin "<|stop|>"
  EXPECT_FALSE(stops.Feed("|s", &out));
  EXPECT_EQ(out, "Hello ");
  EXPECT_FALSE(stops.Feed("x> E", &out));
  EXPECT_EQ(out, "Hello <|sx> ");
  EXPECT_TRUE(stops.Feed("ND tail <|stop|>", &out));
  EXPECT_EQ(out, "Hello <|sx> ");

  tcpu::generate::StopStrings none({"zz"});
  std::string rest;
  EXPECT_FALSE(none.Feed("éz", &rest));
  EXPECT_EQ(rest, "é");
  none.Finish(&rest);
  EXPECT_EQ(rest, "éz");
}

TEST(GenerationConfigTest, ReadsAnIdOrAListOfIds) {
  std::vector<int32_t> ids;
  std::string error;
  EXPECT_TRUE(tcpu::generate::ReadEosTokenIds(R"({"eos_token_id": 7})", &ids, &error));
  EXPECT_TRUE(
      tcpu::generate::ReadEosTokenIds(R"({"eos_token_id": [128001, 128009]})", &ids, &error));
  EXPECT_TRUE(tcpu::generate::ReadEosTokenIds(R"({"bos_token_id": 1})", &ids, &error));
  EXPECT_EQ(ids, (std::vector<int32_t>{7, 128001, 128009}));
  EXPECT_FALSE(tcpu::generate::ReadEosTokenIds(R"({"eos_token_id": "2"})", &ids, &error));
  EXPECT_EQ(error, "eos_token_id: \"2\" is neither a token id nor a list of them");
  EXPECT_FALSE(tcpu::generate::ReadEosTokenIds(R"({"eos_token_id": [1, -1]})", &ids, &error));
  EXPECT_EQ(error, "eos_token_id: list entry -1 is not a token id");
}

// A decoder, tokenizer and session over the tiny checkpoint.
class GenerateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(tcpu_decoder_open(kModel, 256, &decoder_), TCPU_OK) << tcpu_last_error_detail();
  }
  void TearDown() override {
    tcpu_generate_session_destroy(session_);
    tcpu_chat_template_close(chat_template_);
    tcpu_decoder_close(decoder_);
  }

  void CreateSession(const char* generation_config = nullptr) {
    ASSERT_EQ(tcpu_generate_session_create(decoder_, tokenizer_.handle, nullptr, chat_template_,
                                           generation_config, &session_),
              TCPU_OK)
        << tcpu_last_error_detail();
  }

  std::vector<int32_t> History() const { return HistoryOf(session_); }

  // tcpu_generate_ids over all of `ids` in the fixture's session.
  int GenerateIds(const std::vector<int32_t>& ids, const tcpu_generate_options& options,
                  tcpu_generate_stats* stats) {
    return tcpu_generate_ids(session_, ids.data(), static_cast<int64_t>(ids.size()), &options,
                             stats);
  }

  static std::vector<int32_t> HistoryOf(const tcpu_generate_session* session) {
    int64_t n = 0;
    EXPECT_EQ(tcpu_generate_session_history(session, nullptr, 0, &n), TCPU_ERR_BUFFER_TOO_SMALL);
    std::vector<int32_t> ids(static_cast<size_t>(n));
    EXPECT_EQ(tcpu_generate_session_history(session, ids.data(), n, &n), TCPU_OK);
    return ids;
  }

  // The history a new session over a new decoder ends with after generating from `context`;
  // *stats: that call's.
  std::vector<int32_t> FreshSessionHistory(const std::vector<int32_t>& context,
                                           const tcpu_generate_options& options,
                                           tcpu_generate_stats* stats) const {
    std::vector<int32_t> history;
    tcpu_decoder* decoder = nullptr;
    EXPECT_EQ(tcpu_decoder_open(kModel, 256, &decoder), TCPU_OK) << tcpu_last_error_detail();
    tcpu_generate_session* session = nullptr;
    if (decoder != nullptr) {
      EXPECT_EQ(tcpu_generate_session_create(decoder, tokenizer_.handle, nullptr, nullptr,
                                             nullptr, &session),
                TCPU_OK);
    }
    if (session != nullptr) {
      EXPECT_EQ(tcpu_generate_ids(session, context.data(), static_cast<int64_t>(context.size()),
                                  &options, stats),
                TCPU_OK)
          << tcpu_last_error_detail();
      history = HistoryOf(session);
    }
    tcpu_generate_session_destroy(session);
    tcpu_decoder_close(decoder);
    return history;
  }

  Tokenizer tokenizer_;
  tcpu_decoder* decoder_ = nullptr;
  tcpu_chat_template* chat_template_ = nullptr;
  tcpu_generate_session* session_ = nullptr;
};

struct Collected {
  std::vector<std::string> pieces;
  int cancel_after = -1;  // pieces
};

int Collect(const char* text, int64_t bytes, void* user_data) {
  auto* collected = static_cast<Collected*>(user_data);
  collected->pieces.emplace_back(text, static_cast<size_t>(bytes));
  return static_cast<int>(collected->pieces.size()) == collected->cancel_after;
}

tcpu_generate_options Options(int64_t max_new_tokens, Collected* collected) {
  tcpu_generate_options options;
  tcpu_generate_default_options(&options);
  options.max_new_tokens = max_new_tokens;
  options.callback = Collect;
  options.user_data = collected;
  return options;
}

TEST_F(GenerateTest, StreamsValidUtf8PiecesThatAddUpToTheGeneratedText) {
  CreateSession();
  Collected collected;
  const tcpu_generate_options options = Options(48, &collected);
  const std::string prompt = "你好，世界。";
  tcpu_generate_stats stats;
  ASSERT_EQ(tcpu_generate_text(session_, prompt.data(), static_cast<int64_t>(prompt.size()),
                               &options, &stats),
            TCPU_OK)
      << tcpu_last_error_detail();
  const std::vector<int32_t> history = History();
  const std::vector<int32_t> context = tokenizer_.Encode(prompt);
  ASSERT_GT(history.size(), context.size());
  EXPECT_EQ(std::vector<int32_t>(history.begin(), history.begin() + context.size()), context);
  const std::vector<int32_t> generated(history.begin() + context.size(), history.end());
  EXPECT_EQ(stats.context_tokens, static_cast<int64_t>(context.size()));
  EXPECT_EQ(stats.reused_tokens, 0);
  EXPECT_EQ(stats.prefill_tokens, stats.context_tokens);
  EXPECT_EQ(stats.generated_tokens, static_cast<int64_t>(generated.size()));
  std::string joined;
  for (const std::string& piece : collected.pieces) {
    EXPECT_FALSE(piece.empty());
    EXPECT_TRUE(IsValidUtf8(piece));
    joined += piece;
  }
  EXPECT_EQ(joined, tokenizer_.Decode(generated));
  EXPECT_EQ(stats.text_bytes, static_cast<int64_t>(joined.size()));
  EXPECT_EQ(stats.stop_reason, stats.generated_tokens == 48 ? TCPU_STOP_MAX_TOKENS : TCPU_STOP_EOS);
}

TEST_F(GenerateTest, SecondTurnPrefillsOnlyItsNewTokensAndMatchesAFreshSession) {
  CreateSession();
  Collected collected;
  const tcpu_generate_options options = Options(6, &collected);
  const std::vector<int32_t> first = tokenizer_.Encode("The first turn of a conversation.");
  tcpu_generate_stats stats;
  ASSERT_EQ(GenerateIds(first, options, &stats), TCPU_OK) << tcpu_last_error_detail();
  ASSERT_EQ(stats.stop_reason, TCPU_STOP_MAX_TOKENS);
  std::vector<int32_t> conversation = History();  // first turn + its 6 tokens
  const std::vector<int32_t> second = tokenizer_.Encode(" And a second one, in reply.");
  conversation.insert(conversation.end(), second.begin(), second.end());

  ASSERT_EQ(GenerateIds(conversation, options, &stats), TCPU_OK) << tcpu_last_error_detail();
  // The cache holds the first turn and all but the last generated token (sampled, not fed).
  EXPECT_EQ(stats.reused_tokens, static_cast<int64_t>(first.size() + 6 - 1));
  EXPECT_EQ(stats.prefill_tokens, static_cast<int64_t>(1 + second.size()));
  const std::vector<int32_t> continued = History();

  tcpu_generate_stats fresh_stats;
  EXPECT_EQ(FreshSessionHistory(conversation, options, &fresh_stats), continued);
  EXPECT_EQ(fresh_stats.reused_tokens, 0);
  EXPECT_EQ(fresh_stats.prefill_tokens, static_cast<int64_t>(conversation.size()));

  // A context that leaves the cache early is fed again from the start, with the same result.
  ASSERT_EQ(GenerateIds(second, options, &stats), TCPU_OK);
  EXPECT_EQ(stats.reused_tokens, 0);
  EXPECT_EQ(stats.prefill_tokens, static_cast<int64_t>(second.size()));
}

TEST_F(GenerateTest, AnEditedContextIsFedAgainOnlyFromTheEdit) {
  CreateSession();
  Collected collected;
  const tcpu_generate_options options = Options(5, &collected);
  const std::vector<int32_t> original = tokenizer_.Encode("The first version of a long prompt.");
  tcpu_generate_stats stats;
  ASSERT_EQ(GenerateIds(original, options, &stats), TCPU_OK) << tcpu_last_error_detail();
  ASSERT_GT(original.size(), 4u);
  // The same start, then other tokens: the cache is kept up to the edit.
  const size_t kept = original.size() - 3;
  std::vector<int32_t> edited(original.begin(), original.begin() + kept);
  const std::vector<int32_t> tail = tokenizer_.Encode(" edited, with another ending.");
  edited.insert(edited.end(), tail.begin(), tail.end());
  ASSERT_NE(edited[kept], original[kept]);
  ASSERT_EQ(GenerateIds(edited, options, &stats), TCPU_OK) << tcpu_last_error_detail();
  EXPECT_EQ(stats.reused_tokens, static_cast<int64_t>(kept));
  EXPECT_EQ(stats.prefill_tokens, static_cast<int64_t>(edited.size() - kept));
  const std::vector<int32_t> after_edit = History();

  // A context that ends inside the cache feeds its last token again (its logits are needed).
  const std::vector<int32_t> prefix(edited.begin(), edited.begin() + kept + 2);
  ASSERT_EQ(GenerateIds(prefix, options, &stats), TCPU_OK) << tcpu_last_error_detail();
  EXPECT_EQ(stats.reused_tokens, static_cast<int64_t>(prefix.size() - 1));
  EXPECT_EQ(stats.prefill_tokens, 1);
  const std::vector<int32_t> after_prefix = History();

  // Both equal what fresh sessions generate from those contexts.
  EXPECT_EQ(FreshSessionHistory(edited, options, &stats), after_edit);
  EXPECT_EQ(FreshSessionHistory(prefix, options, &stats), after_prefix);
}

struct LogitsSeen {
  std::vector<std::vector<float>> steps;
  size_t cancel_after = 0;  // steps; 0: never
};

int KeepLogits(const float* logits, int64_t vocab_size, void* user_data) {
  auto* seen = static_cast<LogitsSeen*>(user_data);
  seen->steps.emplace_back(logits, logits + vocab_size);
  return seen->steps.size() == seen->cancel_after;
}

TEST_F(GenerateTest, IdsOnlySessionShowsEveryFedPositionsLogits) {
  // No tokenizer: ids in, ids out, no text and no EOS but the options' own.
  ASSERT_EQ(tcpu_generate_session_create(decoder_, nullptr, nullptr, nullptr, nullptr, &session_),
            TCPU_OK)
      << tcpu_last_error_detail();
  tcpu_generate_options options;
  tcpu_generate_default_options(&options);
  options.max_new_tokens = 5;
  LogitsSeen seen;
  options.logits_callback = KeepLogits;
  options.logits_user_data = &seen;
  const std::vector<int32_t> prompt = {1, 2, 3, 4};
  tcpu_generate_stats stats;
  ASSERT_EQ(tcpu_generate_ids(session_, prompt.data(), 4, &options, &stats), TCPU_OK)
      << tcpu_last_error_detail();
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_MAX_TOKENS);
  EXPECT_EQ(stats.generated_tokens, 5);
  EXPECT_EQ(stats.text_bytes, 0);
  const std::vector<int32_t> history = History();
  ASSERT_EQ(history.size(), 9u);
  // Every prompt token and every generated token but the last is fed; each step's logits
  // are the decoder's for the same position.
  ASSERT_EQ(seen.steps.size(), 8u);
  tcpu_decoder_info info;
  ASSERT_EQ(tcpu_decoder_get_info(decoder_, &info), TCPU_OK);
  tcpu_decoder* reference = nullptr;
  ASSERT_EQ(tcpu_decoder_open(kModel, 16, &reference), TCPU_OK);
  std::vector<float> logits(static_cast<size_t>(info.vocab_size));
  for (size_t i = 0; i < seen.steps.size(); ++i) {
    int32_t next = 0;
    ASSERT_EQ(tcpu_decoder_step(reference, history[i], logits.data(), &next), TCPU_OK);
    EXPECT_EQ(seen.steps[i], logits) << "position " << i;
    if (i >= 3) EXPECT_EQ(next, history[i + 1]) << "position " << i;
  }
  tcpu_decoder_close(reference);

  // Without the callback the prefill is batched: the same ids.
  options.logits_callback = nullptr;
  ASSERT_EQ(tcpu_generate_ids(session_, prompt.data(), 4, &options, &stats), TCPU_OK);
  EXPECT_EQ(History(), history);

  // The logits callback cancels, during the prefill as during decoding.
  options.logits_callback = KeepLogits;
  seen = LogitsSeen{{}, 2};
  const std::vector<int32_t> other = {5, 6, 7};
  ASSERT_EQ(tcpu_generate_ids(session_, other.data(), 3, &options, &stats), TCPU_OK);
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_CANCELLED);
  EXPECT_EQ(stats.generated_tokens, 0);
  seen = LogitsSeen{{}, 6};
  ASSERT_EQ(tcpu_generate_ids(session_, prompt.data(), 4, &options, &stats), TCPU_OK);
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_CANCELLED);
  EXPECT_EQ(stats.generated_tokens, 2);

  const std::string text = "text";
  EXPECT_EQ(tcpu_generate_text(session_, text.data(), 4, &options, &stats),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("no tokenizer"), std::string::npos);
}

TEST_F(GenerateTest, StopsOnEosIdsStopStringsAndCancellation) {
  CreateSession();
  Collected collected;
  tcpu_generate_options options = Options(24, &collected);
  const std::vector<int32_t> prompt = tokenizer_.Encode("Stop conditions.");
  tcpu_generate_stats stats;
  ASSERT_EQ(GenerateIds(prompt, options, &stats), TCPU_OK);
  const std::vector<int32_t> history = History();
  const std::vector<int32_t> generated(history.begin() + prompt.size(), history.end());
  ASSERT_GE(generated.size(), 4u);
  const std::string text = tokenizer_.Decode(generated);

  // The fourth generated token as a stop id: three tokens come out, the id is not shown.
  options.stop_ids = &generated[3];
  options.n_stop_ids = 1;
  ASSERT_EQ(GenerateIds(prompt, options, &stats), TCPU_OK);
  const int64_t first_at =
      std::find(generated.begin(), generated.end(), generated[3]) - generated.begin();
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_EOS);
  EXPECT_EQ(stats.generated_tokens, first_at);
  // The cache held the prompt and 23 generated tokens: it is truncated inside the prompt, whose
  // last token is fed again for its logits.
  EXPECT_EQ(stats.reused_tokens, static_cast<int64_t>(prompt.size() - 1));
  EXPECT_EQ(stats.prefill_tokens, 1);
  options.stop_ids = nullptr;
  options.n_stop_ids = 0;

  // The same id from a generation_config.json list.
  const std::string config = std::string(std::getenv("TEST_TMPDIR")) + "/generation_config.json";
  std::ofstream(config) << "{\"eos_token_id\": [1023, " << generated[3] << "]}";
  tcpu_generate_session_destroy(session_);
  session_ = nullptr;
  CreateSession(config.c_str());
  ASSERT_EQ(GenerateIds(prompt, options, &stats), TCPU_OK);
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_EOS);
  EXPECT_EQ(stats.generated_tokens, first_at);

  // A stop string from the middle of the text: what precedes it comes out, not it.
  tcpu_generate_session_destroy(session_);
  session_ = nullptr;
  CreateSession();
  const size_t cut = text.size() / 2;
  size_t begin = cut;
  while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
  const std::string stop = text.substr(begin, 2);
  const char* stop_strings[] = {stop.c_str()};
  options.stop_strings = stop_strings;
  options.n_stop_strings = 1;
  collected.pieces.clear();
  ASSERT_EQ(GenerateIds(prompt, options, &stats), TCPU_OK);
  std::string joined;
  for (const std::string& piece : collected.pieces) joined += piece;
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_STRING);
  EXPECT_EQ(joined, text.substr(0, text.find(stop)));
  options.stop_strings = nullptr;
  options.n_stop_strings = 0;

  // The callback cancels after its second piece.
  collected.pieces.clear();
  collected.cancel_after = 2;
  ASSERT_EQ(GenerateIds(prompt, options, &stats), TCPU_OK);
  EXPECT_EQ(stats.stop_reason, TCPU_STOP_CANCELLED);
  EXPECT_EQ(collected.pieces.size(), 2u);
  EXPECT_LT(stats.generated_tokens, 24);
}

TEST_F(GenerateTest, ChatTurnsGoThroughTheTemplate) {
  ASSERT_EQ(tcpu_chat_template_open_string(
                "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n"
                "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
                nullptr, "<|im_end|>", &chat_template_),
            TCPU_OK);
  CreateSession();
  Collected collected;
  const tcpu_generate_options options = Options(5, &collected);
  const tcpu_chat_message first[] = {{"user", "Hi there"}};
  tcpu_generate_stats stats;
  ASSERT_EQ(tcpu_generate_chat(session_, first, 1, &options, &stats), TCPU_OK)
      << tcpu_last_error_detail();
  const std::vector<int32_t> prompt =
      tokenizer_.Encode("<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n");
  EXPECT_EQ(stats.context_tokens, static_cast<int64_t>(prompt.size()));
  std::string reply;
  for (const std::string& piece : collected.pieces) reply += piece;

  const tcpu_chat_message second[] = {
      {"user", "Hi there"}, {"assistant", reply.c_str()}, {"user", "More?"}};
  ASSERT_EQ(tcpu_generate_chat(session_, second, 3, &options, &stats), TCPU_OK);
  // At least the first turn's prompt stays in the cache (the reply too when its text
  // tokenizes back to the generated ids).
  EXPECT_GE(stats.reused_tokens, static_cast<int64_t>(prompt.size()));
  EXPECT_EQ(stats.reused_tokens + stats.prefill_tokens, stats.context_tokens);

  tcpu_generate_options bad = options;
  bad.max_new_tokens = 0;
  EXPECT_EQ(tcpu_generate_chat(session_, second, 3, &bad, &stats), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_generate_chat(session_, nullptr, 3, &options, &stats), TCPU_ERR_NULL_POINTER);
}

}  // namespace
