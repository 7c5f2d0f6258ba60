// The C ABI of tcpu/tokenizer.h: argument checks, file reading (tokenizer.json, or a GGUF
// file's metadata), and the boundary where every C++ exception (out of memory, above all)
// becomes a status.
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "engine/common/mapped_file.h"
#include "engine/common/read_file.h"
#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/gguf_tokenizer.h"
#include "engine/tokenizer/tokenizer.h"
#include "runtime/check.h"
#include "tcpu/tokenizer.h"

struct tcpu_tokenizer {
  tcpu::tokenizer::Tokenizer impl;
};

namespace {

// A file that starts with GGUF's magic (a model directory or tokenizer.json does not).
bool IsGgufFile(const std::string& path) {
  if (tcpu::engine::IsDirectory(path)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::memcmp(magic, "GGUF", 4) == 0;
}

int OpenGguf(const char* fn, const std::string& path, tcpu_tokenizer** tokenizer) {
  tcpu::engine::MappedFile file;
  std::string error;
  if (!file.Open(path, &error)) return tcpu::Fail(TCPU_ERR_IO, "%s: %s", fn, error.c_str());
  tcpu::gguf::GgufFile parsed;
  tcpu::tokenizer::Json tokenizer_json, config_json;
  if (!tcpu::gguf::ParseGguf(file.data(), static_cast<size_t>(file.size()), path, &parsed,
                             &error) ||
      !tcpu::tokenizer::TokenizerJsonFromGguf(parsed, path, &tokenizer_json, &config_json,
                                              &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: %s", fn, error.c_str());
  }
  auto owned = std::make_unique<tcpu_tokenizer>();
  if (!owned->impl.LoadParsed(tokenizer_json, &config_json, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: %s (tokenizer built from its metadata): %s", fn,
                      path.c_str(), error.c_str());
  }
  *tokenizer = owned.release();
  return tcpu::Succeed();
}

int Open(const char* path, tcpu_tokenizer** tokenizer) {
  constexpr char kFn[] = "tcpu_tokenizer_open";
  TCPU_CHECK_NOT_NULL(kFn, path);
  TCPU_CHECK_NOT_NULL(kFn, tokenizer);
  *tokenizer = nullptr;
  std::string json_path = path, dir;
  if (IsGgufFile(json_path)) return OpenGguf(kFn, json_path, tokenizer);
  if (tcpu::engine::IsDirectory(json_path)) {
    dir = json_path;
    json_path = dir + "/tokenizer.json";
  } else {
    const size_t slash = json_path.rfind('/');
    dir = slash == std::string::npos ? "." : json_path.substr(0, slash);
  }
  std::string tokenizer_json, config_json;
  if (!tcpu::engine::ReadFile(json_path, &tokenizer_json)) {
    return tcpu::Fail(TCPU_ERR_IO, "%s: cannot read %s", kFn, json_path.c_str());
  }
  const std::string config_path = dir + "/tokenizer_config.json";
  struct stat info;
  if (stat(config_path.c_str(), &info) == 0 &&
      !tcpu::engine::ReadFile(config_path, &config_json)) {
    return tcpu::Fail(TCPU_ERR_IO, "%s: cannot read %s", kFn, config_path.c_str());
  }
  auto owned = std::make_unique<tcpu_tokenizer>();
  std::string error;
  if (!owned->impl.Load(tokenizer_json, config_json, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: %s: %s", kFn, json_path.c_str(), error.c_str());
  }
  *tokenizer = owned.release();
  return tcpu::Succeed();
}

int Encode(const tcpu_tokenizer* tokenizer, const char* text, int64_t text_bytes,
           int add_special_tokens, int32_t* ids, int64_t capacity, int64_t* n_ids) {
  constexpr char kFn[] = "tcpu_tokenizer_encode";
  TCPU_CHECK_NOT_NULL(kFn, tokenizer);
  TCPU_CHECK_NOT_NULL(kFn, n_ids);
  if (text_bytes < 0 || capacity < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE,
                      "%s: text_bytes = %lld, capacity = %lld, expected >= 0", kFn,
                      static_cast<long long>(text_bytes), static_cast<long long>(capacity));
  }
  if (text_bytes > 0) TCPU_CHECK_NOT_NULL(kFn, text);
  if (capacity > 0) TCPU_CHECK_NOT_NULL(kFn, ids);
  std::vector<int32_t> result;
  std::string error;
  if (!tokenizer->impl.Encode(std::string_view(text == nullptr ? "" : text, text_bytes),
                              add_special_tokens != 0, &result, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %s", kFn, error.c_str());
  }
  *n_ids = static_cast<int64_t>(result.size());
  if (*n_ids > capacity) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL, "%s: %lld ids, capacity %lld", kFn,
                      static_cast<long long>(*n_ids), static_cast<long long>(capacity));
  }
  if (!result.empty()) std::memcpy(ids, result.data(), result.size() * sizeof(int32_t));
  return tcpu::Succeed();
}

int Decode(const tcpu_tokenizer* tokenizer, const int32_t* ids, int64_t n_ids,
           int skip_special_tokens, char* text, int64_t capacity, int64_t* text_bytes) {
  constexpr char kFn[] = "tcpu_tokenizer_decode";
  TCPU_CHECK_NOT_NULL(kFn, tokenizer);
  TCPU_CHECK_NOT_NULL(kFn, text_bytes);
  if (n_ids < 0 || capacity < 0) {
    return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "%s: n_ids = %lld, capacity = %lld, expected >= 0",
                      kFn, static_cast<long long>(n_ids), static_cast<long long>(capacity));
  }
  if (n_ids > 0) TCPU_CHECK_NOT_NULL(kFn, ids);
  if (capacity > 0) TCPU_CHECK_NOT_NULL(kFn, text);
  std::string result, error;
  if (!tokenizer->impl.Decode(std::vector<int32_t>(ids, ids + n_ids), skip_special_tokens != 0,
                              &result, &error)) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: %s", kFn, error.c_str());
  }
  *text_bytes = static_cast<int64_t>(result.size());
  if (*text_bytes + 1 > capacity) {
    return tcpu::Fail(TCPU_ERR_BUFFER_TOO_SMALL, "%s: %lld bytes and a NUL, capacity %lld", kFn,
                      static_cast<long long>(*text_bytes), static_cast<long long>(capacity));
  }
  std::memcpy(text, result.data(), result.size());
  text[result.size()] = '\0';
  return tcpu::Succeed();
}

// Runs `body` and turns any exception into a status: nothing crosses the C ABI.
template <typename Body>
int Guarded(const char* fn, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return tcpu::Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
  } catch (const std::exception& e) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: %s", fn, e.what());
  } catch (...) {
    return tcpu::Fail(TCPU_ERR_INVALID_MODEL, "%s: unexpected error", fn);
  }
}

}  // namespace

extern "C" int tcpu_tokenizer_open(const char* path, tcpu_tokenizer** tokenizer) {
  return Guarded("tcpu_tokenizer_open", [&] { return Open(path, tokenizer); });
}

extern "C" void tcpu_tokenizer_close(tcpu_tokenizer* tokenizer) { delete tokenizer; }

extern "C" int tcpu_tokenizer_get_info(const tcpu_tokenizer* tokenizer, tcpu_tokenizer_info* info) {
  TCPU_CHECK_NOT_NULL("tcpu_tokenizer_get_info", tokenizer);
  TCPU_CHECK_NOT_NULL("tcpu_tokenizer_get_info", info);
  info->vocab_size = tokenizer->impl.vocab_size();
  info->bos_id = tokenizer->impl.bos_id();
  info->eos_id = tokenizer->impl.eos_id();
  return tcpu::Succeed();
}

extern "C" int tcpu_tokenizer_encode(const tcpu_tokenizer* tokenizer, const char* text,
                                     int64_t text_bytes, int add_special_tokens, int32_t* ids,
                                     int64_t capacity, int64_t* n_ids) {
  return Guarded("tcpu_tokenizer_encode", [&] {
    return Encode(tokenizer, text, text_bytes, add_special_tokens, ids, capacity, n_ids);
  });
}

extern "C" int tcpu_tokenizer_decode(const tcpu_tokenizer* tokenizer, const int32_t* ids,
                                     int64_t n_ids, int skip_special_tokens, char* text,
                                     int64_t capacity, int64_t* text_bytes) {
  return Guarded("tcpu_tokenizer_decode", [&] {
    return Decode(tokenizer, ids, n_ids, skip_special_tokens, text, capacity, text_bytes);
  });
}
