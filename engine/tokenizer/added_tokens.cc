#include "engine/tokenizer/added_tokens.h"

namespace tcpu::tokenizer {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

bool AddedTokens::Load(const Json& list, const std::string& path, std::string* error) {
  tokens_.clear();
  trie_.assign(1, TrieNode());
  by_id_.clear();
  if (list.is_null()) return true;
  if (!list.is_array()) return WrongType(path, "an array", list, error);
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i) + "]";
    AddedToken token;
    int64_t id = -1;
    if (!GetString(list[i], "content", where, true, &token.content, error) ||
        !GetInt(list[i], "id", where, &id, error) ||
        !GetBool(list[i], "special", where, &token.special, error) ||
        !GetBool(list[i], "lstrip", where, &token.lstrip, error) ||
        !GetBool(list[i], "rstrip", where, &token.rstrip, error)) {
      return false;
    }
    if (id < 0 || id > INT32_MAX) {
      *error = where + ".id: expected an id in [0, 2^31), got " + std::to_string(id);
      return false;
    }
    if (token.content.empty()) {
      *error = where + ".content: empty";
      return false;
    }
    token.id = static_cast<int32_t>(id);
    by_id_[token.id] = tokens_.size();
    int node = 0;
    for (const char c : token.content) {
      const auto key = static_cast<unsigned char>(c);
      auto it = trie_[node].children.find(key);
      if (it == trie_[node].children.end()) {
        trie_.emplace_back();
        it = trie_[node].children.emplace(key, static_cast<int>(trie_.size() - 1)).first;
      }
      node = it->second;
    }
    trie_[node].token = static_cast<int>(tokens_.size());
    tokens_.push_back(std::move(token));
  }
  return true;
}

std::vector<Section> AddedTokens::Split(std::string_view text) const {
  std::vector<Section> sections;
  size_t start = 0, pos = 0;
  while (pos < text.size()) {
    int node = 0, match = -1;
    size_t match_end = pos;
    for (size_t j = pos; j < text.size(); ++j) {
      const auto it = trie_[node].children.find(static_cast<unsigned char>(text[j]));
      if (it == trie_[node].children.end()) break;
      node = it->second;
      if (trie_[node].token >= 0) {
        match = trie_[node].token;
        match_end = j + 1;
      }
    }
    if (match < 0) {
      ++pos;
      continue;
    }
    if (pos > start) sections.push_back({text.substr(start, pos - start), nullptr});
    sections.push_back({text.substr(pos, match_end - pos), &tokens_[match]});
    pos = start = match_end;
  }
  if (start < text.size()) sections.push_back({text.substr(start), nullptr});

  for (size_t i = 0; i < sections.size(); ++i) {
    const AddedToken* token = sections[i].token;
    if (token == nullptr) continue;
    if (token->lstrip && i > 0 && sections[i - 1].token == nullptr) {
      std::string_view& before = sections[i - 1].text;
      while (!before.empty() && IsSpace(before.back())) before.remove_suffix(1);
    }
    if (token->rstrip && i + 1 < sections.size() && sections[i + 1].token == nullptr) {
      std::string_view& after = sections[i + 1].text;
      while (!after.empty() && IsSpace(after.front())) after.remove_prefix(1);
    }
  }
  return sections;
}

const AddedToken* AddedTokens::FindById(int32_t id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &tokens_[it->second];
}

const AddedToken* AddedTokens::FindByContent(std::string_view content) const {
  int node = 0;
  for (const char c : content) {
    const auto it = trie_[node].children.find(static_cast<unsigned char>(c));
    if (it == trie_[node].children.end()) return nullptr;
    node = it->second;
  }
  return trie_[node].token >= 0 ? &tokens_[trie_[node].token] : nullptr;
}

}  // namespace tcpu::tokenizer
