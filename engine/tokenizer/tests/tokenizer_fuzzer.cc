// libFuzzer over the tokenizer. The first input byte picks what is fuzzed:
//   even: the rest is a tokenizer.json; if it loads, a fixed text is encoded and decoded.
//   odd:  the rest is text for a fixed byte-level tokenizer (256 byte tokens, a few merges,
//         NFC, added tokens); valid UTF-8 must come back from decode as its NFC form.
// Crashes, sanitizer reports and a broken round trip fail.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/json_text.h"
#include "engine/tokenizer/byte_level.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/common/utf8.h"

namespace {

using tcpu::tokenizer::Tokenizer;

// A byte-level tokenizer like Qwen's, small enough to load once.
std::string FixedTokenizerJson() {
  nlohmann::json vocab = nlohmann::json::object();
  for (int byte = 0; byte < 256; ++byte) {
    std::string token;
    tcpu::tokenizer::AppendByteLevel(std::string(1, static_cast<char>(byte)), &token);
    vocab[token] = byte;
  }
  const std::vector<std::pair<std::string, std::string>> merges = {
      {"\xC4\xA0", "t"}, {"h", "e"}, {"\xC4\xA0t", "he"}, {"i", "n"}, {"\xC4\xA0", "\xC4\xA0"}};
  nlohmann::json merge_list = nlohmann::json::array();
  int next_id = 256;
  for (const auto& [left, right] : merges) {
    vocab[left + right] = next_id++;
    merge_list.push_back({left, right});
  }
  nlohmann::json root = {
      {"added_tokens",
       {{{"id", next_id}, {"content", "<|end|>"}, {"special", true}},
        {{"id", next_id + 1}, {"content", "<|end|>x"}, {"special", false}}}},
      {"normalizer", {{"type", "NFC"}}},
      {"pre_tokenizer",
       {{"type", "Sequence"},
        {"pretokenizers",
         {{{"type", "Split"},
           {"pattern",
            {{"Regex",
              R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)"}}},
           {"behavior", "Isolated"}},
          {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}}},
      {"decoder", {{"type", "ByteLevel"}}},
      {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merge_list}}}};
  return tcpu::engine::DumpJson(root);
}

const Tokenizer& FixedTokenizer() {
  static const Tokenizer* tokenizer = [] {
    auto* made = new Tokenizer;
    std::string error;
    if (!made->Load(FixedTokenizerJson(), "", &error)) std::abort();
    return made;
  }();
  return *tokenizer;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<int32_t> ids;
  std::string text, error;
  if ((data[0] & 1) == 0) {
    Tokenizer tokenizer;
    if (!tokenizer.Load(rest, "", &error)) return 0;
    const std::string sample = "Hello wörld 你好 👋🏽\n\t  <s> 123 don't";
    if (tokenizer.Encode(sample, true, &ids, &error)) tokenizer.Decode(ids, false, &text, &error);
    return 0;
  }
  const Tokenizer& tokenizer = FixedTokenizer();
  size_t bad = 0;
  const bool valid = tcpu::engine::IsValidUtf8(rest, &bad);
  if (tokenizer.Encode(rest, false, &ids, &error) != valid) std::abort();
  if (!valid) return 0;
  for (const int32_t id : ids) {
    if (id < 0 || id >= tokenizer.vocab_size()) std::abort();
  }
  if (!tokenizer.Decode(ids, false, &text, &error)) std::abort();
  // Byte-level BPE loses nothing: the text comes back, normalized.
  std::vector<int32_t> again;
  if (!tokenizer.Encode(text, false, &again, &error) || again != ids) std::abort();
  return 0;
}
