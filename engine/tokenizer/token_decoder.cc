#include "engine/tokenizer/token_decoder.h"

#include <utility>

#include "engine/tokenizer/byte_level.h"
#include "engine/common/utf8.h"

namespace tcpu::tokenizer {
namespace {

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

// "<0xAB>" -> 0xAB, or -1.
int ByteTokenValue(const std::string& text) {
  if (text.size() != 6 || text.compare(0, 3, "<0x") != 0 || text[5] != '>') return -1;
  int value = 0;
  for (int i = 3; i < 5; ++i) {
    const char c = text[i];
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else {
      return -1;
    }
    value = value * 16 + digit;
  }
  return value;
}

// The bytes behind byte-level characters; characters outside the alphabet keep their
// own UTF-8 bytes.
void AppendByteLevelBytes(const std::string& text, std::string* bytes) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t length = engine::Utf8SequenceLength(text, pos);
    if (length == 0) length = 1;
    const int byte = ByteLevelByte(engine::DecodeUtf8At(text, pos, length));
    if (byte >= 0) {
      bytes->push_back(static_cast<char>(byte));
    } else {
      bytes->append(text, pos, length);
    }
    pos += length;
  }
}

}  // namespace

bool TokenDecoder::Load(const Json& config, const std::string& path, std::string* error) {
  steps_.clear();
  null_decoder_ = config.is_null();
  if (null_decoder_) return true;
  // Every component (of a Sequence, or the config alone) goes to LoadStep.
  const auto load = [&](const auto&... component) { return LoadStep(component..., error); };
  return ForEachComponent(config, path, "decoders", load, error);
}

bool TokenDecoder::LoadStep(const Json& config, const std::string& path, const std::string& type,
                            std::string* error) {
  Step step;
  if (type == "ByteLevel") {
    step.kind = Kind::kByteLevel;
  } else if (type == "Replace") {
    step.kind = Kind::kReplace;
    const Json* pattern = nullptr;
    if (!GetMember(config, "pattern", path, &pattern, error)) return false;
    if (!pattern->is_object() || !pattern->contains("String")) {
      *error = path + ".pattern: only {\"String\": ...} patterns are supported in a Replace " +
               "decoder";
      return false;
    }
    if (!GetString(*pattern, "String", path + ".pattern", true, &step.from, error)) return false;
    if (step.from.empty()) {
      *error = path + ".pattern.String: empty";
      return false;
    }
    if (!GetString(config, "content", path, true, &step.to, error)) return false;
  } else if (type == "ByteFallback") {
    step.kind = Kind::kByteFallback;
  } else if (type == "Fuse") {
    step.kind = Kind::kFuse;
  } else if (type == "Strip") {
    step.kind = Kind::kStrip;
    if (!GetString(config, "content", path, true, &step.content, error) ||
        !GetInt(config, "start", path, &step.start, error) ||
        !GetInt(config, "stop", path, &step.stop, error)) {
      return false;
    }
    if (step.start < 0 || step.stop < 0) {
      *error = path + ": start/stop must be >= 0, got " + std::to_string(step.start) + "/" +
               std::to_string(step.stop);
      return false;
    }
  } else if (type == "Metaspace") {
    step.kind = Kind::kMetaspace;
    step.from = "\xE2\x96\x81";
    if (!GetString(config, "replacement", path, false, &step.from, error)) return false;
    bool add_prefix_space = true;
    if (!GetBool(config, "add_prefix_space", path, &add_prefix_space, error)) return false;
    std::string scheme = add_prefix_space ? "always" : "never";
    if (!GetString(config, "prepend_scheme", path, false, &scheme, error)) return false;
    step.strip_first_space = scheme != "never";
  } else {
    *error = path + ".type: decoder \"" + type +
             "\" is not supported (ByteLevel, Replace, ByteFallback, Fuse, Strip, Metaspace, " +
             "Sequence)";
    return false;
  }
  steps_.push_back(std::move(step));
  return true;
}

void TokenDecoder::ApplyStep(const Step& step, std::vector<DecoderToken>* tokens) {
  std::vector<DecoderToken> out;
  switch (step.kind) {
    case Kind::kByteLevel: {
      // Runs of ordinary tokens become bytes, then text; added tokens stay as written.
      std::string bytes;
      const auto flush = [&] {
        if (!bytes.empty()) out.push_back({engine::Utf8Lossy(bytes), false});
        bytes.clear();
      };
      for (DecoderToken& token : *tokens) {
        if (token.added) {
          flush();
          out.push_back(std::move(token));
        } else {
          AppendByteLevelBytes(token.text, &bytes);
        }
      }
      flush();
      break;
    }
    case Kind::kReplace:
      for (DecoderToken& token : *tokens) token.text = ReplaceAll(token.text, step.from, step.to);
      return;
    case Kind::kByteFallback: {
      // As Hugging Face: a run of byte tokens that is not UTF-8 gives one U+FFFD per byte.
      std::string bytes;
      size_t count = 0;
      const auto flush = [&] {
        if (count == 0) return;
        size_t bad = 0;
        if (engine::IsValidUtf8(bytes, &bad)) {
          out.push_back({bytes, false});
        } else {
          std::string replacement;
          for (size_t i = 0; i < count; ++i) replacement += "\xEF\xBF\xBD";
          out.push_back({replacement, false});
        }
        bytes.clear();
        count = 0;
      };
      for (DecoderToken& token : *tokens) {
        const int byte = ByteTokenValue(token.text);
        if (byte >= 0) {
          bytes.push_back(static_cast<char>(byte));
          ++count;
        } else {
          flush();
          out.push_back(std::move(token));
        }
      }
      flush();
      break;
    }
    case Kind::kFuse: {
      DecoderToken fused;
      for (const DecoderToken& token : *tokens) fused.text += token.text;
      out.push_back(std::move(fused));
      break;
    }
    case Kind::kStrip:
      for (DecoderToken& token : *tokens) {
        // `content` is one character; strip up to start copies in front, stop at the end.
        const std::string& c = step.content;
        size_t begin = 0, end = token.text.size();
        for (int64_t i = 0; i < step.start && token.text.compare(begin, c.size(), c) == 0 &&
                            begin + c.size() <= end;
             ++i) {
          begin += c.size();
        }
        for (int64_t i = 0; i < step.stop && end >= begin + c.size() &&
                            token.text.compare(end - c.size(), c.size(), c) == 0;
             ++i) {
          end -= c.size();
        }
        token.text = token.text.substr(begin, end - begin);
      }
      return;
    case Kind::kMetaspace:
      for (size_t i = 0; i < tokens->size(); ++i) {
        std::string text = ReplaceAll((*tokens)[i].text, step.from, " ");
        if (i == 0 && step.strip_first_space && !text.empty() && text[0] == ' ') {
          text.erase(0, 1);
        }
        (*tokens)[i].text = std::move(text);
      }
      return;
  }
  *tokens = std::move(out);
}

std::string TokenDecoder::Decode(std::vector<DecoderToken> tokens) const {
  if (null_decoder_) {
    std::string joined;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i > 0) joined += ' ';
      joined += tokens[i].text;
    }
    return joined;
  }
  for (const Step& step : steps_) ApplyStep(step, &tokens);
  std::string text;
  for (const DecoderToken& token : tokens) text += token.text;
  return text;
}

}  // namespace tcpu::tokenizer
