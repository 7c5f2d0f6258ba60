// The C ABI of tcpu/generate.h: argument checks, reading generation_config.json, and the
// boundary where every C++ exception (out of memory, above all) becomes a status.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/common/c_boundary.h"
#include "engine/common/read_file.h"
#include "engine/generate/generation_config.h"
#include "engine/generate/session.h"
#include "engine/generate/step_batch.h"
#include "runtime/check.h"
#include "tcpu/generate.h"

struct tcpu_generate_session {
  tcpu::generate::Session impl;
};

namespace {

using Clock = tcpu::generate::Session::Clock;

// Reads the EOS ids of `path` (a generation_config.json, or a directory that may hold one).
int ReadGenerationConfig(const char* fn, const char* path, std::vector<int32_t>* eos_ids) {
  if (path == nullptr) return TCPU_OK;
  const std::string file = tcpu::engine::FileInDirectory(path, "generation_config.json");
  std::string contents;
  if (!tcpu::engine::ReadFile(file, &contents)) {
    // A model directory without a generation config adds nothing; a named file must exist.
    if (tcpu::engine::IsDirectory(path)) return TCPU_OK;
    return tcpu::Fail(TCPU_ERR_IO, "%s: cannot read %s", fn, file.c_str());
  }
  std::string error;
  if (!tcpu::generate::ReadEosTokenIds(contents, eos_ids, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: %s: %s", fn, file.c_str(), error.c_str());
  }
  return TCPU_OK;
}

int Create(tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer, tcpu_sampler* sampler,
           const tcpu_chat_template* chat_template, const char* generation_config,
           tcpu_generate_session** session) {
  constexpr char kFn[] = "tcpu_generate_session_create";
  TCPU_CHECK_NOT_NULL(kFn, decoder);
  TCPU_CHECK_NOT_NULL(kFn, session);
  *session = nullptr;
  std::vector<int32_t> eos_ids;
  if (int status = ReadGenerationConfig(kFn, generation_config, &eos_ids); status != TCPU_OK) {
    return status;
  }
  auto owned = std::make_unique<tcpu_generate_session>();
  if (int status = owned->impl.Init(decoder, tokenizer, sampler, chat_template, std::move(eos_ids));
      status != TCPU_OK) {
    return status;
  }
  *session = owned.release();
  return tcpu::Succeed();
}

// The checks every tcpu_generate_* call shares.
int CheckCall(const char* fn, const tcpu_generate_session* session,
              const tcpu_generate_options* options) {
  TCPU_CHECK_NOT_NULL(fn, session);
  TCPU_CHECK_NOT_NULL(fn, options);
  return tcpu::generate::CheckOptions(fn, *options);
}

int CheckCount(const char* fn, const char* name, int64_t count, const void* pointer) {
  if (count < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: %s = %lld, expected >= 0", fn, name,
                      static_cast<long long>(count));
  }
  if (count > 0 && pointer == nullptr) {
    return tcpu::Fail(TCPU_ERR_NULL_POINTER, "%s: NULL data for %s = %lld", fn, name,
                      static_cast<long long>(count));
  }
  return TCPU_OK;
}

// A begun generation run to its end on its own: the one-call forms (tcpu_generate_text, ...).
int RunToEnd(tcpu::generate::Session* session, tcpu_generate_stats* stats) {
  while (!session->finished()) tcpu::generate::StepSessions(&session, 1);
  return session->Finish(stats);
}

// The checks of tcpu_generate_step_batch: every session with a generation in progress that has
// not ended, none twice, no two over one decoder.
int CheckSessions(const char* fn, tcpu_generate_session* const* sessions, int64_t n,
                  const int32_t* finished) {
  TCPU_CHECK_NOT_NULL(fn, sessions);
  TCPU_CHECK_NOT_NULL(fn, finished);
  TCPU_CHECK_POSITIVE(fn, n);
  for (int64_t i = 0; i < n; ++i) {
    const long long index = static_cast<long long>(i);
    if (sessions[i] == nullptr) {
      return tcpu::Fail(TCPU_ERR_NULL_POINTER, "%s: sessions[%lld] is NULL", fn, index);
    }
    const tcpu::generate::Session& s = sessions[i]->impl;
    if (!s.in_progress()) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: sessions[%lld] has no generation in progress (tcpu_generate_begin_* "
                        "first)",
                        fn, index);
    }
    if (s.finished()) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "%s: the generation of sessions[%lld] has ended (tcpu_generate_finish it)",
                        fn, index);
    }
    for (int64_t j = 0; j < i; ++j) {
      if (sessions[j] == sessions[i]) {
        return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                          "%s: sessions[%lld] is sessions[%lld] again (each steps once)", fn, index,
                          static_cast<long long>(j));
      }
      if (sessions[j]->impl.decoder() == s.decoder()) {
        return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                          "%s: sessions[%lld] shares its decoder with sessions[%lld]", fn, index,
                          static_cast<long long>(j));
      }
    }
  }
  return TCPU_OK;
}

}  // namespace

extern "C" int tcpu_generate_session_create(tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer,
                                            tcpu_sampler* sampler,
                                            const tcpu_chat_template* chat_template,
                                            const char* generation_config,
                                            tcpu_generate_session** session) {
  return tcpu::engine::Guarded("tcpu_generate_session_create", [&] {
    return Create(decoder, tokenizer, sampler, chat_template, generation_config, session);
  });
}

extern "C" void tcpu_generate_session_destroy(tcpu_generate_session* session) { delete session; }

extern "C" void tcpu_generate_default_options(tcpu_generate_options* options) {
  if (options == nullptr) return;
  *options = tcpu_generate_options{};
  options->max_new_tokens = 256;
  options->add_special_tokens = 1;
  options->add_generation_prompt = 1;
}

// The begin calls, and the one-call forms that are begin, steps alone until the end, finish.
extern "C" int tcpu_generate_begin_text(tcpu_generate_session* session, const char* text,
                                        int64_t text_bytes, const tcpu_generate_options* options) {
  constexpr char kFn[] = "tcpu_generate_begin_text";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckCall(kFn, session, options)) return status;
    if (int status = CheckCount(kFn, "text_bytes", text_bytes, text)) return status;
    return session->impl.BeginFromText(kFn, text, text_bytes, *options, Clock::now());
  });
}

extern "C" int tcpu_generate_begin_ids(tcpu_generate_session* session, const int32_t* ids,
                                       int64_t n_ids, const tcpu_generate_options* options) {
  constexpr char kFn[] = "tcpu_generate_begin_ids";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckCall(kFn, session, options)) return status;
    if (int status = CheckCount(kFn, "n_ids", n_ids, ids)) return status;
    return session->impl.BeginFromIds(kFn, ids, n_ids, *options, Clock::now());
  });
}

extern "C" int tcpu_generate_begin_chat(tcpu_generate_session* session,
                                        const tcpu_chat_message* messages, int64_t n_messages,
                                        const tcpu_generate_options* options) {
  constexpr char kFn[] = "tcpu_generate_begin_chat";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckCall(kFn, session, options)) return status;
    if (int status = CheckCount(kFn, "n_messages", n_messages, messages)) return status;
    return session->impl.BeginFromChat(kFn, messages, n_messages, *options, Clock::now());
  });
}

extern "C" int tcpu_generate_step_batch(tcpu_generate_session* const* sessions, int64_t n,
                                        int32_t* finished) {
  constexpr char kFn[] = "tcpu_generate_step_batch";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckSessions(kFn, sessions, n, finished)) return status;
    std::vector<tcpu::generate::Session*> impls;
    for (int64_t i = 0; i < n; ++i) impls.push_back(&sessions[i]->impl);
    tcpu::generate::StepSessions(impls.data(), n);
    for (int64_t i = 0; i < n; ++i) finished[i] = impls[i]->finished() ? 1 : 0;
    return tcpu::Succeed();
  });
}

extern "C" int tcpu_generate_finish(tcpu_generate_session* session, tcpu_generate_stats* stats) {
  constexpr char kFn[] = "tcpu_generate_finish";
  return tcpu::engine::Guarded(kFn, [&] {
    TCPU_CHECK_NOT_NULL(kFn, session);
    return session->impl.Finish(stats);
  });
}

extern "C" int tcpu_generate_session_set_sampler(tcpu_generate_session* session,
                                                 tcpu_sampler* sampler) {
  constexpr char kFn[] = "tcpu_generate_session_set_sampler";
  return tcpu::engine::Guarded(kFn, [&] {
    TCPU_CHECK_NOT_NULL(kFn, session);
    if (int status = session->impl.SetSampler(sampler)) return status;
    return tcpu::Succeed();
  });
}

extern "C" int tcpu_generate_text(tcpu_generate_session* session, const char* text,
                                  int64_t text_bytes, const tcpu_generate_options* options,
                                  tcpu_generate_stats* stats) {
  constexpr char kFn[] = "tcpu_generate_text";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckCall(kFn, session, options)) return status;
    if (int status = CheckCount(kFn, "text_bytes", text_bytes, text)) return status;
    if (int status = session->impl.BeginFromText(kFn, text, text_bytes, *options, Clock::now())) {
      return status;
    }
    return RunToEnd(&session->impl, stats);
  });
}

extern "C" int tcpu_generate_ids(tcpu_generate_session* session, const int32_t* ids, int64_t n_ids,
                                 const tcpu_generate_options* options, tcpu_generate_stats* stats) {
  constexpr char kFn[] = "tcpu_generate_ids";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckCall(kFn, session, options)) return status;
    if (int status = CheckCount(kFn, "n_ids", n_ids, ids)) return status;
    if (int status = session->impl.BeginFromIds(kFn, ids, n_ids, *options, Clock::now())) {
      return status;
    }
    return RunToEnd(&session->impl, stats);
  });
}

extern "C" int tcpu_generate_chat(tcpu_generate_session* session, const tcpu_chat_message* messages,
                                  int64_t n_messages, const tcpu_generate_options* options,
                                  tcpu_generate_stats* stats) {
  constexpr char kFn[] = "tcpu_generate_chat";
  return tcpu::engine::Guarded(kFn, [&] {
    if (int status = CheckCall(kFn, session, options)) return status;
    if (int status = CheckCount(kFn, "n_messages", n_messages, messages)) return status;
    if (int status =
            session->impl.BeginFromChat(kFn, messages, n_messages, *options, Clock::now())) {
      return status;
    }
    return RunToEnd(&session->impl, stats);
  });
}

extern "C" int tcpu_generate_session_history(const tcpu_generate_session* session, int32_t* ids,
                                             int64_t capacity, int64_t* n_ids) {
  constexpr char kFn[] = "tcpu_generate_session_history";
  TCPU_CHECK_NOT_NULL(kFn, session);
  TCPU_CHECK_NOT_NULL(kFn, n_ids);
  if (int status = CheckCount(kFn, "capacity", capacity, ids)) return status;
  const std::vector<int32_t>& history = session->impl.history();
  *n_ids = static_cast<int64_t>(history.size());
  if (capacity < *n_ids) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL, "%s: capacity = %lld, need %lld", kFn,
                      static_cast<long long>(capacity), static_cast<long long>(*n_ids));
  }
  std::copy(history.begin(), history.end(), ids);
  return tcpu::Succeed();
}
