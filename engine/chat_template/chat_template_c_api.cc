// The C ABI of tcpu/chat_template.h: argument checks, file reading, and the boundary where
// every C++ exception (out of memory, above all) becomes a status.
#include <cstring>
#include <memory>
#include <string>

#include "nlohmann/json.hpp"

#include "engine/chat_template/chat_template.h"
#include "engine/common/c_boundary.h"
#include "engine/common/json_text.h"
#include "engine/common/read_file.h"
#include "runtime/check.h"
#include "tcpu/chat_template.h"
#include "utf8proc.h"

struct tcpu_chat_template {
  tcpu::chat_template::ChatTemplate impl;
};

namespace {

// The byte offset of the first invalid UTF-8 sequence in `text`, or -1.
int64_t InvalidUtf8Offset(const char* text) {
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text);
  const utf8proc_ssize_t size = static_cast<utf8proc_ssize_t>(std::strlen(text));
  for (utf8proc_ssize_t pos = 0; pos < size;) {
    utf8proc_int32_t code_point;
    const utf8proc_ssize_t length = utf8proc_iterate(bytes + pos, size - pos, &code_point);
    if (length <= 0) return pos;
    pos += length;
  }
  return -1;
}

int Open(const char* path, tcpu_chat_template** chat_template) {
  constexpr char kFn[] = "tcpu_chat_template_open";
  TCPU_CHECK_NOT_NULL(kFn, path);
  TCPU_CHECK_NOT_NULL(kFn, chat_template);
  *chat_template = nullptr;
  const std::string config_path = tcpu::engine::FileInDirectory(path, "tokenizer_config.json");
  std::string config_json;
  if (!tcpu::engine::ReadFile(config_path, &config_json)) {
    return tcpu::Fail(TCPU_ERR_IO, "%s: cannot read %s", kFn, config_path.c_str());
  }
  auto owned = std::make_unique<tcpu_chat_template>();
  std::string error;
  if (!owned->impl.LoadConfig(config_json, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: %s: %s", kFn, config_path.c_str(),
                      error.c_str());
  }
  *chat_template = owned.release();
  return tcpu::Succeed();
}

int OpenString(const char* source, const char* bos_token, const char* eos_token,
               tcpu_chat_template** chat_template) {
  constexpr char kFn[] = "tcpu_chat_template_open_string";
  TCPU_CHECK_NOT_NULL(kFn, source);
  TCPU_CHECK_NOT_NULL(kFn, chat_template);
  *chat_template = nullptr;
  auto owned = std::make_unique<tcpu_chat_template>();
  std::string error;
  const auto token = [](const char* text) {
    return text != nullptr ? std::optional<std::string>(text) : std::nullopt;
  };
  if (!owned->impl.Parse(source, token(bos_token), token(eos_token), &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: chat template %s", kFn, error.c_str());
  }
  *chat_template = owned.release();
  return tcpu::Succeed();
}

// Renders `context` into the caller's buffer under the NUL and length-query convention.
int RenderContext(const char* fn, const tcpu_chat_template* chat_template,
                  const nlohmann::ordered_json& context, char* text, int64_t capacity,
                  int64_t* text_bytes) {
  std::string rendered, error;
  if (!chat_template->impl.Render(context, &rendered, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: chat template %s", fn, error.c_str());
  }
  *text_bytes = static_cast<int64_t>(rendered.size());
  if (capacity < *text_bytes + 1) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL, "%s: capacity = %lld, need %lld (with the NUL)",
                      fn, static_cast<long long>(capacity),
                      static_cast<long long>(*text_bytes + 1));
  }
  std::memcpy(text, rendered.data(), rendered.size());
  text[rendered.size()] = '\0';
  return tcpu::Succeed();
}

int CheckBuffer(const char* fn, char* text, int64_t capacity, int64_t* text_bytes) {
  TCPU_CHECK_NOT_NULL(fn, text_bytes);
  if (capacity < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: capacity = %lld, expected >= 0", fn,
                      static_cast<long long>(capacity));
  }
  if (capacity > 0) TCPU_CHECK_NOT_NULL(fn, text);
  return TCPU_OK;
}

int Render(const tcpu_chat_template* chat_template, const tcpu_chat_message* messages,
           int64_t n_messages, int add_generation_prompt, char* text, int64_t capacity,
           int64_t* text_bytes) {
  constexpr char kFn[] = "tcpu_chat_template_render";
  TCPU_CHECK_NOT_NULL(kFn, chat_template);
  if (const int status = CheckBuffer(kFn, text, capacity, text_bytes)) return status;
  if (n_messages < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: n_messages = %lld, expected >= 0", kFn,
                      static_cast<long long>(n_messages));
  }
  if (n_messages > 0) TCPU_CHECK_NOT_NULL(kFn, messages);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (int64_t i = 0; i < n_messages; ++i) {
    const tcpu_chat_message& message = messages[i];
    for (const auto& [field, value] :
         {std::pair{"role", message.role}, std::pair{"content", message.content}}) {
      if (value == nullptr) {
        return tcpu::Fail(TCPU_ERR_NULL_POINTER, "%s: messages[%lld].%s is NULL", kFn,
                          static_cast<long long>(i), field);
      }
      const int64_t bad = InvalidUtf8Offset(value);
      if (bad >= 0) {
        return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                          "%s: messages[%lld].%s is not UTF-8 (byte %lld)", kFn,
                          static_cast<long long>(i), field, static_cast<long long>(bad));
      }
    }
    list.push_back({{"role", message.role}, {"content", message.content}});
  }
  const nlohmann::ordered_json context = {{"messages", std::move(list)},
                                          {"add_generation_prompt", add_generation_prompt != 0}};
  return RenderContext(kFn, chat_template, context, text, capacity, text_bytes);
}

int RenderJson(const tcpu_chat_template* chat_template, const char* context_json, char* text,
               int64_t capacity, int64_t* text_bytes) {
  constexpr char kFn[] = "tcpu_chat_template_render_json";
  TCPU_CHECK_NOT_NULL(kFn, chat_template);
  TCPU_CHECK_NOT_NULL(kFn, context_json);
  if (const int status = CheckBuffer(kFn, text, capacity, text_bytes)) return status;
  nlohmann::ordered_json context;
  const bool well_formed = tcpu::engine::ParseJson(context_json, &context);
  if (!well_formed || !context.is_object()) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: context_json is not a JSON object (%s)", kFn,
                      well_formed ? "another type" : "malformed or not UTF-8");
  }
  return RenderContext(kFn, chat_template, context, text, capacity, text_bytes);
}

}  // namespace

extern "C" int tcpu_chat_template_open(const char* path, tcpu_chat_template** chat_template) {
  return tcpu::engine::Guarded("tcpu_chat_template_open",
                               [&] { return Open(path, chat_template); });
}

extern "C" int tcpu_chat_template_open_string(const char* source, const char* bos_token,
                                              const char* eos_token,
                                              tcpu_chat_template** chat_template) {
  return tcpu::engine::Guarded("tcpu_chat_template_open_string", [&] {
    return OpenString(source, bos_token, eos_token, chat_template);
  });
}

extern "C" void tcpu_chat_template_close(tcpu_chat_template* chat_template) {
  delete chat_template;
}

extern "C" int tcpu_chat_template_render(const tcpu_chat_template* chat_template,
                                         const tcpu_chat_message* messages, int64_t n_messages,
                                         int add_generation_prompt, char* text, int64_t capacity,
                                         int64_t* text_bytes) {
  return tcpu::engine::Guarded("tcpu_chat_template_render", [&] {
    return Render(chat_template, messages, n_messages, add_generation_prompt, text, capacity,
                  text_bytes);
  });
}

extern "C" int tcpu_chat_template_render_json(const tcpu_chat_template* chat_template,
                                              const char* context_json, char* text,
                                              int64_t capacity, int64_t* text_bytes) {
  return tcpu::engine::Guarded("tcpu_chat_template_render_json", [&] {
    return RenderJson(chat_template, context_json, text, capacity, text_bytes);
  });
}
