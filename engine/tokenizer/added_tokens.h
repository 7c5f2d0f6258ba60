// The added tokens of tokenizer.json ("added_tokens": special tokens such as <|im_end|>,
// and user additions), found in the raw text before normalization: at each position the
// longest added token that starts there wins, as in Hugging Face tokenizers.
#ifndef TCPU_ENGINE_TOKENIZER_ADDED_TOKENS_H_
#define TCPU_ENGINE_TOKENIZER_ADDED_TOKENS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

struct AddedToken {
  std::string content;
  int32_t id = -1;
  bool special = false;
  bool lstrip = false;  // whitespace before it is dropped
  bool rstrip = false;  // whitespace after it is dropped
};

// A stretch of the input: either plain text or one added token.
struct Section {
  std::string_view text;
  const AddedToken* token = nullptr;
};

class AddedTokens {
 public:
  bool Load(const Json& list, const std::string& path, std::string* error);

  // Splits `text` into plain stretches and added tokens, then applies lstrip/rstrip to the
  // neighbouring stretches.
  std::vector<Section> Split(std::string_view text) const;

  const AddedToken* FindById(int32_t id) const;
  const AddedToken* FindByContent(std::string_view content) const;
  const std::vector<AddedToken>& tokens() const { return tokens_; }

 private:
  // A byte trie over the contents; node 0 is the root.
  struct TrieNode {
    std::unordered_map<unsigned char, int> children;
    int token = -1;  // index into tokens_ of the token ending here
  };
  std::vector<AddedToken> tokens_;
  std::vector<TrieNode> trie_;
  std::unordered_map<int32_t, size_t> by_id_;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_ADDED_TOKENS_H_
