// A Hugging Face tokenizer loaded from tokenizer.json (+ tokenizer_config.json), one file per
// component of the format: added tokens split out first, then the normalizer, pre-tokenizer
// and model (BPE) on each stretch of text between them, then the post-processor's special
// tokens; the decoder (token_decoder.h) and the added tokens' contents going back. The C ABI in
// tcpu/tokenizer.h wraps this class.
#ifndef TCPU_ENGINE_TOKENIZER_TOKENIZER_H_
#define TCPU_ENGINE_TOKENIZER_TOKENIZER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/added_tokens.h"
#include "engine/tokenizer/bpe_model.h"
#include "engine/tokenizer/normalizer.h"
#include "engine/tokenizer/post_processor.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "engine/tokenizer/token_decoder.h"

namespace tcpu::tokenizer {

class Tokenizer {
 public:
  // `tokenizer_json`: the contents of tokenizer.json; `config_json`: those of
  // tokenizer_config.json, or "" when there is none. False with *error naming the field.
  bool Load(std::string_view tokenizer_json, std::string_view config_json, std::string* error);

  // The same from parsed documents: `tokenizer` as tokenizer.json's root, `config` as
  // tokenizer_config.json's (nullptr when there is none). gguf_tokenizer.h builds them from a
  // GGUF file's metadata.
  bool LoadParsed(const Json& tokenizer, const Json* config, std::string* error);

  // False with *error naming the byte offset if `text` is not UTF-8.
  bool Encode(std::string_view text, bool add_special_tokens, std::vector<int32_t>* ids,
              std::string* error) const;

  // False with *error naming the id if one is outside the vocabulary.
  bool Decode(const std::vector<int32_t>& ids, bool skip_special_tokens, std::string* text,
              std::string* error) const;

  int64_t vocab_size() const { return static_cast<int64_t>(id_to_token_.size()); }
  int32_t bos_id() const { return bos_id_; }
  int32_t eos_id() const { return eos_id_; }

 private:
  bool LoadConfig(const Json& config, std::string* error);
  // "<s>" or {"content": "<s>"} in tokenizer_config.json -> its id (-1 when absent or null).
  bool ConfigTokenId(const Json& config, const char* key, int32_t* id, std::string* error);

  AddedTokens added_;
  Normalizer normalizer_;
  PreTokenizer pre_tokenizer_;
  BpeModel model_;
  PostProcessor post_processor_;
  TokenDecoder decoder_;
  std::vector<std::string> id_to_token_;  // "" for ids nobody uses
  std::vector<bool> id_used_;
  int32_t bos_id_ = -1, eos_id_ = -1;
  bool clean_up_spaces_ = false;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_TOKENIZER_H_
