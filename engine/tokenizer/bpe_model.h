// tokenizer.json's "model" of type BPE: the vocabulary, the ranked merges, and the merge
// loop that turns one pre-tokenized word into ids (with SentencePiece's byte fallback and
// the unknown token for characters outside the vocabulary).
#ifndef TCPU_ENGINE_TOKENIZER_BPE_MODEL_H_
#define TCPU_ENGINE_TOKENIZER_BPE_MODEL_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/tokenizer/integer_key_map.h"
#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

class BpeModel {
 public:
  bool Load(const Json& config, const std::string& path, std::string* error);

  // Appends the ids of `word` (valid UTF-8) to *ids. Runs in O(n log n) for n characters:
  // a priority queue over the merge ranks of adjacent pairs, lowest rank (then leftmost)
  // first, with stale entries skipped on pop instead of rescanning the word.
  void Encode(std::string_view word, std::vector<int32_t>* ids) const;

  // -1 if `token` is not in the vocabulary.
  int32_t TokenToId(std::string_view token) const;

  const std::unordered_map<std::string, int32_t>& vocab() const { return vocab_; }

 private:
  struct Merge {
    int32_t rank;
    int32_t merged_id;
  };
  static uint64_t PairKey(int32_t left, int32_t right) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) |
           static_cast<uint32_t>(right);
  }
  // The initial symbols of `word`: one per character in the vocabulary, byte tokens for
  // the others (byte fallback), or the unknown token (fused when fuse_unk).
  void InitialSymbols(std::string_view word, std::vector<int32_t>* symbols) const;

  // No abseil maps: Debian's static abseil (raw_hash_set.cc.o) uses local-exec TLS, which a
  // shared library cannot link, and the tokenizer is in libtcpu.so. The vocabulary is read at
  // load (and for whole words with ignore_merges); the encode loop reads the two tables below.
  std::unordered_map<std::string, int32_t> vocab_;
  // Ids of the one-character tokens by code point: the initial symbols of every word, looked
  // up without building a string.
  IntegerKeyMap<uint32_t, int32_t> char_ids_;
  IntegerKeyMap<uint64_t, Merge> merges_;
  std::array<int32_t, 256> byte_token_ids_;  // "<0xAB>" ids, -1 where absent
  int32_t unk_id_ = -1;
  bool byte_fallback_ = false;
  bool fuse_unk_ = false;
  bool ignore_merges_ = false;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_BPE_MODEL_H_
