// Generated ids to text as it becomes final. Decoding token by token is wrong twice over:
// a byte-level token may carry half of a UTF-8 character, and SentencePiece decoders treat a
// sequence's first token differently (its leading space). So each new token is decoded
// together with the token before it, and the text that the window adds is released only when
// it does not end in U+FFFD (the tokenizer's stand-in for an incomplete character).
// Released pieces are valid UTF-8; their concatenation, after Finish, is the decoding of all
// the ids.
#ifndef TCPU_ENGINE_GENERATE_TEXT_STREAM_H_
#define TCPU_ENGINE_GENERATE_TEXT_STREAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tcpu/tokenizer.h"

namespace tcpu::generate {

class TextStream {
 public:
  // A null tokenizer releases no text (a session of ids only).
  TextStream(const tcpu_tokenizer* tokenizer, bool skip_special_tokens)
      : tokenizer_(tokenizer), skip_special_tokens_(skip_special_tokens) {}

  // Adds `id`; appends the text it completes (possibly none) to *piece. A tcpu_status.
  int Push(int32_t id, std::string* piece);

  // Appends whatever is still held (an incomplete character becomes U+FFFD). A tcpu_status.
  int Finish(std::string* piece);

 private:
  int Decode(size_t begin, size_t end, std::string* text) const;
  // The text ids_[prefix_ ..) adds to ids_[prefix_, read_), when it is final.
  int Release(bool final, std::string* piece);

  const tcpu_tokenizer* tokenizer_;
  const bool skip_special_tokens_;
  std::vector<int32_t> ids_;
  size_t prefix_ = 0;  // first id of the decoding window (context for the next token)
  size_t read_ = 0;    // ids up to here have had their text released
};

}  // namespace tcpu::generate

#endif  // TCPU_ENGINE_GENERATE_TEXT_STREAM_H_
