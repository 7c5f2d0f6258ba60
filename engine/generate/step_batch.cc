// StepSessions (step_batch.h).
#include "engine/generate/step_batch.h"

#include <vector>

#include "engine/model/decoder_state.h"
#include "tcpu/decoder.h"

namespace tcpu::generate {
namespace {

// Feeds tokens[i] to sessions[i]'s decoder for i in `group` (decoders of one model).
void FeedGroup(Session* const* sessions, const int32_t* tokens, const std::vector<int64_t>& group) {
  int32_t next = 0;
  if (group.size() == 1) {
    Session* s = sessions[group[0]];
    s->Fed(tokens[group[0]], tcpu_decoder_step(s->decoder(), tokens[group[0]], s->logits(), &next));
    return;
  }
  std::vector<tcpu_decoder*> decoders;
  std::vector<int32_t> fed, next_tokens(group.size());
  std::vector<float*> logits;
  for (int64_t i : group) {
    decoders.push_back(sessions[i]->decoder());
    fed.push_back(tokens[i]);
    logits.push_back(sessions[i]->logits());
  }
  const int status = tcpu_decoder_step_batch(decoders.data(), static_cast<int64_t>(group.size()),
                                             fed.data(), logits.data(), next_tokens.data());
  for (int64_t i : group) {
    Session* s = sessions[i];
    // A refused batch changed nothing: each session alone, so only a failing one ends.
    s->Fed(tokens[i], status == TCPU_OK
                          ? TCPU_OK
                          : tcpu_decoder_step(s->decoder(), tokens[i], s->logits(), &next));
  }
}

}  // namespace

void StepSessions(Session* const* sessions, int64_t n) {
  std::vector<int32_t> tokens(static_cast<size_t>(n));
  std::vector<char> waiting(static_cast<size_t>(n));  // to be fed, not yet grouped
  for (int64_t i = 0; i < n; ++i) waiting[i] = sessions[i]->Advance(&tokens[i]) ? 1 : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!waiting[i]) continue;
    const model::Model* model = model::ModelOf(sessions[i]->decoder());
    std::vector<int64_t> group;
    for (int64_t j = i; j < n; ++j) {
      if (waiting[j] && model::ModelOf(sessions[j]->decoder()) == model) {
        group.push_back(j);
        waiting[j] = 0;
      }
    }
    FeedGroup(sessions, tokens.data(), group);
  }
}

}  // namespace tcpu::generate
