// tcpu-serve: an OpenAI-compatible HTTP server over the generation API (tcpu/generate.h); README.md
// has the contract.
//   tcpu-serve --model DIR [--host H] --port P [--parallel N] [--queue Q] [--context-size C]
// loads the model once, opens --parallel sibling decoders over it (a KV cache each) and serves
// POST /v1/chat/completions, POST /v1/completions, GET /v1/models and GET /health. Prints
// "tcpu-serve: listening on http://H:P" on stdout once it accepts connections (--port 0 picks a
// free port). SIGTERM or SIGINT: stops accepting, lets the running generations finish for
// --shutdown-deadline seconds, cancels the rest, and exits 0.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "tcpu/chat_template.h"
#include "tcpu/decoder.h"
#include "tcpu/generate.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tcpu/tokenizer.h"
#include "tools/cli/flags.h"
#include "tools/cli/weights.h"
#include "tools/serve/http_server.h"
#include "tools/serve/scheduler.h"

ABSL_FLAG(std::string, model, "", "checkpoint directory (config.json, *.safetensors)");
ABSL_FLAG(std::string, model_name, "",
          "the model's id in the API (\"model\" of requests; default: the directory's name)");
ABSL_FLAG(std::string, tokenizer, "", "tokenizer.json or its directory (default: --model)");
ABSL_FLAG(std::string, chat_template, "",
          "tokenizer_config.json with the chat_template, or its directory (default: the "
          "tokenizer's directory; without one, /v1/chat/completions is refused)");
ABSL_FLAG(std::string, weights, "int8", "int8 or int4: how the linear weights are quantized");
ABSL_FLAG(std::string, host, "127.0.0.1", "address to listen on (0.0.0.0: every interface)");
ABSL_FLAG(int32_t, port, -1, "TCP port (0: a free port, printed)");
ABSL_FLAG(int32_t, parallel, 1, "slots: conversations generated at once (a KV cache each)");
ABSL_FLAG(int32_t, queue, 16, "requests that may wait for a slot; more get 503");
ABSL_FLAG(int64_t, context_size, 4096, "positions of each slot's KV cache (prompt and answer)");
ABSL_FLAG(int64_t, max_body_bytes, 1 << 20, "largest request body; larger ones get 413");
ABSL_FLAG(int32_t, read_timeout, 30, "seconds a client may take to send a request");
ABSL_FLAG(int32_t, write_timeout, 30, "seconds a client may take to take each part of an answer");
ABSL_FLAG(int32_t, keep_alive_timeout, 5, "seconds an idle connection is kept");
ABSL_FLAG(int32_t, http_threads, 0,
          "connections served at once (0: --parallel + --queue + 4; others wait to be read)");
ABSL_FLAG(int32_t, shutdown_deadline, 30,
          "seconds running generations may take to finish after SIGTERM before they are cancelled");
ABSL_FLAG(int32_t, threads, 0, "worker threads of the kernels (0: the runtime's default)");

namespace {

constexpr char kUsage[] =
    "usage: tcpu-serve --model DIR --port P [--host H] [--parallel N] [--queue Q] [flags below]\n";

const std::vector<std::string> kFlagNames = {
    "model",          "model-name",
    "tokenizer",      "chat-template",
    "weights",        "host",
    "port",           "parallel",
    "queue",          "context-size",
    "max-body-bytes", "read-timeout",
    "write-timeout",  "keep-alive-timeout",
    "http-threads",   "shutdown-deadline",
    "threads",
};

int Fail(const std::string& what, int status) {
  std::fprintf(stderr, "tcpu-serve: %s: %s\n  %s\n", what.c_str(), tcpu_status_string(status),
               tcpu_last_error_detail());
  return 1;
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "tcpu-serve: %s\n%s", message.c_str(), kUsage);
  return 2;
}

// The directory of the tokenizer, where tokenizer_config.json (the chat template) lives.
std::string TokenizerDirectory(const std::string& tokenizer_path) {
  const std::filesystem::path path(tokenizer_path);
  return path.extension() == ".json" ? path.parent_path().string() : tokenizer_path;
}

// "--name: V is not in [low, high]" or "".
std::string CheckRange(const char* name, int64_t value, int64_t low, int64_t high) {
  if (value >= low && value <= high) return "";
  return std::string("--") + name + ": " + std::to_string(value) + " is not in [" +
         std::to_string(low) + ", " + std::to_string(high) + "]";
}

// Written by the signal handler, read by the stopper thread.
int g_stop_pipe[2] = {-1, -1};

void OnStopSignal(int signal_number) {
  const unsigned char number = static_cast<unsigned char>(signal_number);
  const int saved_errno = errno;
  (void)!write(g_stop_pipe[1], &number, 1);
  errno = saved_errno;
}

// Everything the server opens, released in reverse order.
struct Engine {
  tcpu_tokenizer* tokenizer = nullptr;
  tcpu_chat_template* chat_template = nullptr;
  std::vector<tcpu_decoder*> decoders;
  std::vector<tcpu_generate_session*> sessions;
  ~Engine() {
    for (tcpu_generate_session* s : sessions) tcpu_generate_session_destroy(s);
    for (tcpu_decoder* d : decoders) tcpu_decoder_close(d);
    tcpu_chat_template_close(chat_template);
    tcpu_tokenizer_close(tokenizer);
  }
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
  if (model.empty()) return UsageError("--model is required");
  const int64_t parallel = absl::GetFlag(FLAGS_parallel);
  const int64_t queue = absl::GetFlag(FLAGS_queue);
  const int64_t context_size = absl::GetFlag(FLAGS_context_size);
  tcpu::serve::HttpConfig http;
  http.max_body_bytes = static_cast<size_t>(absl::GetFlag(FLAGS_max_body_bytes));
  http.read_timeout_seconds = absl::GetFlag(FLAGS_read_timeout);
  http.write_timeout_seconds = absl::GetFlag(FLAGS_write_timeout);
  http.keep_alive_seconds = absl::GetFlag(FLAGS_keep_alive_timeout);
  http.threads = absl::GetFlag(FLAGS_http_threads);
  if (http.threads == 0) http.threads = static_cast<int>(parallel + queue + 4);
  for (const std::string& range_error :
       {CheckRange("port", absl::GetFlag(FLAGS_port), 0, 65535),
        CheckRange("parallel", parallel, 1, 256), CheckRange("queue", queue, 0, 4096),
        CheckRange("context-size", context_size, 2, int64_t{1} << 30),
        CheckRange("max-body-bytes", absl::GetFlag(FLAGS_max_body_bytes), 1, int64_t{1} << 32),
        CheckRange("read-timeout", http.read_timeout_seconds, 1, 3600),
        CheckRange("write-timeout", http.write_timeout_seconds, 1, 3600),
        CheckRange("keep-alive-timeout", http.keep_alive_seconds, 0, 3600),
        CheckRange("http-threads", http.threads, 1, 4096),
        CheckRange("shutdown-deadline", absl::GetFlag(FLAGS_shutdown_deadline), 0, 86400),
        CheckRange("threads", absl::GetFlag(FLAGS_threads), 0, 1024)}) {
    if (!range_error.empty()) return UsageError(range_error);
  }
  tcpu_decoder_options decoder_options{};
  if (!tcpu::cli::ParseWeights(absl::GetFlag(FLAGS_weights), &decoder_options.weights, &error)) {
    return UsageError(error);
  }
  if (absl::GetFlag(FLAGS_threads) > 0) {
    if (int s = tcpu_set_num_threads(absl::GetFlag(FLAGS_threads)); s != TCPU_OK) {
      return Fail("--threads", s);
    }
  }

  // SIGTERM and SIGINT only write their number to a pipe (the one thing a handler may safely do; it
  // also works under qemu-user); the stopper thread below reads it. A write to a closed connection
  // must fail, not kill the server.
  if (pipe(g_stop_pipe) != 0) return Fail("pipe", TCPU_ERR_IO);
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);

  Engine engine;
  std::string tokenizer_path = absl::GetFlag(FLAGS_tokenizer);
  if (tokenizer_path.empty()) tokenizer_path = model;
  if (int s = tcpu_tokenizer_open(tokenizer_path.c_str(), &engine.tokenizer); s != TCPU_OK) {
    return Fail("loading the tokenizer of " + tokenizer_path, s);
  }
  std::string template_path = absl::GetFlag(FLAGS_chat_template);
  const bool template_named = !template_path.empty();
  if (!template_named) template_path = TokenizerDirectory(tokenizer_path);
  if (int s = tcpu_chat_template_open(template_path.c_str(), &engine.chat_template); s != TCPU_OK) {
    if (template_named) return Fail("--chat-template " + template_path, s);
    std::fprintf(stderr,
                 "tcpu-serve: no chat template in %s (%s): /v1/chat/completions will be refused\n",
                 template_path.c_str(), tcpu_last_error_detail());
    engine.chat_template = nullptr;
  }
  tcpu_decoder* base = nullptr;
  if (int s = tcpu_decoder_open_with_options(model.c_str(), context_size, &decoder_options, &base);
      s != TCPU_OK) {
    return Fail("loading " + model, s);
  }
  engine.decoders.push_back(base);
  for (int64_t i = 1; i < parallel; ++i) {
    tcpu_decoder* sibling = nullptr;
    if (int s = tcpu_decoder_open_sibling(base, context_size, &sibling); s != TCPU_OK) {
      return Fail("opening slot " + std::to_string(i), s);
    }
    engine.decoders.push_back(sibling);
  }
  tcpu_decoder_info info;
  tcpu_decoder_get_info(base, &info);
  const bool model_dir = std::filesystem::is_directory(model);
  for (tcpu_decoder* decoder : engine.decoders) {
    tcpu_generate_session* session = nullptr;
    if (int s =
            tcpu_generate_session_create(decoder, engine.tokenizer, nullptr, engine.chat_template,
                                         model_dir ? model.c_str() : nullptr, &session);
        s != TCPU_OK) {
      return Fail("starting a generation session", s);
    }
    engine.sessions.push_back(session);
  }

  tcpu::serve::ServedModel served;
  served.tokenizer = engine.tokenizer;
  served.chat_template = engine.chat_template;
  served.limits.model_id = absl::GetFlag(FLAGS_model_name);
  if (served.limits.model_id.empty()) {
    served.limits.model_id = std::filesystem::path(model).lexically_normal().filename().string();
    if (served.limits.model_id.empty()) {
      served.limits.model_id =
          std::filesystem::path(model).lexically_normal().parent_path().filename().string();
    }
  }
  served.limits.context_size = context_size;
  served.created = static_cast<int64_t>(std::time(nullptr));

  tcpu::serve::Scheduler scheduler(engine.sessions, info.vocab_size, static_cast<size_t>(queue));
  scheduler.StartThread();
  tcpu::serve::HttpServer server(http, served, &scheduler);
  const std::string host = absl::GetFlag(FLAGS_host);
  const int port = server.Bind(host, absl::GetFlag(FLAGS_port));
  if (port < 0) {
    std::fprintf(stderr, "tcpu-serve: cannot listen on %s:%d\n", host.c_str(),
                 absl::GetFlag(FLAGS_port));
    return 1;
  }
  std::printf("tcpu-serve: listening on http://%s:%d\n", host.c_str(), port);
  std::fflush(stdout);
  std::fprintf(stderr, "tcpu-serve: model %s (%s), %lld slots of %lld positions, queue %lld\n",
               served.limits.model_id.c_str(), model.c_str(), static_cast<long long>(parallel),
               static_cast<long long>(context_size), static_cast<long long>(queue));

  const std::chrono::seconds deadline(absl::GetFlag(FLAGS_shutdown_deadline));
  std::atomic<bool> signalled{false};
  std::thread stopper([&] {
    unsigned char signal_number = 0;
    while (read(g_stop_pipe[0], &signal_number, 1) < 0 && errno == EINTR) {
    }
    if (signal_number == 0) return;  // Listen failed: main woke us
    signalled.store(true);
    std::fprintf(stderr, "tcpu-serve: %s: no new connections; finishing within %lld s\n",
                 signal_number == SIGTERM ? "SIGTERM" : "SIGINT",
                 static_cast<long long>(deadline.count()));
    server.Stop();
    if (scheduler.Shutdown(deadline)) {
      std::fprintf(stderr, "tcpu-serve: deadline reached: cancelled what still ran\n");
    }
  });
  const bool listened = server.Listen();
  if (!signalled.load()) {
    const unsigned char wake = 0;  // accept() failed without a signal: end the stopper
    (void)!write(g_stop_pipe[1], &wake, 1);
  }
  stopper.join();
  if (!signalled.load() && !listened) {
    std::fprintf(stderr, "tcpu-serve: accepting connections failed\n");
    return 1;
  }
  std::fprintf(stderr, "tcpu-serve: stopped\n");
  return 0;
}
