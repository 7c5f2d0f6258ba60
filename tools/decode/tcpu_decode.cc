// tcpu-decode: text generation from a Hugging Face checkpoint or a GGUF file on the tcpu
// engine, a command line over the generation API (tcpu/generate.h); README.md has the contract.
// MODEL is a checkpoint directory or a .gguf file (whose metadata carries the tokenizer).
//   tcpu-decode --model MODEL --prompt "text" | --prompt-file FILE  [--max-new-tokens N]
//     tokenizes the prompt with the model's tokenizer (or --tokenizer PATH), streams the
//     generated text to stdout as it is produced and stops at an EOS (the tokenizer's, and
//     generation_config.json's) or after N tokens; --print-ids adds the generated ids as a
//     last line. The report goes to stderr.
//   tcpu-decode --model MODEL --messages FILE.json
//     as --prompt, with the conversation in FILE (a JSON list of {"role", "content"})
//     rendered by the chat template of tokenizer_config.json (or --chat-template PATH), the
//     assistant's turn opened.
//   tcpu-decode --model MODEL --chat [--messages FILE.json] [--verbose]
//     a conversation: each line of stdin is a user turn, answered as it is generated; the KV
//     cache is kept between turns. An empty line or the end of stdin ends it.
//   tcpu-decode --model MODEL --prompt-ids 1,2,3 --max-new-tokens N
//     no tokenizer: generates exactly N ids (no EOS stop) and prints them (one comma-separated
//     line), then the report, on stdout.
// --weights int8 (default) | int4 chooses how the linear weights are quantized at load (a
// pre-quantized checkpoint from tcpu-quantize must hold that kind: it is mapped, not converted).
// Greedy by default; --temperature > 0 samples (with --top-k, --top-p, --min-p,
// --repetition-penalty, --seed: the same seed gives the same text). The report: load time,
// prefill and decode speed, the bytes of weights each token reads and the kernel variants.
// --dump-logits writes the fp32 logits of every token fed (prompt tokens included; raw
// little-endian, steps x vocab).
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "tcpu/chat_template.h"
#include "tcpu/cpu.h"
#include "tcpu/decoder.h"
#include "tcpu/generate.h"
#include "tcpu/sampler.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/tokenizer.h"
#include "tools/cli/flags.h"
#include "tools/cli/weights.h"
#include "tools/decode/chat_messages.h"
#include "tools/decode/context_ids.h"
#include "tools/decode/decode_args.h"
#include "tools/decode/interactive_chat.h"

ABSL_FLAG(std::string, model, "",
          "checkpoint directory (config.json, *.safetensors) or GGUF file (.gguf)");
ABSL_FLAG(std::string, prompt, "", "prompt text, tokenized with the checkpoint's tokenizer");
ABSL_FLAG(std::string, prompt_file, "", "file whose UTF-8 contents are the prompt text");
ABSL_FLAG(std::string, prompt_ids, "", "prompt as comma-separated token ids (no tokenizer)");
ABSL_FLAG(std::string, messages, "",
          "JSON file: a list of {\"role\", \"content\"} rendered by the chat template");
ABSL_FLAG(bool, chat, false,
          "interactive: each line of stdin is a user turn (an empty line ends the chat)");
ABSL_FLAG(std::string, tokenizer, "", "tokenizer.json or its directory (default: --model)");
ABSL_FLAG(std::string, chat_template, "",
          "tokenizer_config.json with the chat_template, or its directory (default: the "
          "tokenizer's directory)");
ABSL_FLAG(bool, add_special_tokens, true,
          "add the tokenizer's special tokens (e.g. BOS) to a text prompt");
ABSL_FLAG(int64_t, max_new_tokens, 128, "generate at most this many tokens (per turn)");
ABSL_FLAG(int64_t, context_size, 0,
          "positions of the KV cache (0: the prompt plus --max-new-tokens; 4096 for --chat)");
ABSL_FLAG(bool, print_ids, false, "after the text, print the generated ids on one line");
ABSL_FLAG(bool, verbose, false, "--chat: a line of statistics after each answer, on stderr");
ABSL_FLAG(int32_t, threads, 0, "worker threads (0: the runtime's default)");
ABSL_FLAG(std::string, weights, "int8",
          "int8 (W8A8, per-channel scales) or int4 (W4A8, a scale per 32 weights): how the "
          "linear weights are quantized at load, or which a pre-quantized checkpoint "
          "(tcpu-quantize) must hold");
ABSL_FLAG(std::string, dump_logits, "", "write the fp32 logits of every token fed to this file");
ABSL_FLAG(double, temperature, 0.0, "0: greedy; > 0: sample from softmax(logits / T)");
ABSL_FLAG(int32_t, top_k, 0, "sample among the k most likely tokens (0: all)");
ABSL_FLAG(double, top_p, 1.0, "sample among the fewest tokens whose mass reaches p");
ABSL_FLAG(double, min_p, 0.0, "drop tokens less likely than min_p x the most likely");
ABSL_FLAG(double, repetition_penalty, 1.0, "penalize tokens already in the text (1: off)");
ABSL_FLAG(uint64_t, seed, 0, "random seed of the sampler");

namespace {

constexpr char kUsage[] =
    "usage: tcpu-decode --model MODEL (--prompt TEXT | --prompt-file FILE | --prompt-ids 1,2,3 |\n"
    "                   --messages FILE.json | --chat) [--max-new-tokens N] [flags below]\n";

const std::vector<std::string> kFlagNames = {"model",
                                             "prompt",
                                             "prompt-file",
                                             "prompt-ids",
                                             "messages",
                                             "chat",
                                             "tokenizer",
                                             "chat-template",
                                             "add-special-tokens",
                                             "max-new-tokens",
                                             "context-size",
                                             "print-ids",
                                             "verbose",
                                             "threads",
                                             "weights",
                                             "dump-logits",
                                             "temperature",
                                             "top-k",
                                             "top-p",
                                             "min-p",
                                             "repetition-penalty",
                                             "seed"};

constexpr int64_t kDefaultChatContext = 4096;

// Where the prompt comes from.
enum class Input { kIds, kText, kMessages, kChat };

// The checked flags. `exit_code` >= 0 means stop with it (an error already printed, or help).
struct Options {
  int exit_code = -1;
  Input input = Input::kText;
  std::string model;
  tcpu_decoder_options decoder{};
  tcpu_sampler_params sampling{};
  int64_t max_new_tokens = 0;
  int64_t context_size = 0;
  int32_t threads = 0;
};

// Everything tcpu-decode opens, released in reverse order.
struct Engine {
  tcpu_tokenizer* tokenizer = nullptr;
  tcpu_chat_template* chat_template = nullptr;
  tcpu_decoder* decoder = nullptr;
  tcpu_sampler* sampler = nullptr;
  tcpu_generate_session* session = nullptr;
  ~Engine() {
    tcpu_generate_session_destroy(session);
    tcpu_sampler_destroy(sampler);
    tcpu_decoder_close(decoder);
    tcpu_chat_template_close(chat_template);
    tcpu_tokenizer_close(tokenizer);
  }
};

// The prompt in the form its tcpu_generate_* call takes, and its ids (which size the cache).
struct Prompt {
  std::string text;
  std::vector<tcpu::decode::ChatMessage> messages;
  std::vector<int32_t> ids;
};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Fail(const std::string& what, int status) {
  std::fprintf(stderr, "tcpu-decode: %s: %s\n  %s\n", what.c_str(), tcpu_status_string(status),
               tcpu_last_error_detail());
  return 1;
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "tcpu-decode: %s\n%s", message.c_str(), kUsage);
  return 2;
}

bool ReadWholeFile(const std::string& path, std::string* contents) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  *contents = text.str();
  return static_cast<bool>(in);
}

// The directory of the tokenizer, where tokenizer_config.json (the chat template) lives.
std::string TokenizerDirectory(const std::string& tokenizer_path) {
  const size_t json = tokenizer_path.rfind(".json");
  if (json == std::string::npos || json + 5 != tokenizer_path.size()) return tokenizer_path;
  const size_t slash = tokenizer_path.rfind('/');
  return slash == std::string::npos ? "." : tokenizer_path.substr(0, slash);
}

Options ReadOptions(int argc, char** argv) {
  Options o;
  std::vector<std::string> positional;
  std::string error;
  switch (tcpu::cli::ParseFlags(argc, argv, &positional, &error)) {
    case tcpu::cli::ParseResult::kHelp:
      std::printf("%s%s", kUsage, tcpu::cli::FlagsHelp(kFlagNames).c_str());
      o.exit_code = 0;
      return o;
    case tcpu::cli::ParseResult::kError:
      o.exit_code = UsageError(error);
      return o;
    case tcpu::cli::ParseResult::kOk:
      break;
  }
  const auto usage_error = [&o](const std::string& message) {
    o.exit_code = UsageError(message);
    return o;
  };
  if (!positional.empty()) return usage_error("unexpected argument '" + positional[0] + "'");
  o.model = absl::GetFlag(FLAGS_model);
  const bool chat = absl::GetFlag(FLAGS_chat);
  const bool messages = !absl::GetFlag(FLAGS_messages).empty();
  const int prompt_sources = !absl::GetFlag(FLAGS_prompt).empty() +
                             !absl::GetFlag(FLAGS_prompt_file).empty() +
                             !absl::GetFlag(FLAGS_prompt_ids).empty() + (messages && !chat);
  if (o.model.empty() || prompt_sources != (chat ? 0 : 1)) {
    return usage_error(
        "--model and one of --prompt, --prompt-file, --prompt-ids, --messages, --chat are "
        "required (--chat takes no prompt but --messages, the conversation's start)");
  }
  if (chat && (absl::GetFlag(FLAGS_print_ids) || !absl::GetFlag(FLAGS_dump_logits).empty())) {
    return usage_error("--print-ids and --dump-logits are for one prompt, not --chat");
  }
  o.input = chat                                       ? Input::kChat
            : messages                                 ? Input::kMessages
            : !absl::GetFlag(FLAGS_prompt_ids).empty() ? Input::kIds
                                                       : Input::kText;
  o.max_new_tokens = absl::GetFlag(FLAGS_max_new_tokens);
  if (o.max_new_tokens < 1 || o.max_new_tokens > (int64_t{1} << 30)) {
    return usage_error("--max-new-tokens: " + std::to_string(o.max_new_tokens) +
                       " is not in [1, 2^30]");
  }
  o.context_size = absl::GetFlag(FLAGS_context_size);
  if (o.context_size < 0 || o.context_size > (int64_t{1} << 30)) {
    return usage_error("--context-size: " + std::to_string(o.context_size) +
                       " is not in [0, 2^30]");
  }
  o.threads = absl::GetFlag(FLAGS_threads);
  if (o.threads < 0 || o.threads > 1024) {
    return usage_error("--threads: " + std::to_string(o.threads) + " is not in [0, 1024]");
  }
  if (std::string error;
      !tcpu::cli::ParseWeights(absl::GetFlag(FLAGS_weights), &o.decoder.weights, &error)) {
    return usage_error(error);
  }
  tcpu_sampler_default_params(&o.sampling);
  o.sampling.temperature = static_cast<float>(absl::GetFlag(FLAGS_temperature));
  o.sampling.top_k = absl::GetFlag(FLAGS_top_k);
  o.sampling.top_p = static_cast<float>(absl::GetFlag(FLAGS_top_p));
  o.sampling.min_p = static_cast<float>(absl::GetFlag(FLAGS_min_p));
  o.sampling.repetition_penalty = static_cast<float>(absl::GetFlag(FLAGS_repetition_penalty));
  o.sampling.seed = absl::GetFlag(FLAGS_seed);
  // Checks the sampling flags before anything is loaded (the vocabulary size comes later).
  tcpu_sampler* probe = nullptr;
  if (tcpu_sampler_create(&o.sampling, 1, &probe) != TCPU_OK) {
    return usage_error(std::string("sampling: ") + tcpu_last_error_detail());
  }
  tcpu_sampler_destroy(probe);
  return o;
}

// Reads the prompt, opens the tokenizer and chat template it needs, and finds its ids. 0 or
// the exit code (the error printed).
int PreparePrompt(const Options& o, Engine* engine, Prompt* prompt) {
  const std::string messages_file = absl::GetFlag(FLAGS_messages);
  if (!messages_file.empty()) {
    std::string json, error;
    if (!ReadWholeFile(messages_file, &json)) {
      std::fprintf(stderr, "tcpu-decode: --messages: cannot read %s\n", messages_file.c_str());
      return 1;
    }
    if (!tcpu::decode::ParseChatMessages(json, &prompt->messages, &error)) {
      std::fprintf(stderr, "tcpu-decode: --messages %s: %s\n", messages_file.c_str(),
                   error.c_str());
      return 2;
    }
  }
  if (o.input == Input::kIds) {
    const std::string ids = absl::GetFlag(FLAGS_prompt_ids);
    if (!tcpu::decode::ParseIdList(ids, &prompt->ids)) {
      return UsageError("--prompt-ids: '" + ids.substr(0, 64) +
                        "' is not a comma-separated list of token ids");
    }
    return 0;
  }
  const std::string prompt_file = absl::GetFlag(FLAGS_prompt_file);
  prompt->text = absl::GetFlag(FLAGS_prompt);
  if (!prompt_file.empty() && !ReadWholeFile(prompt_file, &prompt->text)) {
    std::fprintf(stderr, "tcpu-decode: --prompt-file: cannot read %s\n", prompt_file.c_str());
    return 1;
  }
  std::string tokenizer_path = absl::GetFlag(FLAGS_tokenizer);
  if (tokenizer_path.empty()) tokenizer_path = o.model;
  if (int s = tcpu_tokenizer_open(tokenizer_path.c_str(), &engine->tokenizer); s != TCPU_OK) {
    return Fail("loading the tokenizer of " + tokenizer_path, s);
  }
  if (o.input == Input::kText) {
    if (int s = tcpu::decode::EncodeText(engine->tokenizer, prompt->text,
                                         absl::GetFlag(FLAGS_add_special_tokens), &prompt->ids);
        s != TCPU_OK) {
      return Fail("tokenizing the prompt", s);
    }
  } else {
    std::string template_path = absl::GetFlag(FLAGS_chat_template);
    if (template_path.empty()) template_path = TokenizerDirectory(tokenizer_path);
    if (int s = tcpu_chat_template_open(template_path.c_str(), &engine->chat_template);
        s != TCPU_OK) {
      return Fail(std::string(o.input == Input::kChat ? "--chat" : "--messages") +
                      " needs the chat template of " + template_path +
                      " (--chat-template names another)",
                  s);
    }
    if (o.input == Input::kChat) return 0;  // each turn's ids come later
    // The template writes the special tokens: the tokenizer adds none.
    std::string rendered;
    int s = tcpu::decode::RenderChat(engine->chat_template,
                                     tcpu::decode::ChatMessageViews(prompt->messages),
                                     /*add_generation_prompt=*/true, &rendered);
    if (s == TCPU_OK) {
      s = tcpu::decode::EncodeText(engine->tokenizer, rendered, /*add_special_tokens=*/false,
                                   &prompt->ids);
    }
    if (s != TCPU_OK) return Fail("preparing the conversation", s);
  }
  if (prompt->ids.empty()) return UsageError("the prompt is empty after tokenization");
  return 0;
}

// Loads the model with room for the prompt and the answer, checks the prompt's ids against
// its vocabulary and starts the session. 0 or the exit code (the error printed).
int StartSession(const Options& o, const Prompt& prompt, Engine* engine, double* load_seconds,
                 tcpu_decoder_info* info) {
  if (o.threads > 0) {
    if (int s = tcpu_set_num_threads(o.threads); s != TCPU_OK) return Fail("--threads", s);
  }
  const int64_t max_tokens = o.context_size > 0 ? o.context_size
                             : o.input == Input::kChat
                                 ? kDefaultChatContext
                                 : static_cast<int64_t>(prompt.ids.size()) + o.max_new_tokens;
  const auto load_start = std::chrono::steady_clock::now();
  if (int s =
          tcpu_decoder_open_with_options(o.model.c_str(), max_tokens, &o.decoder, &engine->decoder);
      s != TCPU_OK) {
    return Fail("loading " + o.model, s);
  }
  *load_seconds = Seconds(load_start);
  tcpu_decoder_get_info(engine->decoder, info);
  for (int32_t id : prompt.ids) {
    if (id >= info->vocab_size) {
      return UsageError(std::string(o.input == Input::kIds ? "--prompt-ids:" : "the tokenizer's") +
                        " id " + std::to_string(id) + " is outside the vocabulary [0, " +
                        std::to_string(info->vocab_size) + ")");
    }
  }
  // Every token is chosen by the sampler: greedy there is the decoder's own rule
  // (runtime/greedy.h), so the default decode equals tcpu_decoder_step's next_token.
  if (int s = tcpu_sampler_create(&o.sampling, info->vocab_size, &engine->sampler); s != TCPU_OK) {
    return UsageError(std::string("sampling: ") + tcpu_last_error_detail());
  }
  // Ids in, ids out: no tokenizer, so no EOS ends the run (a benchmark's fixed length). A
  // checkpoint directory may hold a generation_config.json; a GGUF file's EOS ids are its
  // tokenizer's, which the session takes from the tokenizer.
  const bool model_dir = std::filesystem::is_directory(o.model);
  if (int s = tcpu_generate_session_create(
          engine->decoder, engine->tokenizer, engine->sampler, engine->chat_template,
          o.input == Input::kIds || !model_dir ? nullptr : o.model.c_str(), &engine->session);
      s != TCPU_OK) {
    return Fail("starting the generation", s);
  }
  return 0;
}

// --dump-logits: each step's logits appended to a file.
struct LogitsDump {
  FILE* file = nullptr;
  bool failed = false;
  static int Write(const float* logits, int64_t vocab_size, void* dump) {
    auto* self = static_cast<LogitsDump*>(dump);
    const size_t n = static_cast<size_t>(vocab_size);
    self->failed = std::fwrite(logits, sizeof(float), n, self->file) != n;
    return self->failed ? 1 : 0;  // stops the generation
  }
};

int PrintPiece(const char* text, int64_t bytes, void*) {
  std::fwrite(text, 1, static_cast<size_t>(bytes), stdout);
  std::fflush(stdout);
  return 0;
}

void PrintReport(FILE* report, const tcpu_generate_stats& stats, double load_seconds,
                 const tcpu_decoder_info& info, bool int4) {
  // Decode steps: every generated token is fed but the last, unless the generation stopped
  // at the token after it (an EOS, neither counted nor fed).
  const int64_t steps = stats.generated_tokens - (stats.stop_reason == TCPU_STOP_EOS ? 0 : 1);
  std::fprintf(report, "load: %.3f s\n", load_seconds);
  std::fprintf(report, "prefill: %lld tokens, %.2f tokens/s\n",
               static_cast<long long>(stats.prefill_tokens),
               static_cast<double>(stats.prefill_tokens) / stats.prefill_seconds);
  std::fprintf(report, "decode: %lld tokens, %.2f tokens/s\n", static_cast<long long>(steps),
               steps > 0 ? static_cast<double>(steps) / stats.decode_seconds : 0.0);
  std::fprintf(report, "weights read per token: %lld bytes (%.1f MB, %s)\n",
               static_cast<long long>(info.weight_bytes_per_token),
               static_cast<double>(info.weight_bytes_per_token) / 1e6, int4 ? "int4" : "int8");
  std::fprintf(report, "kernels:");
  const char* gemv = int4 ? "gemv_w4a8" : "gemv_bf16_w8";
  const char* gemm = int4 ? "gemm_w4a8" : "gemm_i8";
  for (const char* op : {gemv, gemm, "flash_attn_decode_bf16", "rms_norm_bf16", "swiglu_bf16"}) {
    const char* variant = tcpu_kernel_variant(op);
    std::fprintf(report, " %s", variant != nullptr ? variant : op);
  }
  std::fprintf(report, " (threads: %d)\n", tcpu_get_num_threads());
}

// One prompt, one answer: the text streamed (or the ids printed), then the report.
int GenerateOnce(const Options& o, const Prompt& prompt, Engine* engine, double load_seconds,
                 const tcpu_decoder_info& info) {
  tcpu_generate_options options;
  tcpu_generate_default_options(&options);
  options.max_new_tokens = o.max_new_tokens;
  options.add_special_tokens = absl::GetFlag(FLAGS_add_special_tokens) ? 1 : 0;
  options.callback = PrintPiece;
  LogitsDump dump;
  const std::string dump_path = absl::GetFlag(FLAGS_dump_logits);
  if (!dump_path.empty()) {
    if ((dump.file = std::fopen(dump_path.c_str(), "wb")) == nullptr) {
      std::fprintf(stderr, "tcpu-decode: --dump-logits: cannot write %s\n", dump_path.c_str());
      return 1;
    }
    options.logits_callback = LogitsDump::Write;
    options.logits_user_data = &dump;
  }
  tcpu_generate_stats stats;
  int s = TCPU_OK;
  if (o.input == Input::kIds) {
    s = tcpu_generate_ids(engine->session, prompt.ids.data(),
                          static_cast<int64_t>(prompt.ids.size()), &options, &stats);
  } else if (o.input == Input::kText) {
    s = tcpu_generate_text(engine->session, prompt.text.data(),
                           static_cast<int64_t>(prompt.text.size()), &options, &stats);
  } else {
    const std::vector<tcpu_chat_message> views = tcpu::decode::ChatMessageViews(prompt.messages);
    s = tcpu_generate_chat(engine->session, views.data(), static_cast<int64_t>(views.size()),
                           &options, &stats);
  }
  if (dump.file != nullptr && std::fclose(dump.file) != 0) dump.failed = true;
  if (s != TCPU_OK) return Fail("generating", s);
  if (dump.failed) {
    std::fprintf(stderr, "tcpu-decode: --dump-logits: write to %s failed\n", dump_path.c_str());
    return 1;
  }

  int64_t n_history = 0;
  std::vector<int32_t> history(static_cast<size_t>(stats.context_tokens + stats.generated_tokens));
  if (int h = tcpu_generate_session_history(engine->session, history.data(),
                                            static_cast<int64_t>(history.size()), &n_history);
      h != TCPU_OK) {
    return Fail("reading the generated ids", h);
  }
  const std::vector<int32_t> generated(history.begin() + stats.context_tokens,
                                       history.begin() + n_history);
  FILE* report = o.input == Input::kIds ? stdout : stderr;
  if (o.input == Input::kIds) {
    std::printf("%s\n", tcpu::decode::JoinIds(generated).c_str());
  } else {
    std::printf("\n");
    if (absl::GetFlag(FLAGS_print_ids)) {
      std::printf("%s\n", tcpu::decode::JoinIds(generated).c_str());
    }
    std::fflush(stdout);
    std::fprintf(report, "prompt: %lld tokens; generated: %lld tokens%s\n",
                 static_cast<long long>(stats.context_tokens),
                 static_cast<long long>(stats.generated_tokens),
                 stats.stop_reason == TCPU_STOP_EOS ? " (stopped at EOS)" : "");
  }
  PrintReport(report, stats, load_seconds, info, o.decoder.weights == TCPU_WEIGHTS_INT4);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = ReadOptions(argc, argv);
  if (o.exit_code >= 0) return o.exit_code;
  Engine engine;
  Prompt prompt;
  if (int code = PreparePrompt(o, &engine, &prompt); code != 0) return code;
  double load_seconds = 0;
  tcpu_decoder_info info;
  if (int code = StartSession(o, prompt, &engine, &load_seconds, &info); code != 0) return code;
  if (o.input != Input::kChat) return GenerateOnce(o, prompt, &engine, load_seconds, info);

  tcpu_generate_options options;
  tcpu_generate_default_options(&options);
  options.max_new_tokens = o.max_new_tokens;
  tcpu::decode::Chat chat(engine.session, engine.tokenizer, engine.chat_template, options, stdout,
                          std::move(prompt.messages));
  return tcpu::decode::RunChat(
      &chat, {stdin, stdout, stderr, isatty(STDIN_FILENO) != 0, absl::GetFlag(FLAGS_verbose)});
}
