// replay_runner: replays the launches of a Triton launch corpus (tools/triton_capture/FORMAT.md)
// with the CPU kernels linked into it (the generated table), one report line per launch:
//
//   replay_runner --corpus=DIR [--launches=SLICE] [--timeout=SECONDS] [--no-fork]
//                 [--count-regions]
//
//   ID KERNEL STAGE[ DETAIL]     STAGE: ok | record | compile | run | compare
//   replayed N launches: N ok, N record, N compile, N run, N compare
//
// --count-regions (for tools/perf's instruction counts, implies --no-fork): each launch runs
// inside the tcpu/perf.h region "triton launch ID", and an `ok` launch's line is followed by
// `work "triton launch ID" N elements written, M in the largest buffer` (replay_launch.h).
//
// DIR holds manifest.json, launches/ and blobs/ (corpus.tar.xz unpacked). Each launch runs in a
// child process, so a kernel that crashes is a `run` failure of its launch and the replay goes on.
// Tests set no --timeout (nothing in a test depends on time; a hang is Bazel's test timeout);
// --timeout=S turns a hang into a `run` failure for manual runs. Exits 0 when every launch is ok, 1 when one is not, 2
// when the corpus cannot be read at all.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "tests/triton_replay/corpus_index.h"
#include "tests/triton_replay/replay_launch.h"

namespace {

using tcpu::replay::LaunchEntry;
using tcpu::replay::LaunchResult;

struct Options {
  std::string corpus;
  std::string launches;
  unsigned timeout = 0;  // none
  bool fork = true;
  bool count_regions = false;
};

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&arg](const char* name) -> const char* {
      const std::string prefix = std::string(name) + "=";
      return arg.rfind(prefix, 0) == 0 ? arg.c_str() + prefix.size() : nullptr;
    };
    if (const char* v = value("--corpus")) {
      options->corpus = v;
    } else if (const char* v = value("--launches")) {
      options->launches = v;
    } else if (const char* v = value("--timeout")) {
      char* end = nullptr;
      const long seconds = std::strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || seconds < 1) {
        std::fprintf(stderr, "replay_runner: --timeout=%s: expected seconds >= 1\n", v);
        return false;
      }
      options->timeout = static_cast<unsigned>(seconds);
    } else if (arg == "--no-fork") {
      options->fork = false;
    } else if (arg == "--count-regions") {
      options->count_regions = true;
      options->fork = false;  // the counting plugin follows one process
    } else {
      std::fprintf(stderr, "replay_runner: unknown argument '%s'\n", arg.c_str());
      return false;
    }
  }
  if (options->corpus.empty()) {
    std::fprintf(stderr,
                 "usage: replay_runner --corpus=DIR [--launches=SLICE] [--timeout=SECONDS] "
                 "[--no-fork] [--count-regions]\n");
    return false;
  }
  return true;
}

// A child's result, or the signal that ended it.
LaunchResult ReplayInChild(const Options& options, const LaunchEntry& launch) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {"run", std::string("pipe: ") + std::strerror(errno)};
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = fork();
  if (child < 0) return {"run", std::string("fork: ") + std::strerror(errno)};
  if (child == 0) {
    close(pipe_fds[0]);
    if (options.timeout > 0) alarm(options.timeout);
    const LaunchResult result = tcpu::replay::ReplayLaunch(options.corpus, launch);
    const std::string text = result.stage + "\n" + result.detail;
    size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = write(pipe_fds[1], text.data() + written, text.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string text;
  char chunk[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) text.append(chunk, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (signal == SIGALRM) {
      return {"run", "timed out after " + std::to_string(options.timeout) + " s (--timeout)"};
    }
    return {"run", "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")"};
  }
  const size_t newline = text.find('\n');
  if (newline == std::string::npos) {
    return {"run", "the launch's process ended (status " + std::to_string(WEXITSTATUS(status)) +
                       ") without a result"};
  }
  return {text.substr(0, newline), text.substr(newline + 1)};
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) return 2;
  std::vector<LaunchEntry> launches;
  std::string error;
  if (!tcpu::replay::ReadCorpusIndex(options.corpus, options.launches, &launches, &error)) {
    std::fprintf(stderr, "replay_runner: %s\n", error.c_str());
    return 2;
  }
  const char* stages[] = {"ok", "record", "compile", "run", "compare"};
  std::map<std::string, int> counts;
  for (const LaunchEntry& launch : launches) {
    const std::string region = options.count_regions ? "triton launch " + launch.id : "";
    const LaunchResult result = options.fork
                                    ? ReplayInChild(options, launch)
                                    : tcpu::replay::ReplayLaunch(options.corpus, launch, region);
    ++counts[result.stage];
    std::printf("%s\n", tcpu::replay::ReportLine(launch, result).c_str());
    if (options.count_regions && result.stage == "ok") {
      std::printf("work \"%s\" %lld elements written, %lld in the largest buffer\n",
                  region.c_str(), static_cast<long long>(result.elements_written),
                  static_cast<long long>(result.elements_largest));
    }
    std::fflush(stdout);
  }
  std::printf("replayed %zu launches:", launches.size());
  for (const char* stage : stages) {
    std::printf("%s %d %s", stage == stages[0] ? "" : ",", counts[stage], stage);
  }
  std::printf("\n");
  return counts["ok"] == static_cast<int>(launches.size()) ? 0 : 1;
}
