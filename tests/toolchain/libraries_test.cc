// The Debian-built libraries of the sysroot link into a static aarch64 (or host) binary and
// work: GoogleMock, abseil (Status, StatusOr, StrFormat, StrSplit, flags) and Google
// Benchmark.
#include <benchmark/benchmark.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

ABSL_FLAG(int, tcpu_test_threads, 1, "A flag set by the test's own command line.");

namespace tcpu::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::Gt;
using ::testing::Return;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int Ticks(int core) = 0;
};

class MockClock : public Clock {
 public:
  MOCK_METHOD(int, Ticks, (int core), (override));
};

int TotalTicks(Clock& clock, int cores) {
  int total = 0;
  for (int c = 0; c < cores; ++c) total += clock.Ticks(c);
  return total;
}

TEST(LibrariesTest, GoogleMock) {
  MockClock clock;
  EXPECT_CALL(clock, Ticks(0)).WillOnce(Return(5));
  EXPECT_CALL(clock, Ticks(Gt(0))).Times(2).WillRepeatedly(Return(7));
  EXPECT_EQ(TotalTicks(clock, 3), 19);
}

absl::StatusOr<int> ParsePositive(const std::string& text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return absl::InvalidArgumentError(absl::StrFormat("'%s' is not a positive integer", text));
    }
    value = value * 10 + (c - '0');
  }
  if (value == 0) return absl::OutOfRangeError("zero is not positive");
  return value;
}

TEST(LibrariesTest, AbseilStatus) {
  absl::StatusOr<int> ok = ParsePositive("42");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(*ok, 42);
  absl::StatusOr<int> bad = ParsePositive("4x2");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(), "'4x2' is not a positive integer");
  EXPECT_EQ(ParsePositive("0").status().code(), absl::StatusCode::kOutOfRange);
}

TEST(LibrariesTest, AbseilStrings) {
  EXPECT_EQ(absl::StrFormat("%s:%03d:%.2f", "vl", 7, 1.5), "vl:007:1.50");
  std::vector<std::string> parts = absl::StrSplit("0,1,6,7", ',');
  EXPECT_THAT(parts, ElementsAre("0", "1", "6", "7"));
}

TEST(LibrariesTest, AbseilFlags) {
  EXPECT_EQ(absl::GetFlag(FLAGS_tcpu_test_threads), 1);
  char arg0[] = "libraries_test";
  char arg1[] = "--tcpu_test_threads=4";
  char arg2[] = "positional";
  char* argv[] = {arg0, arg1, arg2, nullptr};
  std::vector<char*> rest = absl::ParseCommandLine(3, argv);
  const int parsed = absl::GetFlag(FLAGS_tcpu_test_threads);
  // Back to the default, so the first check still holds under --gtest_repeat.
  absl::SetFlag(&FLAGS_tcpu_test_threads, 1);
  EXPECT_EQ(parsed, 4);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_STREQ(rest[1], "positional");
}

// Records what Google Benchmark ran, instead of printing it.
class RecordingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      names.push_back(run.benchmark_name());
      iterations.push_back(run.iterations);
      errors += run.error_occurred ? 1 : 0;
    }
  }
  std::vector<std::string> names;
  std::vector<benchmark::IterationCount> iterations;
  int errors = 0;
};

TEST(LibrariesTest, GoogleBenchmark) {
  // The registry is global and the lambda refers to this frame: start and end empty, so a
  // repeated run neither counts two benchmarks nor calls into a dead frame.
  benchmark::ClearRegisteredBenchmarks();
  int64_t calls = 0;
  benchmark::RegisterBenchmark("BM_SumBytes", [&calls](benchmark::State& state) {
    std::vector<int8_t> bytes(256, 3);
    for (auto _ : state) {
      int sum = 0;
      for (int8_t b : bytes) sum += b;
      benchmark::DoNotOptimize(sum);
      ++calls;
    }
    state.SetBytesProcessed(state.iterations() * 256);
  });
  char arg0[] = "libraries_test";
  char arg1[] = "--benchmark_filter=^BM_SumBytes$";
  char arg2[] = "--benchmark_min_time=0.001";  // Seconds, as benchmark 1.7 parses it.
  char* argv[] = {arg0, arg1, arg2, nullptr};
  int argc = 3;
  benchmark::Initialize(&argc, argv);
  RecordingReporter reporter;
  EXPECT_EQ(benchmark::RunSpecifiedBenchmarks(&reporter), 1u);
  ASSERT_EQ(reporter.names.size(), 1u);
  EXPECT_EQ(reporter.names[0], "BM_SumBytes");
  EXPECT_GT(reporter.iterations[0], 0);
  EXPECT_EQ(reporter.errors, 0);
  EXPECT_GE(calls, reporter.iterations[0]);
  benchmark::ClearRegisteredBenchmarks();
}

}  // namespace
}  // namespace tcpu::testing
