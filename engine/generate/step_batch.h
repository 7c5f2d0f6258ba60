// One token for each of several sessions' generations: each samples and handles its text and
// stops itself (Session::Advance), then the tokens of those that go on are fed together, one
// tcpu_decoder_step_batch per group of sessions whose decoders share a model (a lone session:
// tcpu_decoder_step, the same bits).
#ifndef TCPU_ENGINE_GENERATE_STEP_BATCH_H_
#define TCPU_ENGINE_GENERATE_STEP_BATCH_H_

#include <cstdint>

#include "engine/generate/session.h"

namespace tcpu::generate {

// Advances sessions[0, n): each has an unfinished generation, and no two share a session or a
// decoder (checked by the caller). A session whose feed fails ends with that error
// (Session::Finish returns it): a group whose batched step fails is fed again one session at a
// time, so that the others go on unharmed.
void StepSessions(Session* const* sessions, int64_t n);

}  // namespace tcpu::generate

#endif  // TCPU_ENGINE_GENERATE_STEP_BATCH_H_
