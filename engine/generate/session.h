// The generation loop behind tcpu/generate.h: KV-cache reuse across calls, sampling, stop
// conditions, and streaming text through TextStream and StopStrings.
#ifndef TCPU_ENGINE_GENERATE_SESSION_H_
#define TCPU_ENGINE_GENERATE_SESSION_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tcpu/generate.h"

namespace tcpu::generate {

class Session {
 public:
  // Checks and gathers the pieces; *eos_ids already holds the generation config's. Returns a
  // tcpu_status (TCPU_OK or the sampler's error when it creates a greedy one).
  int Init(tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer, tcpu_sampler* sampler,
           const tcpu_chat_template* chat_template, std::vector<int32_t> eos_ids);
  ~Session();

  // The context from text, ids or a conversation; then Generate. tcpu_status codes.
  int GenerateFromText(const char* text, int64_t text_bytes, const tcpu_generate_options& options,
                       tcpu_generate_stats* stats);
  int GenerateFromIds(const int32_t* ids, int64_t n_ids, const tcpu_generate_options& options,
                      tcpu_generate_stats* stats);
  int GenerateFromChat(const tcpu_chat_message* messages, int64_t n_messages,
                       const tcpu_generate_options& options, tcpu_generate_stats* stats);

  const std::vector<int32_t>& history() const { return history_; }

 private:
  using Clock = std::chrono::steady_clock;

  int Generate(std::vector<int32_t> context, const tcpu_generate_options& options,
               Clock::time_point start, tcpu_generate_stats* stats);
  // Brings the decoder to `context` (reusing the cached prefix) and logits_ after it. With a
  // logits callback the tokens are fed one by one; *cancelled says whether it asked to stop.
  int Prefill(const std::vector<int32_t>& context, const tcpu_generate_options& options,
              int64_t* reused, bool* cancelled);
  // Feeds one token (appended to cached_); *cancelled as for Prefill.
  int Step(int32_t token, const tcpu_generate_options& options, bool* cancelled);
  bool IsStop(int32_t token, const tcpu_generate_options& options) const;

  tcpu_decoder* decoder_ = nullptr;
  const tcpu_tokenizer* tokenizer_ = nullptr;
  tcpu_sampler* sampler_ = nullptr;
  bool owns_sampler_ = false;
  const tcpu_chat_template* chat_template_ = nullptr;
  std::vector<int32_t> eos_ids_;
  int64_t max_tokens_ = 0;
  std::vector<int32_t> cached_;  // the ids in the decoder's KV cache, in order
  std::vector<float> logits_;    // the decoder's logits after cached_.back()
  std::vector<int32_t> history_;
};

// Checks the fields of `options` (naming the function `fn` in the detail); a tcpu_status.
int CheckOptions(const char* fn, const tcpu_generate_options& options);

}  // namespace tcpu::generate

#endif  // TCPU_ENGINE_GENERATE_SESSION_H_
