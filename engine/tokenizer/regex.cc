#include "engine/tokenizer/regex.h"

#include <new>

#include "pcre2.h"

namespace tcpu::tokenizer {
namespace {

pcre2_code* Code(void* code) { return static_cast<pcre2_code*>(code); }

std::string ErrorMessage(int code) {
  PCRE2_UCHAR buffer[256];
  if (pcre2_get_error_message(code, buffer, sizeof(buffer)) < 0) return "unknown PCRE2 error";
  return reinterpret_cast<const char*>(buffer);
}

}  // namespace

std::unique_ptr<Regex> Regex::Compile(const std::string& pattern, std::string* error) {
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  // PCRE2_UCP: \s, \w, \d and [[:classes:]] follow Unicode, as in the Rust regex crate
  // (Oniguruma) that Hugging Face tokenizers compile these patterns with.
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP | PCRE2_NO_UTF_CHECK, &error_code,
                                   &error_offset, nullptr);
  if (code == nullptr) {
    *error = "offset " + std::to_string(error_offset) + ": " + ErrorMessage(error_code);
    return nullptr;
  }
  // JIT makes matching several times faster; without it (an unsupported CPU) the
  // interpreter gives the same matches.
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
  return std::unique_ptr<Regex>(new Regex(code));
}

Regex::~Regex() { pcre2_code_free(Code(code_)); }

std::vector<std::pair<size_t, size_t>> Regex::FindAll(std::string_view text) const {
  std::vector<std::pair<size_t, size_t>> matches;
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(Code(code_), nullptr);
  if (data == nullptr) throw std::bad_alloc();
  const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t start = 0;
  while (start <= text.size()) {
    // The text was checked to be UTF-8 once, so PCRE2 need not check it on every call.
    const int rc =
        pcre2_match(Code(code_), subject, text.size(), start, PCRE2_NO_UTF_CHECK, data, nullptr);
    if (rc < 0) break;  // PCRE2_ERROR_NOMATCH, or a resource limit: no more words
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
    const size_t begin = ovector[0], end = ovector[1];
    if (end > begin) {
      matches.emplace_back(begin, end);
      start = end;
    } else {
      // An empty match: step over one whole character, never into its middle.
      if (begin >= text.size()) break;
      start = begin + 1;
      while (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
        ++start;
      }
    }
  }
  pcre2_match_data_free(data);
  return matches;
}

}  // namespace tcpu::tokenizer
