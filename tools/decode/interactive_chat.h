// `tcpu-decode --chat`: a conversation read from a stream one user turn per line, each answer
// streamed as it is generated. The session keeps the KV cache between turns: a turn's context
// is the ids of everything so far (the previous answers as generated, not re-tokenized) plus
// the tokens of the text the chat template adds for the new turn, so only those are prefilled.
// A template that renders earlier turns differently once a new one follows (some drop the
// reasoning of past answers) gets the whole conversation rendered again instead.
#ifndef TCPU_TOOLS_DECODE_INTERACTIVE_CHAT_H_
#define TCPU_TOOLS_DECODE_INTERACTIVE_CHAT_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tcpu/generate.h"
#include "tools/decode/chat_messages.h"

namespace tcpu::decode {

class Chat {
 public:
  // `options` minus its text callback (the answer goes to `out`). Nothing is owned.
  Chat(tcpu_generate_session* session, const tcpu_tokenizer* tokenizer,
       const tcpu_chat_template* chat_template, const tcpu_generate_options& options, FILE* out,
       std::vector<ChatMessage> conversation)
      : session_(session),
        tokenizer_(tokenizer),
        chat_template_(chat_template),
        options_(options),
        out_(out),
        messages_(std::move(conversation)) {}

  // Adds the user's turn, streams the answer to `out` and adds it to the conversation. A
  // tcpu_status; on an error the conversation is as before.
  int Reply(const std::string& user_text, tcpu_generate_stats* stats);

 private:
  static int WritePiece(const char* text, int64_t bytes, void* chat);

  tcpu_generate_session* session_;
  const tcpu_tokenizer* tokenizer_;
  const tcpu_chat_template* chat_template_;
  tcpu_generate_options options_;
  FILE* out_;
  std::vector<ChatMessage> messages_;
  std::string answer_;
  // The text the session's history stands for (the last rendered context and its answer),
  // and those ids; empty before the first turn.
  std::string covered_text_;
  std::vector<int32_t> covered_ids_;
};

struct ChatStreams {
  FILE* in;
  FILE* out;
  FILE* err;
  bool terminal;  // stdin is a terminal: show a prompt marker
  bool verbose;   // a line of statistics after each answer, on err
};

// Reads user turns from streams.in until an empty line or the end, answering each; the
// process exit code (1 after an error, printed on streams.err).
int RunChat(Chat* chat, const ChatStreams& streams);

}  // namespace tcpu::decode

#endif  // TCPU_TOOLS_DECODE_INTERACTIVE_CHAT_H_
