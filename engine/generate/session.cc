#include "engine/generate/session.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "engine/generate/stop_strings.h"
#include "engine/generate/text_stream.h"
#include "runtime/check.h"

namespace tcpu::generate {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// A generation in progress: its options (the stop strings and ids copied, so the caller's
// arrays need not outlive the begin call), its text state and its stats so far.
struct Session::Generation {
  Generation(const tcpu_generate_options& o, const tcpu_tokenizer* tokenizer)
      : options(o),
        stop_ids(o.stop_ids, o.stop_ids + o.n_stop_ids),
        stream(tokenizer, o.keep_special_tokens == 0),
        stops(std::vector<std::string>(o.stop_strings, o.stop_strings + o.n_stop_strings)) {
    options.stop_strings = nullptr;
    options.n_stop_strings = 0;
    options.stop_ids = nullptr;
    options.n_stop_ids = 0;
  }

  bool IsStopId(int32_t token) const {
    return std::find(stop_ids.begin(), stop_ids.end(), token) != stop_ids.end();
  }

  tcpu_generate_options options;  // callbacks and limits; stops live below
  std::vector<int32_t> stop_ids;
  TextStream stream;
  StopStrings stops;
  tcpu_generate_stats stats{};
  Clock::time_point decode_start;
  bool cancelled = false;  // a callback asked to stop
  bool finished = false;
  int error = TCPU_OK;  // the error the generation ended with, and its detail
  std::string error_detail;
};

int CheckOptions(const char* fn, const tcpu_generate_options& options) {
  TCPU_CHECK_POSITIVE(fn, options.max_new_tokens);
  if (options.n_stop_strings < 0 || options.n_stop_ids < 0) {
    return Fail(
        TCPU_ERR_INVALID_SIZE, "%s: n_stop_strings = %lld, n_stop_ids = %lld, expected >= 0", fn,
        static_cast<long long>(options.n_stop_strings), static_cast<long long>(options.n_stop_ids));
  }
  if (options.n_stop_strings > 0) TCPU_CHECK_NOT_NULL(fn, options.stop_strings);
  if (options.n_stop_ids > 0) TCPU_CHECK_NOT_NULL(fn, options.stop_ids);
  for (int64_t i = 0; i < options.n_stop_strings; ++i) {
    if (options.stop_strings[i] == nullptr || options.stop_strings[i][0] == '\0') {
      return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: stop_strings[%lld] is NULL or empty", fn,
                  static_cast<long long>(i));
    }
  }
  return TCPU_OK;
}

int Session::Init(tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer, tcpu_sampler* sampler,
                  const tcpu_chat_template* chat_template, std::vector<int32_t> eos_ids) {
  decoder_ = decoder;
  tokenizer_ = tokenizer;
  chat_template_ = chat_template;
  eos_ids_ = std::move(eos_ids);
  if (tokenizer != nullptr) {
    tcpu_tokenizer_info tokenizer_info;
    if (int status = tcpu_tokenizer_get_info(tokenizer, &tokenizer_info); status != TCPU_OK) {
      return status;
    }
    if (tokenizer_info.eos_id >= 0) eos_ids_.push_back(tokenizer_info.eos_id);
  }
  tcpu_decoder_info info;
  if (int status = tcpu_decoder_get_info(decoder, &info); status != TCPU_OK) return status;
  max_tokens_ = info.max_tokens;
  vocab_size_ = info.vocab_size;
  logits_.resize(static_cast<size_t>(info.vocab_size));
  // The decoder may hold tokens from before; start from an empty cache we know.
  if (int status = tcpu_decoder_reset(decoder); status != TCPU_OK) return status;
  sampler_ = sampler;
  if (sampler_ == nullptr) {
    tcpu_sampler_params greedy;
    tcpu_sampler_default_params(&greedy);
    if (int status = tcpu_sampler_create(&greedy, info.vocab_size, &sampler_); status != TCPU_OK) {
      return status;
    }
    owns_sampler_ = true;
  }
  return TCPU_OK;
}

Session::Session() = default;

Session::~Session() {
  if (owns_sampler_) tcpu_sampler_destroy(sampler_);
}

bool Session::finished() const { return generation_ != nullptr && generation_->finished; }

int Session::SetSampler(tcpu_sampler* sampler) {
  if (generation_ != nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "tcpu_generate_session_set_sampler: a generation is in progress "
                "(tcpu_generate_finish it first)");
  }
  if (sampler == nullptr) {
    if (owns_sampler_) return TCPU_OK;  // greedy already
    tcpu_sampler_params greedy;
    tcpu_sampler_default_params(&greedy);
    tcpu_sampler* created = nullptr;
    if (int status = tcpu_sampler_create(&greedy, vocab_size_, &created); status != TCPU_OK) {
      return status;
    }
    sampler_ = created;
    owns_sampler_ = true;
    return TCPU_OK;
  }
  if (owns_sampler_) tcpu_sampler_destroy(sampler_);
  sampler_ = sampler;
  owns_sampler_ = false;
  return TCPU_OK;
}

int Session::BeginFromText(const char* fn, const char* text, int64_t text_bytes,
                           const tcpu_generate_options& options, Clock::time_point start) {
  if (tokenizer_ == nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: the session has no tokenizer", fn);
  }
  int64_t n = 0;
  int status = tcpu_tokenizer_encode(tokenizer_, text, text_bytes, options.add_special_tokens,
                                     nullptr, 0, &n);
  std::vector<int32_t> ids(static_cast<size_t>(n));
  if (status == TCPU_ERR_BUFFER_TOO_SMALL) {
    status = tcpu_tokenizer_encode(tokenizer_, text, text_bytes, options.add_special_tokens,
                                   ids.data(), n, &n);
  }
  if (status != TCPU_OK) return status;
  return Begin(fn, std::move(ids), options, start);
}

int Session::BeginFromIds(const char* fn, const int32_t* ids, int64_t n_ids,
                          const tcpu_generate_options& options, Clock::time_point start) {
  return Begin(fn, std::vector<int32_t>(ids, ids + n_ids), options, start);
}

int Session::BeginFromChat(const char* fn, const tcpu_chat_message* messages, int64_t n_messages,
                           const tcpu_generate_options& options, Clock::time_point start) {
  if (chat_template_ == nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: the session was created without a chat template",
                fn);
  }
  int64_t bytes = 0;
  int status = tcpu_chat_template_render(chat_template_, messages, n_messages,
                                         options.add_generation_prompt, nullptr, 0, &bytes);
  if (status != TCPU_ERR_BUFFER_TOO_SMALL) return status;
  std::string prompt(static_cast<size_t>(bytes) + 1, '\0');
  status =
      tcpu_chat_template_render(chat_template_, messages, n_messages, options.add_generation_prompt,
                                prompt.data(), bytes + 1, &bytes);
  if (status != TCPU_OK) return status;
  prompt.resize(static_cast<size_t>(bytes));
  // The template writes the special tokens (BOS included): the tokenizer adds none.
  tcpu_generate_options text_options = options;
  text_options.add_special_tokens = 0;
  return BeginFromText(fn, prompt.data(), bytes, text_options, start);
}

int Session::Step(int32_t token, const tcpu_generate_options& options, bool* cancelled) {
  int32_t next = 0;
  if (int status = tcpu_decoder_step(decoder_, token, logits_.data(), &next); status != TCPU_OK) {
    return status;
  }
  if (Took(token, options)) *cancelled = true;
  return TCPU_OK;
}

bool Session::Took(int32_t token, const tcpu_generate_options& options) {
  cached_.push_back(token);
  return options.logits_callback != nullptr &&
         options.logits_callback(logits_.data(), static_cast<int64_t>(logits_.size()),
                                 options.logits_user_data) != 0;
}

int Session::Prefill(const std::vector<int32_t>& context, const tcpu_generate_options& options,
                     int64_t* reused, bool* cancelled) {
  size_t common = 0;
  while (common < cached_.size() && common < context.size() && cached_[common] == context[common]) {
    ++common;
  }
  // A context that ends inside the cached one needs its last token's logits again.
  if (common == context.size() && common < cached_.size() && common > 0) --common;
  if (common < cached_.size()) {
    // The new context leaves the cached one before its end: the cache is kept up to there.
    if (int status = tcpu_decoder_truncate(decoder_, static_cast<int64_t>(common));
        status != TCPU_OK) {
      return status;
    }
    cached_.resize(common);
  }
  *reused = static_cast<int64_t>(common);
  if (common == context.size()) return TCPU_OK;  // logits_ already follow the context
  if (options.logits_callback != nullptr) {
    // The caller sees every position's logits, so the tokens go one by one.
    for (size_t i = common; i < context.size() && !*cancelled; ++i) {
      if (int status = Step(context[i], options, cancelled); status != TCPU_OK) return status;
    }
    return TCPU_OK;
  }
  int32_t next = 0;
  const int status =
      tcpu_decoder_prefill(decoder_, context.data() + common,
                           static_cast<int64_t>(context.size() - common), logits_.data(), &next);
  if (status != TCPU_OK) return status;
  cached_ = context;
  return TCPU_OK;
}

int Session::Begin(const char* fn, std::vector<int32_t> context,
                   const tcpu_generate_options& options, Clock::time_point start) {
  if (generation_ != nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: a generation is in progress (tcpu_generate_finish it first)", fn);
  }
  if (context.empty()) return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: the context is empty", fn);
  if (static_cast<int64_t>(context.size()) > max_tokens_) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: the context has %lld tokens, more than the KV cache holds (%lld)", fn,
                static_cast<long long>(context.size()), static_cast<long long>(max_tokens_));
  }
  auto generation = std::make_unique<Generation>(options, tokenizer_);
  tcpu_generate_stats& stats = generation->stats;
  stats.context_tokens = static_cast<int64_t>(context.size());
  history_.clear();
  bool cancelled = false;
  if (int status = Prefill(context, options, &stats.reused_tokens, &cancelled); status != TCPU_OK) {
    return status;
  }
  stats.prefill_tokens = stats.context_tokens - stats.reused_tokens;
  stats.prefill_seconds = SecondsSince(start);
  generation->decode_start = Clock::now();
  history_ = std::move(context);
  generation_ = std::move(generation);
  generation_->stats.stop_reason = TCPU_STOP_MAX_TOKENS;
  if (cancelled) End(TCPU_STOP_CANCELLED);
  return Succeed();
}

bool Session::Advance(int32_t* token) {
  Generation& g = *generation_;
  if (int status = tcpu_sampler_sample(sampler_, logits_.data(), history_.data(),
                                       static_cast<int64_t>(history_.size()), token);
      status != TCPU_OK) {
    EndWithError(status);
    return false;
  }
  if (std::find(eos_ids_.begin(), eos_ids_.end(), *token) != eos_ids_.end() || g.IsStopId(*token)) {
    End(TCPU_STOP_EOS);
    return false;
  }
  history_.push_back(*token);
  ++g.stats.generated_tokens;
  std::string piece, visible;
  if (int status = g.stream.Push(*token, &piece); status != TCPU_OK) {
    EndWithError(status);
    return false;
  }
  const bool stop_string = g.stops.Feed(piece, &visible);
  Deliver(visible);
  if (stop_string) {
    End(TCPU_STOP_STRING);
  } else if (g.cancelled) {
    End(TCPU_STOP_CANCELLED);
  } else if (g.stats.generated_tokens == g.options.max_new_tokens) {
    End(TCPU_STOP_MAX_TOKENS);
  } else if (static_cast<int64_t>(cached_.size()) >= max_tokens_) {
    End(TCPU_STOP_CACHE_FULL);
  }
  return !g.finished;
}

void Session::Fed(int32_t token, int status) {
  if (status != TCPU_OK) {
    EndWithError(status);
    return;
  }
  if (Took(token, generation_->options)) End(TCPU_STOP_CANCELLED);
}

void Session::Deliver(const std::string& text) {
  Generation& g = *generation_;
  if (text.empty()) return;
  g.stats.text_bytes += static_cast<int64_t>(text.size());
  if (g.options.callback != nullptr &&
      g.options.callback(text.data(), static_cast<int64_t>(text.size()), g.options.user_data) !=
          0) {
    g.cancelled = true;
  }
}

void Session::End(int32_t reason) {
  Generation& g = *generation_;
  g.stats.stop_reason = reason;
  g.finished = true;
  if (reason != TCPU_STOP_STRING && reason != TCPU_STOP_CANCELLED) {
    // The held text: an unfinished character, or text that might have begun a stop string.
    std::string rest, visible;
    if (int status = g.stream.Finish(&rest); status != TCPU_OK) {
      EndWithError(status);
      return;
    }
    if (g.stops.Feed(rest, &visible)) {
      g.stats.stop_reason = TCPU_STOP_STRING;
    } else {
      g.stops.Finish(&visible);
    }
    Deliver(visible);
  }
  g.stats.decode_seconds = SecondsSince(g.decode_start);
}

void Session::EndWithError(int status) {
  Generation& g = *generation_;
  g.error = status;
  g.error_detail = tcpu_last_error_detail();
  g.finished = true;
  g.stats.decode_seconds = SecondsSince(g.decode_start);
}

int Session::Finish(tcpu_generate_stats* stats) {
  if (generation_ == nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "tcpu_generate_finish: the session has no generation in progress");
  }
  if (!generation_->finished) End(TCPU_STOP_CANCELLED);  // the caller went away
  const std::unique_ptr<Generation> ended = std::move(generation_);
  if (stats != nullptr) *stats = ended->stats;
  if (ended->error != TCPU_OK) return Fail(ended->error, "%s", ended->error_detail.c_str());
  return Succeed();
}

}  // namespace tcpu::generate
