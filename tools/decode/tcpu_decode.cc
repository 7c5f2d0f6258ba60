// tcpu-decode: decoding of a Hugging Face checkpoint on the tcpu runtime, from text or ids.
//   tcpu-decode --model DIR --prompt "text" | --prompt-file FILE  [--max-new-tokens N]
//     tokenizes the prompt with DIR/tokenizer.json (or --tokenizer PATH), streams the
//     generated text to stdout as it is produced and stops at the tokenizer's EOS or after
//     N tokens; --print-ids adds the generated ids as a last line. The report goes to stderr.
//   tcpu-decode --model DIR --prompt-ids 1,2,3 --max-new-tokens N
//     prints the generated ids (one comma-separated line), then the report, on stdout.
// --weights int8 (default) | int4 chooses how the linear weights are quantized at load.
// Greedy by default; --temperature > 0 samples (with --top-k, --top-p, --min-p,
// --repetition-penalty, --seed: the same seed gives the same text). The report: load time,
// prefill and decode speed, the bytes of weights each token reads and the kernel variants.
// --dump-logits writes every step's fp32 logits (prompt steps included; raw little-endian,
// steps x vocab).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "tcpu/cpu.h"
#include "tcpu/decoder.h"
#include "tcpu/sampler.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/tokenizer.h"
#include "tools/cli/flags.h"
#include "tools/decode/decode_args.h"

ABSL_FLAG(std::string, model, "", "checkpoint directory (config.json, *.safetensors)");
ABSL_FLAG(std::string, prompt, "", "prompt text, tokenized with the checkpoint's tokenizer");
ABSL_FLAG(std::string, prompt_file, "", "file whose UTF-8 contents are the prompt text");
ABSL_FLAG(std::string, prompt_ids, "", "prompt as comma-separated token ids (no tokenizer)");
ABSL_FLAG(std::string, tokenizer, "", "tokenizer.json or its directory (default: --model)");
ABSL_FLAG(bool, add_special_tokens, true,
          "add the tokenizer's special tokens (e.g. BOS) to a text prompt");
ABSL_FLAG(int64_t, max_new_tokens, 128, "generate at most this many tokens");
ABSL_FLAG(bool, print_ids, false, "after the text, print the generated ids on one line");
ABSL_FLAG(int32_t, threads, 0, "worker threads (0: the runtime's default)");
ABSL_FLAG(std::string, weights, "int8",
          "int8 (W8A8, per-channel scales) or int4 (W4A8, a scale per 32 weights): how the "
          "linear weights are quantized at load");
ABSL_FLAG(std::string, dump_logits, "", "write every step's fp32 logits to this file");
ABSL_FLAG(double, temperature, 0.0, "0: greedy; > 0: sample from softmax(logits / T)");
ABSL_FLAG(int32_t, top_k, 0, "sample among the k most likely tokens (0: all)");
ABSL_FLAG(double, top_p, 1.0, "sample among the fewest tokens whose mass reaches p");
ABSL_FLAG(double, min_p, 0.0, "drop tokens less likely than min_p x the most likely");
ABSL_FLAG(double, repetition_penalty, 1.0, "penalize tokens already in the text (1: off)");
ABSL_FLAG(uint64_t, seed, 0, "random seed of the sampler");

namespace {

constexpr char kUsage[] =
    "usage: tcpu-decode --model DIR (--prompt TEXT | --prompt-file FILE | --prompt-ids 1,2,3)\n"
    "                   [--max-new-tokens N] [sampling and other flags below]\n";

const std::vector<std::string> kFlagNames = {"model",
                                             "prompt",
                                             "prompt-file",
                                             "prompt-ids",
                                             "tokenizer",
                                             "add-special-tokens",
                                             "max-new-tokens",
                                             "print-ids",
                                             "threads",
                                             "weights",
                                             "dump-logits",
                                             "temperature",
                                             "top-k",
                                             "top-p",
                                             "min-p",
                                             "repetition-penalty",
                                             "seed"};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Fail(const char* what, int status) {
  std::fprintf(stderr, "tcpu-decode: %s: %s\n  %s\n", what, tcpu_status_string(status),
               tcpu_last_error_detail());
  return 1;
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "tcpu-decode: %s\n%s", message.c_str(), kUsage);
  return 2;
}

// Text of `ids` (special tokens left out), or false after printing the error.
bool DecodeText(const tcpu_tokenizer* tokenizer, const std::vector<int32_t>& ids,
                std::string* text) {
  int64_t bytes = 0;
  int s = tcpu_tokenizer_decode(tokenizer, ids.data(), static_cast<int64_t>(ids.size()), 1, nullptr,
                                0, &bytes);
  text->assign(bytes + 1, '\0');
  if (s == TCPU_ERR_BUFFER_TOO_SMALL) {
    s = tcpu_tokenizer_decode(tokenizer, ids.data(), static_cast<int64_t>(ids.size()), 1,
                              text->data(), bytes + 1, &bytes);
  }
  if (s != TCPU_OK) {
    Fail("decoding the generated ids", s);
    return false;
  }
  text->resize(bytes);
  return true;
}

// Prints the generated text as it grows, holding back a trailing U+FFFD: it may be the
// first bytes of a character whose remaining bytes come with the next token.
class TextStream {
 public:
  explicit TextStream(const tcpu_tokenizer* tokenizer) : tokenizer_(tokenizer) {}

  bool Update(const std::vector<int32_t>& ids, bool final) {
    std::string text;
    if (!DecodeText(tokenizer_, ids, &text)) return false;
    size_t ready = text.size();
    static constexpr char kReplacement[] = "\xEF\xBF\xBD";
    if (!final && ready >= 3 && text.compare(ready - 3, 3, kReplacement) == 0) ready -= 3;
    if (ready > printed_ && text.compare(0, printed_, printed_text_) == 0) {
      std::fwrite(text.data() + printed_, 1, ready - printed_, stdout);
      std::fflush(stdout);
      printed_text_ = text.substr(0, ready);
      printed_ = ready;
    }
    return true;
  }

 private:
  const tcpu_tokenizer* tokenizer_;
  std::string printed_text_;
  size_t printed_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  std::string error;
  switch (tcpu::cli::ParseFlags(argc, argv, &positional, &error)) {
    case tcpu::cli::ParseResult::kHelp:
      std::printf("%s%s", kUsage, tcpu::cli::FlagsHelp(kFlagNames).c_str());
      return 0;
    case tcpu::cli::ParseResult::kError:
      return UsageError(error);
    case tcpu::cli::ParseResult::kOk:
      break;
  }
  if (!positional.empty()) return UsageError("unexpected argument '" + positional[0] + "'");
  const std::string model = absl::GetFlag(FLAGS_model);
  const std::string prompt_file = absl::GetFlag(FLAGS_prompt_file);
  const std::string prompt_ids_text = absl::GetFlag(FLAGS_prompt_ids);
  std::string prompt = absl::GetFlag(FLAGS_prompt);
  const int prompt_sources = !prompt.empty() + !prompt_file.empty() + !prompt_ids_text.empty();
  if (model.empty() || prompt_sources != 1) {
    return UsageError("--model and one of --prompt, --prompt-file, --prompt-ids are required");
  }
  const int64_t max_new_tokens = absl::GetFlag(FLAGS_max_new_tokens);
  if (max_new_tokens < 1 || max_new_tokens > (int64_t{1} << 30)) {
    return UsageError("--max-new-tokens: " + std::to_string(max_new_tokens) +
                      " is not in [1, 2^30]");
  }
  const int32_t threads = absl::GetFlag(FLAGS_threads);
  if (threads < 0 || threads > 1024) {
    return UsageError("--threads: " + std::to_string(threads) + " is not in [0, 1024]");
  }
  tcpu_decoder_options options{};
  const std::string weights = absl::GetFlag(FLAGS_weights);
  if (weights == "int8") {
    options.weights = TCPU_WEIGHTS_INT8;
  } else if (weights == "int4") {
    options.weights = TCPU_WEIGHTS_INT4;
  } else {
    return UsageError("--weights: '" + weights.substr(0, 32) + "' is not int8 or int4");
  }
  tcpu_sampler_params sampling;
  tcpu_sampler_default_params(&sampling);
  sampling.temperature = static_cast<float>(absl::GetFlag(FLAGS_temperature));
  sampling.top_k = absl::GetFlag(FLAGS_top_k);
  sampling.top_p = static_cast<float>(absl::GetFlag(FLAGS_top_p));
  sampling.min_p = static_cast<float>(absl::GetFlag(FLAGS_min_p));
  sampling.repetition_penalty = static_cast<float>(absl::GetFlag(FLAGS_repetition_penalty));
  sampling.seed = absl::GetFlag(FLAGS_seed);
  {
    // Checks the sampling flags before anything is loaded (the vocabulary size comes later).
    tcpu_sampler* probe = nullptr;
    if (tcpu_sampler_create(&sampling, 1, &probe) != TCPU_OK) {
      return UsageError(std::string("sampling: ") + tcpu_last_error_detail());
    }
    tcpu_sampler_destroy(probe);
  }

  const bool text_mode = prompt_ids_text.empty();
  std::vector<int32_t> prompt_ids;
  tcpu_tokenizer* tokenizer = nullptr;
  int32_t eos_id = -1;
  if (text_mode) {
    if (!prompt_file.empty()) {
      std::ifstream in(prompt_file, std::ios::binary);
      std::ostringstream contents;
      contents << in.rdbuf();
      if (!in) {
        std::fprintf(stderr, "tcpu-decode: --prompt-file: cannot read %s\n", prompt_file.c_str());
        return 1;
      }
      prompt = contents.str();
    }
    std::string tokenizer_path = absl::GetFlag(FLAGS_tokenizer);
    if (tokenizer_path.empty()) tokenizer_path = model;
    if (int s = tcpu_tokenizer_open(tokenizer_path.c_str(), &tokenizer); s != TCPU_OK) {
      return Fail(("loading the tokenizer of " + tokenizer_path).c_str(), s);
    }
    tcpu_tokenizer_info tokenizer_info;
    tcpu_tokenizer_get_info(tokenizer, &tokenizer_info);
    eos_id = tokenizer_info.eos_id;
    const int add = absl::GetFlag(FLAGS_add_special_tokens) ? 1 : 0;
    int64_t n = 0;
    int s = tcpu_tokenizer_encode(tokenizer, prompt.data(), static_cast<int64_t>(prompt.size()),
                                  add, nullptr, 0, &n);
    prompt_ids.resize(n);
    if (s == TCPU_ERR_BUFFER_TOO_SMALL) {
      s = tcpu_tokenizer_encode(tokenizer, prompt.data(), static_cast<int64_t>(prompt.size()), add,
                                prompt_ids.data(), n, &n);
    }
    if (s != TCPU_OK) {
      tcpu_tokenizer_close(tokenizer);
      return Fail("tokenizing the prompt", s);
    }
    if (prompt_ids.empty()) {
      tcpu_tokenizer_close(tokenizer);
      return UsageError("the prompt is empty after tokenization");
    }
  } else if (!tcpu::decode::ParseIdList(prompt_ids_text, &prompt_ids)) {
    return UsageError("--prompt-ids: '" + prompt_ids_text.substr(0, 64) +
                      "' is not a comma-separated list of token ids");
  }

  int exit_code = 0;
  tcpu_decoder* decoder = nullptr;
  tcpu_sampler* sampler = nullptr;
  FILE* dump = nullptr;
  // Everything opened below is released at the one exit at the end.
  const auto finish = [&](int code) {
    if (dump != nullptr && std::fclose(dump) != 0 && code == 0) {
      std::fprintf(stderr, "tcpu-decode: --dump-logits: cannot finish %s\n",
                   absl::GetFlag(FLAGS_dump_logits).c_str());
      code = 1;
    }
    tcpu_sampler_destroy(sampler);
    tcpu_decoder_close(decoder);
    tcpu_tokenizer_close(tokenizer);
    return code;
  };
  if (threads > 0) {
    if (int s = tcpu_set_num_threads(threads); s != TCPU_OK) return finish(Fail("--threads", s));
  }
  const int64_t max_tokens = static_cast<int64_t>(prompt_ids.size()) + max_new_tokens;
  const auto load_start = std::chrono::steady_clock::now();
  if (int s = tcpu_decoder_open_with_options(model.c_str(), max_tokens, &options, &decoder);
      s != TCPU_OK) {
    return finish(Fail(("loading " + model).c_str(), s));
  }
  const double load_seconds = Seconds(load_start);
  tcpu_decoder_info info;
  tcpu_decoder_get_info(decoder, &info);
  for (int32_t id : prompt_ids) {
    if (id >= info.vocab_size) {
      return finish(UsageError(std::string(text_mode ? "the tokenizer's" : "--prompt-ids:") +
                               " id " + std::to_string(id) + " is outside the vocabulary [0, " +
                               std::to_string(info.vocab_size) + ")"));
    }
  }
  // Every token is chosen by the sampler: greedy there is the decoder's own rule
  // (runtime/greedy.h), so the default decode equals tcpu_decoder_step's next_token.
  if (int s = tcpu_sampler_create(&sampling, info.vocab_size, &sampler); s != TCPU_OK) {
    return finish(UsageError(std::string("sampling: ") + tcpu_last_error_detail()));
  }
  const std::string dump_path = absl::GetFlag(FLAGS_dump_logits);
  if (!dump_path.empty() && (dump = std::fopen(dump_path.c_str(), "wb")) == nullptr) {
    std::fprintf(stderr, "tcpu-decode: --dump-logits: cannot write %s\n", dump_path.c_str());
    return finish(1);
  }

  std::vector<float> logits(info.vocab_size);
  std::vector<int32_t> history = prompt_ids;  // for the repetition penalty
  std::vector<int32_t> generated;
  int32_t next = 0;
  // Feeds `token`; leaves the choice for the following position in `next`.
  const auto step = [&](int32_t token) {
    if (int s = tcpu_decoder_step(decoder, token, logits.data(), &next); s != TCPU_OK) {
      exit_code = Fail("decode step", s);
      return false;
    }
    if (dump != nullptr &&
        std::fwrite(logits.data(), sizeof(float), logits.size(), dump) != logits.size()) {
      std::fprintf(stderr, "tcpu-decode: --dump-logits: write to %s failed\n", dump_path.c_str());
      exit_code = 1;
      return false;
    }
    return true;
  };
  const auto choose = [&]() {
    if (int s = tcpu_sampler_sample(sampler, logits.data(), history.data(),
                                    static_cast<int64_t>(history.size()), &next);
        s != TCPU_OK) {
      exit_code = Fail("sampling", s);
      return false;
    }
    return true;
  };
  TextStream stream(tokenizer);
  const auto prefill_start = std::chrono::steady_clock::now();
  bool ok = true;
  if (dump == nullptr && !prompt_ids.empty()) {
    // The whole prompt in one batched call (the GEMM path); --dump-logits wants every prompt
    // step's logits, so it steps instead (the logits are bit-identical either way).
    if (int s = tcpu_decoder_prefill(decoder, prompt_ids.data(),
                                     static_cast<int64_t>(prompt_ids.size()),
                                     logits.data(), &next);
        s != TCPU_OK) {
      exit_code = Fail("prefill", s);
      ok = false;
    }
  } else {
    for (size_t i = 0; ok && i < prompt_ids.size(); ++i) ok = step(prompt_ids[i]);
  }
  const double prefill_seconds = Seconds(prefill_start);
  const auto decode_start = std::chrono::steady_clock::now();
  ok = ok && choose();
  while (ok) {
    generated.push_back(next);
    history.push_back(next);
    const bool stop =
        (text_mode && next == eos_id) || static_cast<int64_t>(generated.size()) >= max_new_tokens;
    if (text_mode) ok = stream.Update(generated, stop);
    if (!ok || stop) break;
    ok = step(next) && choose();
  }
  const double decode_seconds = Seconds(decode_start);
  if (!ok) return finish(exit_code == 0 ? 1 : exit_code);

  // The first generated token comes from the last prompt step; the others from decode steps.
  const double decode_steps = static_cast<double>(generated.size() - 1);
  FILE* report = text_mode ? stderr : stdout;
  if (text_mode) {
    std::printf("\n");
    if (absl::GetFlag(FLAGS_print_ids)) {
      std::printf("%s\n", tcpu::decode::JoinIds(generated).c_str());
    }
    std::fflush(stdout);
    std::fprintf(report, "prompt: %zu tokens; generated: %zu tokens%s\n", prompt_ids.size(),
                 generated.size(), generated.back() == eos_id ? " (stopped at EOS)" : "");
  } else {
    std::printf("%s\n", tcpu::decode::JoinIds(generated).c_str());
  }
  std::fprintf(report, "load: %.3f s\n", load_seconds);
  std::fprintf(report, "prefill: %zu tokens, %.2f tokens/s\n", prompt_ids.size(),
               static_cast<double>(prompt_ids.size()) / prefill_seconds);
  std::fprintf(report, "decode: %.0f tokens, %.2f tokens/s\n", decode_steps,
               decode_steps > 0 ? decode_steps / decode_seconds : 0.0);
  std::fprintf(report, "weights read per token: %lld bytes (%.1f MB, %s)\n",
               static_cast<long long>(info.weight_bytes_per_token),
               static_cast<double>(info.weight_bytes_per_token) / 1e6, weights.c_str());
  std::fprintf(report, "kernels:");
  const char* gemv = options.weights == TCPU_WEIGHTS_INT4 ? "gemv_w4a8" : "gemv_bf16_w8";
  const char* gemm = options.weights == TCPU_WEIGHTS_INT4 ? "gemm_w4a8" : "gemm_i8";
  for (const char* op : {gemv, gemm, "flash_attn_decode_bf16", "rms_norm_bf16", "swiglu_bf16"}) {
    const char* variant = tcpu_kernel_variant(op);
    std::fprintf(report, " %s", variant != nullptr ? variant : op);
  }
  std::fprintf(report, " (threads: %d)\n", tcpu_get_num_threads());
  return finish(exit_code);
}
