#include "engine/tokenizer/bpe_model.h"

#include <cstdio>
#include <functional>
#include <queue>

#include "engine/common/json_text.h"
#include "engine/common/utf8.h"

namespace tcpu::tokenizer {

bool BpeModel::Load(const Json& config, const std::string& path, std::string* error) {
  std::string type = "BPE";
  if (!GetString(config, "type", path, false, &type, error)) return false;
  if (type != "BPE") {
    *error = path + ".type: model \"" + type + "\" is not supported (BPE only)";
    return false;
  }
  std::string prefix, suffix;
  if (!GetString(config, "continuing_subword_prefix", path, false, &prefix, error) ||
      !GetString(config, "end_of_word_suffix", path, false, &suffix, error)) {
    return false;
  }
  if (!prefix.empty() || !suffix.empty()) {
    *error = path + ": continuing_subword_prefix / end_of_word_suffix are not supported";
    return false;
  }
  double dropout = 0;
  if (config.contains("dropout") && !config["dropout"].is_null()) {
    if (!config["dropout"].is_number()) {
      return WrongType(path + ".dropout", "a number or null", config["dropout"], error);
    }
    dropout = config["dropout"].get<double>();
  }
  if (dropout != 0) {
    *error = path + ".dropout: " + std::to_string(dropout) + ", only null or 0 is supported";
    return false;
  }
  if (!GetBool(config, "byte_fallback", path, &byte_fallback_, error) ||
      !GetBool(config, "fuse_unk", path, &fuse_unk_, error) ||
      !GetBool(config, "ignore_merges", path, &ignore_merges_, error)) {
    return false;
  }

  const Json* vocab = nullptr;
  if (!GetMember(config, "vocab", path, &vocab, error)) return false;
  if (!vocab->is_object()) return WrongType(path + ".vocab", "an object", *vocab, error);
  vocab_.clear();
  vocab_.reserve(vocab->size());
  for (const auto& [token, id] : vocab->items()) {
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > INT32_MAX) {
      *error = path + ".vocab[\"" + token + "\"]: expected an id in [0, 2^31), got " +
               engine::DumpJson(id);
      return false;
    }
    vocab_[token] = static_cast<int32_t>(id.get<int64_t>());
  }
  char_ids_.Clear();
  for (const auto& [token, id] : vocab_) {
    const size_t length = engine::Utf8SequenceLength(token, 0);
    if (length > 0 && length == token.size()) {
      char_ids_.Insert(engine::DecodeUtf8At(token, 0, length), id);  // one token per character
    }
  }

  std::string unk;
  if (!GetString(config, "unk_token", path, false, &unk, error)) return false;
  unk_id_ = unk.empty() ? -1 : TokenToId(unk);
  if (!unk.empty() && unk_id_ < 0) {
    *error = path + ".unk_token: \"" + unk + "\" is not in the vocabulary";
    return false;
  }
  for (int byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", byte);
    byte_token_ids_[byte] = TokenToId(name);
  }

  const Json* merges = nullptr;
  if (!GetMember(config, "merges", path, &merges, error)) return false;
  if (!merges->is_array()) return WrongType(path + ".merges", "an array", *merges, error);
  merges_.Clear();
  merges_.Reserve(merges->size());
  for (size_t rank = 0; rank < merges->size(); ++rank) {
    const Json& merge = (*merges)[rank];
    const std::string where = path + ".merges[" + std::to_string(rank) + "]";
    std::string left, right;
    // tokenizers >= 0.20 writes ["a", "b"]; older files "a b".
    if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string()) {
      left = merge[0].get<std::string>();
      right = merge[1].get<std::string>();
    } else if (merge.is_string()) {
      const std::string text = merge.get<std::string>();
      const size_t space = text.find(' ');
      if (space == std::string::npos) {
        *error = where + ": \"" + text + "\" is not two tokens separated by a space";
        return false;
      }
      left = text.substr(0, space);
      right = text.substr(space + 1);
    } else {
      return WrongType(where, "\"a b\" or [\"a\", \"b\"]", merge, error);
    }
    const int32_t left_id = TokenToId(left), right_id = TokenToId(right);
    const int32_t merged_id = TokenToId(left + right);
    // A merge whose parts or result are not tokens can never apply; Hugging Face refuses
    // the file, and so do we.
    if (left_id < 0 || right_id < 0 || merged_id < 0) {
      *error = where + ": \"" + left + "\" + \"" + right + "\" has a part or result outside " +
               "the vocabulary";
      return false;
    }
    // The first (lowest) rank wins when a pair is listed twice.
    merges_.Insert(PairKey(left_id, right_id), Merge{static_cast<int32_t>(rank), merged_id});
  }
  return true;
}

int32_t BpeModel::TokenToId(std::string_view token) const {
  // C++17's unordered_map has no lookup by string_view; tokens are short enough that the key
  // usually fits the string's inline buffer (no allocation).
  const auto it = vocab_.find(std::string(token));
  return it == vocab_.end() ? -1 : it->second;
}

void BpeModel::InitialSymbols(std::string_view word, std::vector<int32_t>* symbols) const {
  symbols->clear();
  bool last_was_unk = false;
  size_t pos = 0;
  while (pos < word.size()) {
    size_t length = engine::Utf8SequenceLength(word, pos);
    if (length == 0) length = 1;  // unreachable for checked input; never loop forever
    const std::string_view character = word.substr(pos, length);
    const int32_t* known = char_ids_.Find(engine::DecodeUtf8At(word, pos, length));
    pos += length;
    if (known != nullptr) {
      symbols->push_back(*known);
      last_was_unk = false;
      continue;
    }
    if (byte_fallback_) {
      bool all_bytes = true;
      for (const char c : character)
        all_bytes &= byte_token_ids_[static_cast<unsigned char>(c)] >= 0;
      if (all_bytes) {
        for (const char c : character) {
          symbols->push_back(byte_token_ids_[static_cast<unsigned char>(c)]);
        }
        last_was_unk = false;
        continue;
      }
    }
    if (unk_id_ < 0) continue;  // no unknown token: the character is dropped, as in HF
    if (!(fuse_unk_ && last_was_unk)) symbols->push_back(unk_id_);
    last_was_unk = true;
  }
}

void BpeModel::Encode(std::string_view word, std::vector<int32_t>* ids) const {
  if (word.empty()) return;
  if (ignore_merges_) {
    const int32_t whole = TokenToId(word);
    if (whole >= 0) {
      ids->push_back(whole);
      return;
    }
  }
  std::vector<int32_t> symbols;
  InitialSymbols(word, &symbols);
  const int n = static_cast<int>(symbols.size());
  if (n <= 1) {
    ids->insert(ids->end(), symbols.begin(), symbols.end());
    return;
  }
  // A doubly linked list over the symbols; a merge keeps the left one and unlinks the right.
  std::vector<int> prev(n), next(n);
  for (int i = 0; i < n; ++i) {
    prev[i] = i - 1;
    next[i] = i + 1 < n ? i + 1 : -1;
  }
  struct Candidate {
    int32_t rank;
    int left;  // position of the left symbol; ties go to the leftmost pair
    int32_t left_id, right_id;
    bool operator>(const Candidate& other) const {
      return rank != other.rank ? rank > other.rank : left > other.left;
    }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
  const auto push_pair = [&](int left) {
    if (left < 0) return;  // the merge was at the start of the word
    const int right = next[left];
    if (right < 0) return;
    const Merge* merge = merges_.Find(PairKey(symbols[left], symbols[right]));
    if (merge != nullptr) queue.push({merge->rank, left, symbols[left], symbols[right]});
  };
  for (int i = 0; i + 1 < n; ++i) push_pair(i);
  std::vector<bool> removed(n, false);
  while (!queue.empty()) {
    const Candidate top = queue.top();
    queue.pop();
    const int left = top.left;
    const int right = next[left];
    // Stale: the left symbol was merged away, or it or its neighbour changed since.
    if (removed[left] || right < 0 || symbols[left] != top.left_id ||
        symbols[right] != top.right_id) {
      continue;
    }
    symbols[left] = merges_.Find(PairKey(top.left_id, top.right_id))->merged_id;  // queued: found
    removed[right] = true;
    next[left] = next[right];
    if (next[right] >= 0) prev[next[right]] = left;
    push_pair(prev[left]);
    push_pair(left);
  }
  for (int i = 0; i >= 0; i = next[i]) ids->push_back(symbols[i]);
}

}  // namespace tcpu::tokenizer
