#include "tools/decode/interactive_chat.h"

#include <cstdlib>

#include "tcpu/status.h"
#include "tools/decode/context_ids.h"

namespace tcpu::decode {
namespace {

const char* StopReasonName(int32_t reason) {
  switch (reason) {
    case TCPU_STOP_EOS:
      return "EOS";
    case TCPU_STOP_STRING:
      return "stop string";
    case TCPU_STOP_MAX_TOKENS:
      return "max new tokens";
    case TCPU_STOP_CACHE_FULL:
      return "KV cache full";
    case TCPU_STOP_CANCELLED:
      return "cancelled";
  }
  return "?";
}

// One line of `in` without its line break; false at the end of the stream.
bool ReadLine(FILE* in, std::string* line) {
  char* buffer = nullptr;
  size_t capacity = 0;
  const ssize_t n = getline(&buffer, &capacity, in);
  if (n >= 0) line->assign(buffer, static_cast<size_t>(n));
  std::free(buffer);
  if (n < 0) return false;
  while (!line->empty() && (line->back() == '\n' || line->back() == '\r')) line->pop_back();
  return true;
}

}  // namespace

int Chat::WritePiece(const char* text, int64_t bytes, void* chat) {
  auto* self = static_cast<Chat*>(chat);
  self->answer_.append(text, static_cast<size_t>(bytes));
  std::fwrite(text, 1, static_cast<size_t>(bytes), self->out_);
  std::fflush(self->out_);
  return 0;
}

int Chat::Reply(const std::string& user_text, tcpu_generate_stats* stats) {
  messages_.push_back({"user", user_text});
  const std::vector<tcpu_chat_message> views = ChatMessageViews(messages_);
  std::string rendered;
  int status = RenderChat(chat_template_, views, /*add_generation_prompt=*/true, &rendered);
  tcpu_generate_options options = options_;
  options.callback = WritePiece;
  options.user_data = this;
  answer_.clear();
  if (status == TCPU_OK && !covered_ids_.empty() &&
      rendered.compare(0, covered_text_.size(), covered_text_) == 0) {
    // What the template adds after the last answer (its end of turn, the user's turn, the
    // opening of the next answer) follows the ids the cache holds.
    std::vector<int32_t> added;
    status = EncodeText(tokenizer_, rendered.substr(covered_text_.size()),
                        /*add_special_tokens=*/false, &added);
    std::vector<int32_t> context = covered_ids_;
    context.insert(context.end(), added.begin(), added.end());
    if (status == TCPU_OK) {
      status = tcpu_generate_ids(session_, context.data(), static_cast<int64_t>(context.size()),
                                 &options, stats);
    }
  } else if (status == TCPU_OK) {
    status = tcpu_generate_chat(session_, views.data(), static_cast<int64_t>(views.size()),
                                &options, stats);
  }
  int64_t n_ids = 0;
  if (status == TCPU_OK) {
    status = tcpu_generate_session_history(session_, nullptr, 0, &n_ids);
    if (status == TCPU_ERR_BUFFER_TOO_SMALL) {
      covered_ids_.resize(static_cast<size_t>(n_ids));
      status = tcpu_generate_session_history(session_, covered_ids_.data(), n_ids, &n_ids);
    }
  }
  if (status != TCPU_OK) {
    messages_.pop_back();
    return status;
  }
  covered_text_ = rendered + answer_;
  messages_.push_back({"assistant", answer_});
  return TCPU_OK;
}

int RunChat(Chat* chat, const ChatStreams& streams) {
  for (int turn = 1;; ++turn) {
    if (streams.terminal) {
      std::fputs("> ", streams.out);
      std::fflush(streams.out);
    }
    std::string line;
    if (!ReadLine(streams.in, &line) || line.empty()) return 0;
    tcpu_generate_stats stats;
    const int status = chat->Reply(line, &stats);
    std::fputc('\n', streams.out);
    std::fflush(streams.out);
    if (status != TCPU_OK) {
      std::fprintf(streams.err, "tcpu-decode: turn %d: %s\n  %s\n", turn,
                   tcpu_status_string(status), tcpu_last_error_detail());
      return 1;
    }
    if (streams.verbose) {
      std::fprintf(streams.err,
                   "[turn %d: context %lld tokens: reused %lld, prefilled %lld; generated %lld "
                   "tokens, stop: %s; prefill %.3f s, decode %.3f s]\n",
                   turn, static_cast<long long>(stats.context_tokens),
                   static_cast<long long>(stats.reused_tokens),
                   static_cast<long long>(stats.prefill_tokens),
                   static_cast<long long>(stats.generated_tokens),
                   StopReasonName(stats.stop_reason), stats.prefill_seconds, stats.decode_seconds);
    }
  }
}

}  // namespace tcpu::decode
