// A compiled PCRE2 pattern (UTF and Unicode properties on, JIT when available) and the one
// operation the pre-tokenizer needs: the non-overlapping matches in a text, left to right.
#ifndef TCPU_ENGINE_TOKENIZER_REGEX_H_
#define TCPU_ENGINE_TOKENIZER_REGEX_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcpu::tokenizer {

class Regex {
 public:
  // nullptr with *error ("offset 12: missing closing parenthesis") if `pattern` is invalid.
  static std::unique_ptr<Regex> Compile(const std::string& pattern, std::string* error);
  ~Regex();

  // [begin, end) byte ranges of the matches in `text` (valid UTF-8); empty matches skipped.
  std::vector<std::pair<size_t, size_t>> FindAll(std::string_view text) const;

 private:
  explicit Regex(void* code) : code_(code) {}
  void* code_;  // pcre2_code_8*, kept out of the header so users need no PCRE2 macros
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_REGEX_H_
