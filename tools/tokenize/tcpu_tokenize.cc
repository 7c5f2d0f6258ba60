// tcpu-tokenize: text to token ids and back with a Hugging Face tokenizer.json.
//   tcpu-tokenize --tokenizer PATH [--add-special-tokens] < text
//     prints the ids of stdin's UTF-8 text (taken byte for byte, a final newline included)
//     comma-separated on one line.
//   tcpu-tokenize --tokenizer PATH --decode [--skip-special-tokens] < ids
//     reads ids ("1,2,3", spaces and newlines allowed) and prints their text.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"
#include "tools/cli/flags.h"

ABSL_FLAG(std::string, tokenizer, "", "tokenizer.json, or the directory that holds it");
ABSL_FLAG(bool, decode, false, "read ids and print their text");
ABSL_FLAG(bool, add_special_tokens, false,
          "add what the tokenizer adds around a text (e.g. BOS) when encoding");
ABSL_FLAG(bool, skip_special_tokens, false, "leave special tokens out when decoding");

namespace {

constexpr char kUsage[] =
    "usage: tcpu-tokenize --tokenizer PATH [--add-special-tokens] < text\n"
    "       tcpu-tokenize --tokenizer PATH --decode [--skip-special-tokens] < ids\n";

int Fail(const char* what, int status) {
  std::fprintf(stderr, "tcpu-tokenize: %s: %s\n  %s\n", what, tcpu_status_string(status),
               tcpu_last_error_detail());
  return 1;
}

// "1, 2,3\n" -> {1, 2, 3}; false with *error naming the bad item.
bool ParseIds(const std::string& text, std::vector<int32_t>* ids, std::string* error) {
  std::string item;
  const auto flush = [&]() {
    if (item.empty()) return true;
    if (item.size() > 10 || std::stoll(item) > INT32_MAX) {
      *error = "'" + item + "' is not a token id";
      return false;
    }
    ids->push_back(static_cast<int32_t>(std::stoll(item)));
    item.clear();
    return true;
  };
  bool expect_id = true;  // "1,,2" and ",1" are refused
  for (const char c : text) {
    if (c >= '0' && c <= '9') {
      item.push_back(c);
      expect_id = false;
    } else if (c == ',') {
      if (expect_id) {
        *error = "an empty item in the id list";
        return false;
      }
      if (!flush()) return false;
      expect_id = true;
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      *error = std::string("unexpected character '") + c + "' in the id list";
      return false;
    }
  }
  if (expect_id && !ids->empty()) {
    *error = "the id list ends with a comma";
    return false;
  }
  return flush();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  std::string error;
  const auto parsed = tcpu::cli::ParseFlags(argc, argv, &positional, &error);
  const std::vector<std::string> names = {"tokenizer", "decode", "add-special-tokens",
                                          "skip-special-tokens"};
  if (parsed == tcpu::cli::ParseResult::kHelp) {
    std::printf("%s%s", kUsage, tcpu::cli::FlagsHelp(names).c_str());
    return 0;
  }
  if (parsed == tcpu::cli::ParseResult::kError || !positional.empty() ||
      absl::GetFlag(FLAGS_tokenizer).empty()) {
    if (parsed != tcpu::cli::ParseResult::kError) {
      error = positional.empty() ? "--tokenizer is required"
                                 : "unexpected argument '" + positional[0] + "'";
    }
    std::fprintf(stderr, "tcpu-tokenize: %s\n%s", error.c_str(), kUsage);
    return 2;
  }
  tcpu_tokenizer* tokenizer = nullptr;
  const std::string path = absl::GetFlag(FLAGS_tokenizer);
  if (int s = tcpu_tokenizer_open(path.c_str(), &tokenizer); s != TCPU_OK) {
    return Fail(("loading " + path).c_str(), s);
  }
  const std::string input((std::istreambuf_iterator<char>(std::cin)),
                          std::istreambuf_iterator<char>());
  int exit_code = 0;
  if (absl::GetFlag(FLAGS_decode)) {
    std::vector<int32_t> ids;
    if (!ParseIds(input, &ids, &error)) {
      std::fprintf(stderr, "tcpu-tokenize: stdin: %s\n", error.c_str());
      exit_code = 2;
    } else {
      int64_t bytes = 0;
      const int skip = absl::GetFlag(FLAGS_skip_special_tokens) ? 1 : 0;
      int s = tcpu_tokenizer_decode(tokenizer, ids.data(), static_cast<int64_t>(ids.size()), skip,
                                    nullptr, 0, &bytes);
      std::string text(bytes + 1, '\0');
      if (s == TCPU_ERR_BUFFER_TOO_SMALL) {
        s = tcpu_tokenizer_decode(tokenizer, ids.data(), static_cast<int64_t>(ids.size()), skip,
                                  text.data(), bytes + 1, &bytes);
      }
      if (s != TCPU_OK) {
        exit_code = Fail("decoding", s);
      } else {
        std::fwrite(text.data(), 1, bytes, stdout);
      }
    }
  } else {
    const int add = absl::GetFlag(FLAGS_add_special_tokens) ? 1 : 0;
    int64_t n = 0;
    int s = tcpu_tokenizer_encode(tokenizer, input.data(), static_cast<int64_t>(input.size()), add,
                                  nullptr, 0, &n);
    std::vector<int32_t> ids(n);
    if (s == TCPU_ERR_BUFFER_TOO_SMALL) {
      s = tcpu_tokenizer_encode(tokenizer, input.data(), static_cast<int64_t>(input.size()), add,
                                ids.data(), n, &n);
    }
    if (s != TCPU_OK) {
      exit_code = Fail("encoding stdin", s);
    } else {
      std::string line;
      for (size_t i = 0; i < ids.size(); ++i) line += (i ? "," : "") + std::to_string(ids[i]);
      std::printf("%s\n", line.c_str());
    }
  }
  tcpu_tokenizer_close(tokenizer);
  return exit_code;
}
