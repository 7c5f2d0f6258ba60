// The tokenizer's C ABI on small tokenizer.json files written here: the BPE merge order,
// byte fallback, added tokens, and the errors for malformed files and bad input.
#include "tcpu/tokenizer.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"

namespace {

// Writes `json` as tokenizer.json in a fresh directory under the test's temporary directory
// (Bazel's TEST_TMPDIR, removed after the test; /tmp when run by hand) and returns it.
std::string WriteTokenizer(const std::string& json, const std::string& config = "") {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string pattern = std::string(tmp != nullptr ? tmp : "/tmp") + "/tokenizer_XXXXXX";
  std::vector<char> dir(pattern.begin(), pattern.end());
  dir.push_back('\0');
  const char* made = mkdtemp(dir.data());
  EXPECT_NE(made, nullptr);
  const std::string path(dir.data());
  std::ofstream(path + "/tokenizer.json") << json;
  if (!config.empty()) std::ofstream(path + "/tokenizer_config.json") << config;
  return path;
}

// A byte-level-free BPE over the letters a, b, c: merges "a b" (rank 0), "ab c" (rank 1),
// "b c" (rank 2); added token <eos>.
const char kSmallBpe[] = R"({
  "added_tokens": [{"id": 7, "content": "<eos>", "special": true}],
  "normalizer": null, "pre_tokenizer": null, "post_processor": null,
  "decoder": {"type": "Fuse"},
  "model": {"type": "BPE", "unk_token": "<unk>",
            "vocab": {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "abc": 5, "bc": 6},
            "merges": ["a b", "ab c", "b c"]}
})";

std::vector<int32_t> Encode(const tcpu_tokenizer* tokenizer, const std::string& text,
                            int* status_out = nullptr) {
  std::vector<int32_t> ids(64);
  int64_t n = 0;
  const int status =
      tcpu_tokenizer_encode(tokenizer, text.data(), static_cast<int64_t>(text.size()), 0,
                            ids.data(), static_cast<int64_t>(ids.size()), &n);
  if (status_out != nullptr) *status_out = status;
  ids.resize(status == TCPU_OK ? n : 0);
  return ids;
}

TEST(TokenizerTest, MergesLowestRankFirstAndLeftmostOnTies) {
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer(kSmallBpe).c_str(), &tokenizer), TCPU_OK)
      << tcpu_last_error_detail();
  // "abc": a+b (rank 0) before b+c (rank 2), then ab+c.
  EXPECT_EQ(Encode(tokenizer, "abc"), (std::vector<int32_t>{5}));
  // "bcab": b+c and a+b; "abab": both a+b pairs, left first, then nothing joins ab+ab.
  EXPECT_EQ(Encode(tokenizer, "bcab"), (std::vector<int32_t>{6, 4}));
  EXPECT_EQ(Encode(tokenizer, "abab"), (std::vector<int32_t>{4, 4}));
  // Unknown characters become <unk>; the added token is split out of the text.
  EXPECT_EQ(Encode(tokenizer, "axb<eos>c"), (std::vector<int32_t>{1, 0, 2, 7, 3}));
  tcpu_tokenizer_close(tokenizer);
}

TEST(TokenizerTest, LongWordMergesInLinearishTime) {
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer(kSmallBpe).c_str(), &tokenizer), TCPU_OK);
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "abc";
  const std::vector<int32_t> ids = Encode(tokenizer, text);
  // 64 ids of room: the call reports the size needed instead.
  int status = 0;
  Encode(tokenizer, text, &status);
  EXPECT_EQ(status, TCPU_ERR_BUFFER_TOO_SMALL);
  int64_t n = 0;
  std::vector<int32_t> all(20000);
  ASSERT_EQ(tcpu_tokenizer_encode(tokenizer, text.data(), static_cast<int64_t>(text.size()), 0,
                                  all.data(), 20000, &n),
            TCPU_OK);
  EXPECT_EQ(n, 20000);
  for (int32_t id : all) ASSERT_EQ(id, 5);
  tcpu_tokenizer_close(tokenizer);
}

TEST(TokenizerTest, InvalidUtf8IsRefusedWithItsOffset) {
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer(kSmallBpe).c_str(), &tokenizer), TCPU_OK);
  int status = 0;
  for (const std::string& bad : {std::string("ab\xFF"), std::string("ab\xC3"),
                                 std::string("ab\xED\xA0\x80"), std::string("ab\xC0\xAF")}) {
    Encode(tokenizer, bad, &status);
    EXPECT_EQ(status, TCPU_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(tcpu_last_error_detail()).find("not valid UTF-8"), std::string::npos);
    EXPECT_NE(std::string(tcpu_last_error_detail()).find("offset 2"), std::string::npos)
        << tcpu_last_error_detail();
  }
  tcpu_tokenizer_close(tokenizer);
}

TEST(TokenizerTest, DecodeRefusesUnknownIdsAndSmallBuffers) {
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer(kSmallBpe).c_str(), &tokenizer), TCPU_OK);
  char text[4];
  int64_t bytes = 0;
  const int32_t bad[] = {1, 99};
  EXPECT_EQ(tcpu_tokenizer_decode(tokenizer, bad, 2, 0, text, sizeof(text), &bytes),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("id 99"), std::string::npos);
  const int32_t ids[] = {5, 5, 7};  // "abcabc<eos>"
  EXPECT_EQ(tcpu_tokenizer_decode(tokenizer, ids, 3, 0, text, sizeof(text), &bytes),
            TCPU_ERR_BUFFER_TOO_SMALL);
  EXPECT_EQ(bytes, 11);
  char big[16];
  ASSERT_EQ(tcpu_tokenizer_decode(tokenizer, ids, 3, 1, big, sizeof(big), &bytes), TCPU_OK);
  EXPECT_STREQ(big, "abcabc");  // the special token skipped
  tcpu_tokenizer_close(tokenizer);
}

TEST(TokenizerTest, ByteFallbackSpellsUnknownCharactersAsBytes) {
  const char json[] = R"({
    "added_tokens": [], "normalizer": null, "pre_tokenizer": null, "post_processor": null,
    "decoder": {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
    "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": true,
              "vocab": {"<unk>": 0, "<0xC3>": 1, "<0xA9>": 2, "a": 3}, "merges": []}
  })";
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer(json).c_str(), &tokenizer), TCPU_OK)
      << tcpu_last_error_detail();
  // "é" is C3 A9; "ü" (C3 BC) lacks a byte token for BC, so it is <unk>.
  EXPECT_EQ(Encode(tokenizer, "a\xC3\xA9\xC3\xBC"), (std::vector<int32_t>{3, 1, 2, 0}));
  char text[16];
  int64_t bytes = 0;
  const int32_t lone[] = {3, 1};  // a lone lead byte decodes to U+FFFD
  ASSERT_EQ(tcpu_tokenizer_decode(tokenizer, lone, 2, 0, text, sizeof(text), &bytes), TCPU_OK);
  EXPECT_STREQ(text, "a\xEF\xBF\xBD");
  tcpu_tokenizer_close(tokenizer);
}

TEST(TokenizerTest, MalformedFilesAreRefusedNamingTheField) {
  const struct {
    std::string json;
    std::string expected_in_detail;
  } cases[] = {
      {"{\"model\": ", "not valid JSON"},
      {"[]", "expected an object"},
      {"{}", "missing \"model\""},
      {R"({"model": {"type": "Unigram", "vocab": []}})", "model \"Unigram\" is not supported"},
      {R"({"model": {"type": "BPE", "vocab": {"a": "x"}, "merges": []}})", "vocab[\"a\"]"},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}})", "merges[0]"},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(a"}, "behavior": "Isolated"}})",
       "pre_tokenizer.pattern: invalid regex"},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "normalizer": {"type": "Lowercase"}})",
       "normalizer \"Lowercase\" is not supported"},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "decoder": {"type": "Strip", "content": " ", "start": "one", "stop": 0}})",
       "decoder.start: expected an integer"},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "added_tokens": [{"id": -3, "content": "<x>"}]})",
       "added_tokens[0].id"},
      // A Sequence (nested ones too) names the element that is wrong, in every component.
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"},
               {"type": "Sequence", "normalizers": [{"type": "Lowercase"}]}]}})",
       "normalizer.normalizers[1].normalizers[0].type: normalizer \"Lowercase\""},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "pre_tokenizer": {"type": "Sequence", "pretokenizers": {"type": "ByteLevel"}}})",
       "pre_tokenizer.pretokenizers: expected an array"},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "decoder": {"type": "Sequence", "decoders": [{"type": "Fuse"}, {"kind": "Strip"}]}})",
       "decoder.decoders[1]: missing \"type\""},
      {R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
           "post_processor": {"type": "Sequence", "processors": [{"type": "ByteLevel"},
               {"type": "RobertaProcessing"}]}})",
       "post_processor.processors[1].type: post-processor \"RobertaProcessing\""},
  };
  for (const auto& c : cases) {
    tcpu_tokenizer* tokenizer = nullptr;
    EXPECT_EQ(tcpu_tokenizer_open(WriteTokenizer(c.json).c_str(), &tokenizer),
              TCPU_ERR_INVALID_MODEL)
        << c.json;
    EXPECT_EQ(tokenizer, nullptr);
    EXPECT_NE(std::string(tcpu_last_error_detail()).find(c.expected_in_detail), std::string::npos)
        << "detail: " << tcpu_last_error_detail() << "\nexpected: " << c.expected_in_detail;
  }
  tcpu_tokenizer* tokenizer = nullptr;
  EXPECT_EQ(tcpu_tokenizer_open("/nonexistent/tokenizer.json", &tokenizer), TCPU_ERR_IO);
  EXPECT_EQ(tcpu_tokenizer_open(nullptr, &tokenizer), TCPU_ERR_NULL_POINTER);
}

TEST(TokenizerTest, ConfigNamesBosEosAndAddsBos) {
  const std::string dir = WriteTokenizer(kSmallBpe, R"({"bos_token": {"content": "<unk>"},
      "eos_token": "<eos>", "add_bos_token": true})");
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(dir.c_str(), &tokenizer), TCPU_OK) << tcpu_last_error_detail();
  tcpu_tokenizer_info info;
  ASSERT_EQ(tcpu_tokenizer_get_info(tokenizer, &info), TCPU_OK);
  EXPECT_EQ(info.vocab_size, 8);
  EXPECT_EQ(info.bos_id, 0);
  EXPECT_EQ(info.eos_id, 7);
  int32_t ids[8];
  int64_t n = 0;
  ASSERT_EQ(tcpu_tokenizer_encode(tokenizer, "ab", 2, 1, ids, 8, &n), TCPU_OK);
  ASSERT_EQ(n, 2);
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[1], 4);
  tcpu_tokenizer_close(tokenizer);
}

// Mistral / MiniCPM style: spaces become "▁" in the Metaspace pre-tokenizer, which splits
// before each "▁"; the Metaspace decoder turns them back and drops the first one.
TEST(TokenizerTest, MetaspaceSplitsWordsAndDecodesWithoutTheFirstSpace) {
  const char json[] = R"({
    "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always",
                      "split": true},
    "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always"},
    "model": {"type": "BPE", "vocab": {"▁": 0, "h": 1, "i": 2, "▁h": 3, "▁hi": 4},
              "merges": ["▁ h", "▁h i"]}
  })";
  tcpu_tokenizer* tokenizer = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer(json).c_str(), &tokenizer), TCPU_OK)
      << tcpu_last_error_detail();
  // "hi hi": "▁hi" "▁hi"; "hi  i": "▁hi" "▁" "▁i" (the second space starts its own word).
  EXPECT_EQ(Encode(tokenizer, "hi hi"), (std::vector<int32_t>{4, 4}));
  EXPECT_EQ(Encode(tokenizer, "hi  i"), (std::vector<int32_t>{4, 0, 0, 2}));
  char text[32];
  int64_t bytes = 0;
  const int32_t ids[] = {4, 0, 0, 2};
  ASSERT_EQ(tcpu_tokenizer_decode(tokenizer, ids, 4, 0, text, sizeof(text), &bytes), TCPU_OK);
  EXPECT_STREQ(text, "hi  i");
  tcpu_tokenizer_close(tokenizer);
}

// Llama 3 style: with ignore_merges a word that is itself a token is taken whole.
TEST(TokenizerTest, IgnoreMergesTakesWholeWordsFromTheVocabulary) {
  const std::string base = R"("model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2,
      "ab": 3, "abc": 4}, "merges": ["a b"])";
  tcpu_tokenizer* plain = nullptr;
  tcpu_tokenizer* ignoring = nullptr;
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer("{" + base + "}}").c_str(), &plain), TCPU_OK);
  ASSERT_EQ(tcpu_tokenizer_open(WriteTokenizer("{" + base + ", \"ignore_merges\": true}}").c_str(),
                                &ignoring),
            TCPU_OK)
      << tcpu_last_error_detail();
  EXPECT_EQ(Encode(plain, "abc"), (std::vector<int32_t>{3, 2}));
  EXPECT_EQ(Encode(ignoring, "abc"), (std::vector<int32_t>{4}));
  tcpu_tokenizer_close(plain);
  tcpu_tokenizer_close(ignoring);
}

}  // namespace
