// tokenizer.json's "decoder" (named TokenDecoder here, apart from the engine's decoder):
// turns the token strings of some ids back into text.
// ByteLevel (undo the byte alphabet), Replace, ByteFallback ("<0xAB>" tokens to bytes),
// Fuse, Strip and Metaspace, alone or in a Sequence.
#ifndef TCPU_ENGINE_TOKENIZER_TOKEN_DECODER_H_
#define TCPU_ENGINE_TOKENIZER_TOKEN_DECODER_H_

#include <string>
#include <vector>

#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

// One token handed to the decoder; added tokens skip the byte-level step.
struct DecoderToken {
  std::string text;
  bool added = false;
};

class TokenDecoder {
 public:
  // `config` is the "decoder" value (null: tokens are joined with spaces, as in HF).
  bool Load(const Json& config, const std::string& path, std::string* error);

  std::string Decode(std::vector<DecoderToken> tokens) const;

 private:
  enum class Kind { kByteLevel, kReplace, kByteFallback, kFuse, kStrip, kMetaspace };
  struct Step {
    Kind kind;
    std::string from, to;           // kReplace; kMetaspace: from = replacement
    std::string content;            // kStrip: the character stripped
    int64_t start = 0, stop = 0;    // kStrip: at most this many from each end
    bool strip_first_space = true;  // kMetaspace: prepend_scheme is not "never"
  };
  // One component (not a Sequence) of type `type`, appended to steps_.
  bool LoadStep(const Json& config, const std::string& path, const std::string& type,
                std::string* error);
  static void ApplyStep(const Step& step, std::vector<DecoderToken>* tokens);

  std::vector<Step> steps_;
  bool null_decoder_ = true;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_TOKEN_DECODER_H_
