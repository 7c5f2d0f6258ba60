#include "engine/tokenizer/pre_tokenizer.h"

#include <utility>

#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/regex.h"

namespace tcpu::tokenizer {
namespace {

// The pattern of GPT-2's ByteLevel pre-tokenizer when "use_regex" is true.
constexpr char kGpt2Pattern[] =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// PCRE2 quotes a literal string between \Q and \E; an \E inside must be split out.
std::string QuoteLiteral(const std::string& text) {
  std::string out = "\\Q";
  size_t pos = 0;
  while (true) {
    const size_t hit = text.find("\\E", pos);
    if (hit == std::string::npos) break;
    out += text.substr(pos, hit - pos) + "\\E\\\\E\\Q";
    pos = hit + 2;
  }
  return out + text.substr(pos) + "\\E";
}

std::string ReplaceAll(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t hit = text.find(from, pos);
    if (hit == std::string::npos) break;
    out += text.substr(pos, hit - pos) + to;
    pos = hit + from.size();
  }
  return out + text.substr(pos);
}

}  // namespace

PreTokenizer::PreTokenizer() = default;
PreTokenizer::~PreTokenizer() = default;
PreTokenizer::PreTokenizer(PreTokenizer&&) noexcept = default;
PreTokenizer& PreTokenizer::operator=(PreTokenizer&&) noexcept = default;

bool PreTokenizer::Load(const Json& config, const std::string& path, std::string* error) {
  steps_.clear();
  byte_level_ = false;
  if (config.is_null()) return true;
  // Every component (of a Sequence, or the config alone) goes to LoadStep.
  const auto load = [&](const auto&... component) { return LoadStep(component..., error); };
  return ForEachComponent(config, path, "pretokenizers", load, error);
}

bool PreTokenizer::LoadStep(const Json& config, const std::string& path, const std::string& type,
                            std::string* error) {
  Step step;
  std::string regex_error;
  if (type == "Split") {
    step.kind = Kind::kSplit;
    const Json* pattern = nullptr;
    if (!GetMember(config, "pattern", path, &pattern, error)) return false;
    std::string source;
    if (pattern->is_object() && pattern->contains("Regex")) {
      if (!GetString(*pattern, "Regex", path + ".pattern", true, &source, error)) return false;
    } else if (pattern->is_object() && pattern->contains("String")) {
      std::string literal;
      if (!GetString(*pattern, "String", path + ".pattern", true, &literal, error)) return false;
      source = QuoteLiteral(literal);
    } else {
      *error = path + ".pattern: expected {\"Regex\": ...} or {\"String\": ...}";
      return false;
    }
    step.regex = Regex::Compile(source, &regex_error);
    if (step.regex == nullptr) {
      *error = path + ".pattern: invalid regex: " + regex_error;
      return false;
    }
    std::string behavior;
    if (!GetString(config, "behavior", path, true, &behavior, error)) return false;
    if (behavior == "Isolated") {
      step.behavior = Behavior::kIsolated;
    } else if (behavior == "Removed") {
      step.behavior = Behavior::kRemoved;
    } else if (behavior == "MergedWithPrevious") {
      step.behavior = Behavior::kMergedWithPrevious;
    } else if (behavior == "MergedWithNext") {
      step.behavior = Behavior::kMergedWithNext;
    } else {
      *error = path + ".behavior: \"" + behavior +
               "\" is not supported (Isolated, Removed, MergedWithPrevious, MergedWithNext)";
      return false;
    }
    bool invert = false;
    if (!GetBool(config, "invert", path, &invert, error)) return false;
    if (invert) {
      *error = path + ".invert: true is not supported";
      return false;
    }
  } else if (type == "ByteLevel") {
    step.kind = Kind::kByteLevel;
    byte_level_ = true;
    bool use_regex = true;
    if (!GetBool(config, "add_prefix_space", path, &step.add_prefix_space, error)) return false;
    if (!GetBool(config, "use_regex", path, &use_regex, error)) return false;
    if (use_regex) {
      step.regex = Regex::Compile(kGpt2Pattern, &regex_error);
      if (step.regex == nullptr) {
        *error = path + ": GPT-2 pattern: " + regex_error;
        return false;
      }
    }
  } else if (type == "Metaspace") {
    step.kind = Kind::kMetaspace;
    step.replacement = "\xE2\x96\x81";  // "▁"
    if (!GetString(config, "replacement", path, false, &step.replacement, error)) return false;
    if (step.replacement.empty()) {
      *error = path + ".replacement: empty";
      return false;
    }
    // Older files say add_prefix_space; newer ones prepend_scheme.
    bool add_prefix_space = true;
    if (!GetBool(config, "add_prefix_space", path, &add_prefix_space, error)) return false;
    step.prepend = add_prefix_space ? Prepend::kAlways : Prepend::kNever;
    std::string scheme;
    if (!GetString(config, "prepend_scheme", path, false, &scheme, error)) return false;
    if (scheme == "always") {
      step.prepend = Prepend::kAlways;
    } else if (scheme == "first") {
      step.prepend = Prepend::kFirst;
    } else if (scheme == "never") {
      step.prepend = Prepend::kNever;
    } else if (!scheme.empty()) {
      *error = path + ".prepend_scheme: \"" + scheme + "\", expected always, first or never";
      return false;
    }
    if (!GetBool(config, "split", path, &step.split, error)) return false;
  } else {
    *error = path + ".type: pre-tokenizer \"" + type +
             "\" is not supported (Split, ByteLevel, Metaspace, Sequence)";
    return false;
  }
  steps_.push_back(std::move(step));
  return true;
}

void PreTokenizer::Split(std::string_view text, bool first_section,
                         std::vector<std::string>* words) const {
  words->clear();
  words->emplace_back(text);
  for (const Step& step : steps_) ApplyStep(step, first_section, words);
}

void PreTokenizer::ApplyStep(const Step& step, bool first_section,
                             std::vector<std::string>* words) const {
  std::vector<std::string> out;
  out.reserve(words->size());
  for (std::string& word : *words) {
    switch (step.kind) {
      case Kind::kSplit: {
        const auto matches = step.regex->FindAll(word);
        // Gaps between matches are words of their own; the behavior says what becomes of
        // the matches.
        std::vector<std::pair<std::string_view, bool>> pieces;  // (text, is_match)
        const std::string_view view(word);
        size_t pos = 0;
        for (const auto& [begin, end] : matches) {
          if (begin > pos) pieces.emplace_back(view.substr(pos, begin - pos), false);
          pieces.emplace_back(view.substr(begin, end - begin), true);
          pos = end;
        }
        if (pos < view.size()) pieces.emplace_back(view.substr(pos), false);
        if (step.behavior == Behavior::kIsolated) {
          for (const auto& piece : pieces) out.emplace_back(piece.first);
        } else if (step.behavior == Behavior::kRemoved) {
          for (const auto& piece : pieces) {
            if (!piece.second) out.emplace_back(piece.first);
          }
        } else if (step.behavior == Behavior::kMergedWithPrevious) {
          std::string pending;
          for (const auto& piece : pieces) {
            pending.append(piece.first);
            if (piece.second) out.push_back(std::move(pending)), pending.clear();
          }
          if (!pending.empty()) out.push_back(std::move(pending));
        } else {  // kMergedWithNext
          std::string pending;
          for (const auto& piece : pieces) {
            if (piece.second && !pending.empty())
              out.push_back(std::move(pending)), pending.clear();
            pending.append(piece.first);
          }
          if (!pending.empty()) out.push_back(std::move(pending));
        }
        break;
      }
      case Kind::kByteLevel: {
        std::string prefixed;
        std::string_view source = word;
        if (step.add_prefix_space && (word.empty() || word[0] != ' ')) {
          prefixed = " " + word;
          source = prefixed;
        }
        if (step.regex == nullptr) {
          std::string mapped;
          AppendByteLevel(source, &mapped);
          out.push_back(std::move(mapped));
        } else {
          for (const auto& [begin, end] : step.regex->FindAll(source)) {
            std::string mapped;
            AppendByteLevel(source.substr(begin, end - begin), &mapped);
            out.push_back(std::move(mapped));
          }
        }
        break;
      }
      case Kind::kMetaspace: {
        std::string replaced = ReplaceAll(word, " ", step.replacement);
        const bool prepend =
            step.prepend == Prepend::kAlways || (step.prepend == Prepend::kFirst && first_section);
        if (prepend && replaced.compare(0, step.replacement.size(), step.replacement) != 0) {
          replaced = step.replacement + replaced;
        }
        if (!step.split) {
          out.push_back(std::move(replaced));
          break;
        }
        // Each word begins at a replacement character (Hugging Face's MergedWithNext split).
        size_t start = 0;
        while (start < replaced.size()) {
          size_t next = replaced.find(step.replacement, start + 1);
          if (next == std::string::npos) next = replaced.size();
          out.push_back(replaced.substr(start, next - start));
          start = next;
        }
        break;
      }
    }
  }
  *words = std::move(out);
}

}  // namespace tcpu::tokenizer
