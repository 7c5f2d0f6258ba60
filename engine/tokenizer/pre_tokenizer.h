// tokenizer.json's "pre_tokenizer": splits normalized text into words that BPE sees one at
// a time. Split (a regex through PCRE2, for \p{L} classes and lookahead), ByteLevel (GPT-2's
// regex and byte alphabet) and Metaspace (spaces as "▁"), alone or in a Sequence.
#ifndef TCPU_ENGINE_TOKENIZER_PRE_TOKENIZER_H_
#define TCPU_ENGINE_TOKENIZER_PRE_TOKENIZER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

class Regex;

class PreTokenizer {
 public:
  PreTokenizer();
  ~PreTokenizer();
  PreTokenizer(PreTokenizer&&) noexcept;
  PreTokenizer& operator=(PreTokenizer&&) noexcept;

  // `config` is the "pre_tokenizer" value (null: the whole text is one word).
  bool Load(const Json& config, const std::string& path, std::string* error);

  // Splits `text` (valid UTF-8) into *words. `first_section`: the text starts the input
  // (Metaspace's prepend_scheme "first").
  void Split(std::string_view text, bool first_section, std::vector<std::string>* words) const;

  // True if some step maps bytes to the byte-level alphabet (the decoder must undo it).
  bool byte_level() const { return byte_level_; }

 private:
  enum class Kind { kSplit, kByteLevel, kMetaspace };
  enum class Behavior { kIsolated, kRemoved, kMergedWithPrevious, kMergedWithNext };
  enum class Prepend { kAlways, kFirst, kNever };
  struct Step {
    Kind kind;
    std::unique_ptr<Regex> regex;  // kSplit, and kByteLevel with use_regex
    Behavior behavior = Behavior::kIsolated;
    bool add_prefix_space = false;  // kByteLevel
    std::string replacement;        // kMetaspace
    Prepend prepend = Prepend::kAlways;
    bool split = true;  // kMetaspace: a word starts at each replacement character
  };
  // One component (not a Sequence) of type `type`, appended to steps_.
  bool LoadStep(const Json& config, const std::string& path, const std::string& type,
                std::string* error);
  void ApplyStep(const Step& step, bool first_section, std::vector<std::string>* words) const;

  std::vector<Step> steps_;
  bool byte_level_ = false;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_PRE_TOKENIZER_H_
