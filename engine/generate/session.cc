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

Session::~Session() {
  if (owns_sampler_) tcpu_sampler_destroy(sampler_);
}

int Session::GenerateFromText(const char* text, int64_t text_bytes,
                              const tcpu_generate_options& options, tcpu_generate_stats* stats) {
  if (tokenizer_ == nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "tcpu_generate_text: the session has no tokenizer");
  }
  const Clock::time_point start = Clock::now();
  int64_t n = 0;
  int status = tcpu_tokenizer_encode(tokenizer_, text, text_bytes, options.add_special_tokens,
                                     nullptr, 0, &n);
  std::vector<int32_t> ids(static_cast<size_t>(n));
  if (status == TCPU_ERR_BUFFER_TOO_SMALL) {
    status = tcpu_tokenizer_encode(tokenizer_, text, text_bytes, options.add_special_tokens,
                                   ids.data(), n, &n);
  }
  if (status != TCPU_OK) return status;
  return Generate(std::move(ids), options, start, stats);
}

int Session::GenerateFromIds(const int32_t* ids, int64_t n_ids,
                             const tcpu_generate_options& options, tcpu_generate_stats* stats) {
  return Generate(std::vector<int32_t>(ids, ids + n_ids), options, Clock::now(), stats);
}

int Session::GenerateFromChat(const tcpu_chat_message* messages, int64_t n_messages,
                              const tcpu_generate_options& options, tcpu_generate_stats* stats) {
  constexpr char kFn[] = "tcpu_generate_chat";
  if (chat_template_ == nullptr) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: the session was created without a chat template",
                kFn);
  }
  const Clock::time_point start = Clock::now();
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
  const Clock::time_point render_end = Clock::now();
  status = GenerateFromText(prompt.data(), bytes, text_options, stats);
  if (status == TCPU_OK && stats != nullptr) {
    stats->prefill_seconds += std::chrono::duration<double>(render_end - start).count();
  }
  return status;
}

int Session::Step(int32_t token, const tcpu_generate_options& options, bool* cancelled) {
  int32_t next = 0;
  if (int status = tcpu_decoder_step(decoder_, token, logits_.data(), &next); status != TCPU_OK) {
    return status;
  }
  cached_.push_back(token);
  if (options.logits_callback != nullptr &&
      options.logits_callback(logits_.data(), static_cast<int64_t>(logits_.size()),
                              options.logits_user_data) != 0) {
    *cancelled = true;
  }
  return TCPU_OK;
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

bool Session::IsStop(int32_t token, const tcpu_generate_options& options) const {
  if (std::find(eos_ids_.begin(), eos_ids_.end(), token) != eos_ids_.end()) return true;
  return std::find(options.stop_ids, options.stop_ids + options.n_stop_ids, token) !=
         options.stop_ids + options.n_stop_ids;
}

int Session::Generate(std::vector<int32_t> context, const tcpu_generate_options& options,
                      Clock::time_point start, tcpu_generate_stats* stats) {
  constexpr char kFn[] = "tcpu_generate";
  if (context.empty()) return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: the context is empty", kFn);
  if (static_cast<int64_t>(context.size()) > max_tokens_) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: the context has %lld tokens, more than the KV cache holds (%lld)", kFn,
                static_cast<long long>(context.size()), static_cast<long long>(max_tokens_));
  }
  tcpu_generate_stats result{};
  result.context_tokens = static_cast<int64_t>(context.size());
  history_.clear();
  bool cancelled = false;
  if (int status = Prefill(context, options, &result.reused_tokens, &cancelled);
      status != TCPU_OK) {
    return status;
  }
  result.prefill_tokens = result.context_tokens - result.reused_tokens;
  result.prefill_seconds = SecondsSince(start);

  const Clock::time_point decode_start = Clock::now();
  history_ = std::move(context);
  std::vector<std::string> stop_texts(options.stop_strings,
                                      options.stop_strings + options.n_stop_strings);
  TextStream stream(tokenizer_, options.keep_special_tokens == 0);
  StopStrings stops(std::move(stop_texts));
  const auto deliver = [&](const std::string& text) {
    if (text.empty()) return;
    result.text_bytes += static_cast<int64_t>(text.size());
    if (options.callback != nullptr &&
        options.callback(text.data(), static_cast<int64_t>(text.size()), options.user_data) != 0) {
      cancelled = true;
    }
  };
  result.stop_reason = cancelled ? TCPU_STOP_CANCELLED : TCPU_STOP_MAX_TOKENS;
  while (!cancelled) {
    int32_t token = 0;
    if (int status = tcpu_sampler_sample(sampler_, logits_.data(), history_.data(),
                                         static_cast<int64_t>(history_.size()), &token);
        status != TCPU_OK) {
      return status;
    }
    if (IsStop(token, options)) {
      result.stop_reason = TCPU_STOP_EOS;
      break;
    }
    history_.push_back(token);
    ++result.generated_tokens;
    std::string piece, visible;
    if (int status = stream.Push(token, &piece); status != TCPU_OK) return status;
    const bool stop_string = stops.Feed(piece, &visible);
    deliver(visible);
    if (stop_string) {
      result.stop_reason = TCPU_STOP_STRING;
      break;
    }
    if (cancelled) {
      result.stop_reason = TCPU_STOP_CANCELLED;
      break;
    }
    if (result.generated_tokens == options.max_new_tokens) break;  // TCPU_STOP_MAX_TOKENS
    if (static_cast<int64_t>(cached_.size()) >= max_tokens_) {
      result.stop_reason = TCPU_STOP_CACHE_FULL;
      break;
    }
    if (int status = Step(token, options, &cancelled); status != TCPU_OK) return status;
    if (cancelled) result.stop_reason = TCPU_STOP_CANCELLED;
  }
  if (result.stop_reason != TCPU_STOP_STRING && result.stop_reason != TCPU_STOP_CANCELLED) {
    // The held text: an unfinished character, or text that might have begun a stop string.
    std::string rest, visible;
    if (int status = stream.Finish(&rest); status != TCPU_OK) return status;
    if (stops.Feed(rest, &visible)) {
      result.stop_reason = TCPU_STOP_STRING;
    } else {
      stops.Finish(&visible);
    }
    deliver(visible);
  }
  result.decode_seconds = SecondsSince(decode_start);
  if (stats != nullptr) *stats = result;
  return Succeed();
}

}  // namespace tcpu::generate
