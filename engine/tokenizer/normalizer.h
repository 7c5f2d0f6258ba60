// tokenizer.json's "normalizer": Unicode normalization (NFC, NFKC, NFD, NFKD through
// utf8proc), Prepend and Replace, alone or in a Sequence; applied to each stretch of text
// between added tokens.
#ifndef TCPU_ENGINE_TOKENIZER_NORMALIZER_H_
#define TCPU_ENGINE_TOKENIZER_NORMALIZER_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

class Normalizer {
 public:
  // `config` is the "normalizer" value (null: no normalization). False with *error naming
  // the field for an unknown type or a malformed step.
  bool Load(const Json& config, const std::string& path, std::string* error);

  // `text` must be valid UTF-8 (the tokenizer checks its input first).
  std::string Apply(std::string_view text) const;

 private:
  enum class Kind { kUnicodeForm, kPrepend, kReplace };
  struct Step {
    Kind kind;
    int utf8proc_options = 0;  // kUnicodeForm
    std::string text;          // kPrepend: what to prepend; kReplace: what to find
    std::string content;       // kReplace: what to put instead
  };
  // One component (not a Sequence) of type `type`, appended to steps_.
  bool LoadStep(const Json& config, const std::string& path, const std::string& type,
                std::string* error);

  std::vector<Step> steps_;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_NORMALIZER_H_
