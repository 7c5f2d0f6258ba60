#include "engine/tokenizer/normalizer.h"

#include <cstdlib>
#include <memory>
#include <new>

#include "utf8proc.h"

namespace tcpu::tokenizer {
namespace {

bool IsAscii(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

std::string UnicodeForm(std::string_view text, int options) {
  // ASCII is the same in every normalization form: skip utf8proc's copy.
  if (IsAscii(text)) return std::string(text);
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t length =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                   static_cast<utf8proc_ssize_t>(text.size()), &mapped,
                   static_cast<utf8proc_option_t>(options | UTF8PROC_STABLE));
  // The input was checked to be UTF-8, so the only failure left is memory.
  if (length < 0) throw std::bad_alloc();
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owner(mapped, &std::free);
  return std::string(reinterpret_cast<const char*>(mapped), static_cast<size_t>(length));
}

std::string ReplaceAll(std::string_view text, const std::string& from, const std::string& to) {
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t hit = text.find(from, pos);
    if (hit == std::string_view::npos) break;
    out.append(text.substr(pos, hit - pos));
    out.append(to);
    pos = hit + from.size();
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace

bool Normalizer::Load(const Json& config, const std::string& path, std::string* error) {
  steps_.clear();
  if (config.is_null()) return true;
  // Every component (of a Sequence, or the config alone) goes to LoadStep.
  const auto load = [&](const auto&... component) { return LoadStep(component..., error); };
  return ForEachComponent(config, path, "normalizers", load, error);
}

bool Normalizer::LoadStep(const Json& config, const std::string& path, const std::string& type,
                          std::string* error) {
  Step step;
  if (type == "NFC" || type == "NFKC" || type == "NFD" || type == "NFKD") {
    step.kind = Kind::kUnicodeForm;
    const bool compat = type[2] == 'K';
    const bool compose = type.back() == 'C';
    step.utf8proc_options =
        (compose ? UTF8PROC_COMPOSE : UTF8PROC_DECOMPOSE) | (compat ? UTF8PROC_COMPAT : 0);
  } else if (type == "Prepend") {
    step.kind = Kind::kPrepend;
    if (!GetString(config, "prepend", path, true, &step.text, error)) return false;
  } else if (type == "Replace") {
    step.kind = Kind::kReplace;
    const Json* pattern = nullptr;
    if (!GetMember(config, "pattern", path, &pattern, error)) return false;
    if (!pattern->is_object() || !pattern->contains("String")) {
      *error = path + ".pattern: only {\"String\": ...} patterns are supported in a Replace " +
               "normalizer";
      return false;
    }
    if (!GetString(*pattern, "String", path + ".pattern", true, &step.text, error)) return false;
    if (step.text.empty()) {
      *error = path + ".pattern.String: empty";
      return false;
    }
    if (!GetString(config, "content", path, true, &step.content, error)) return false;
  } else {
    *error = path + ".type: normalizer \"" + type +
             "\" is not supported (NFC, NFKC, NFD, NFKD, Prepend, Replace, Sequence)";
    return false;
  }
  steps_.push_back(std::move(step));
  return true;
}

std::string Normalizer::Apply(std::string_view text) const {
  std::string current(text);
  for (const Step& step : steps_) {
    switch (step.kind) {
      case Kind::kUnicodeForm:
        current = UnicodeForm(current, step.utf8proc_options);
        break;
      case Kind::kPrepend:
        // As in Hugging Face: nothing is prepended to an empty string.
        if (!current.empty()) current = step.text + current;
        break;
      case Kind::kReplace:
        current = ReplaceAll(current, step.text, step.content);
        break;
    }
  }
  return current;
}

}  // namespace tcpu::tokenizer
