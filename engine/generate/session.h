// A generation session behind tcpu/generate.h: KV-cache reuse across calls, and one generation
// at a time advanced token by token — begin (context, prefill), then rounds of Advance (sample,
// text, stops) and Fed (after the decoder took the token; step_batch.h feeds several sessions'
// tokens together), then Finish (stats). tcpu_generate_text and its siblings are that sequence
// on one session.
#ifndef TCPU_ENGINE_GENERATE_SESSION_H_
#define TCPU_ENGINE_GENERATE_SESSION_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tcpu/generate.h"

namespace tcpu::generate {

class Session {
 public:
  using Clock = std::chrono::steady_clock;

  // Checks and gathers the pieces; *eos_ids already holds the generation config's. Returns a
  // tcpu_status (TCPU_OK or the sampler's error when it creates a greedy one).
  int Init(tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer, tcpu_sampler* sampler,
           const tcpu_chat_template* chat_template, std::vector<int32_t> eos_ids);
  Session();
  ~Session();

  // Begins a generation after the context from text, ids or a conversation (rendered,
  // tokenized, prefilled as far as the cache does not hold it). `fn` names the caller in
  // errors; `start` is when the call began (prefill_seconds counts from it). tcpu_status codes;
  // on an error no generation is in progress.
  int BeginFromText(const char* fn, const char* text, int64_t text_bytes,
                    const tcpu_generate_options& options, Clock::time_point start);
  int BeginFromIds(const char* fn, const int32_t* ids, int64_t n_ids,
                   const tcpu_generate_options& options, Clock::time_point start);
  int BeginFromChat(const char* fn, const tcpu_chat_message* messages, int64_t n_messages,
                    const tcpu_generate_options& options, Clock::time_point start);

  bool in_progress() const { return generation_ != nullptr; }
  // A generation in progress that has ended (a stop, a cancel, or an error): Finish is next.
  bool finished() const;

  // One token of an unfinished generation: samples it, delivers its text and checks the
  // stops. Returns true when the token must be fed to the decoder (then *token), false when
  // the generation ended (finished()). An error ends the generation with it (Finish returns it).
  bool Advance(int32_t* token);
  // After the decoder was fed the token Advance gave (status: how that went; logits() then
  // hold its logits): remembers it, runs the logits callback. An error ends the generation.
  void Fed(int32_t token, int status);

  // Ends the generation (cancelled if it had not ended) and fills *stats (NULL: not); returns
  // the error the generation ended with, else TCPU_OK. The session is then ready for another.
  int Finish(tcpu_generate_stats* stats);

  // Replaces the sampler (NULL: a greedy one the session owns); not while in progress.
  int SetSampler(tcpu_sampler* sampler);

  tcpu_decoder* decoder() const { return decoder_; }
  float* logits() { return logits_.data(); }
  const std::vector<int32_t>& history() const { return history_; }

 private:
  struct Generation;

  int Begin(const char* fn, std::vector<int32_t> context, const tcpu_generate_options& options,
            Clock::time_point start);
  // Brings the decoder to `context` (reusing the cached prefix) and logits_ after it. With a
  // logits callback the tokens are fed one by one; *cancelled says whether it asked to stop.
  int Prefill(const std::vector<int32_t>& context, const tcpu_generate_options& options,
              int64_t* reused, bool* cancelled);
  // Feeds one token (appended to cached_); *cancelled as for Prefill.
  int Step(int32_t token, const tcpu_generate_options& options, bool* cancelled);
  // The decoder took `token` (logits_ follow it): appended to cached_; true when the logits
  // callback asks to stop.
  bool Took(int32_t token, const tcpu_generate_options& options);
  // Records the end of the generation: `reason`, or the error `status` (its detail kept).
  void End(int32_t reason);
  void EndWithError(int status);
  // Counts `text` and hands it to the text callback (which may cancel).
  void Deliver(const std::string& text);

  tcpu_decoder* decoder_ = nullptr;
  const tcpu_tokenizer* tokenizer_ = nullptr;
  tcpu_sampler* sampler_ = nullptr;
  bool owns_sampler_ = false;
  int64_t vocab_size_ = 0;
  const tcpu_chat_template* chat_template_ = nullptr;
  std::vector<int32_t> eos_ids_;
  int64_t max_tokens_ = 0;
  std::vector<int32_t> cached_;  // the ids in the decoder's KV cache, in order
  std::vector<float> logits_;    // the decoder's logits after cached_.back()
  std::vector<int32_t> history_;
  std::unique_ptr<Generation> generation_;  // the generation in progress, if any
};

// Checks the fields of `options` (naming the function `fn` in the detail); a tcpu_status.
int CheckOptions(const char* fn, const tcpu_generate_options& options);

}  // namespace tcpu::generate

#endif  // TCPU_ENGINE_GENERATE_SESSION_H_
