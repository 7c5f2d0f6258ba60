// A plain host test: the x86-64 toolchain builds and runs it natively, no QEMU involved.
#include <gtest/gtest.h>

#include <optional>
#include <string_view>

#include "absl/strings/str_format.h"

namespace tcpu::testing {
namespace {

TEST(HostSmokeTest, RunsNativelyOnX86_64) {
#if defined(__x86_64__)
  SUCCEED();
#else
  FAIL() << "host tests must be built for x86-64";
#endif
  EXPECT_EQ(sizeof(void*), 8u);
}

TEST(HostSmokeTest, CxxLibraryAndAbseil) {
  static_assert(__cplusplus >= 201703L, "C++17 expected");
  constexpr std::string_view name = "tcpu";
  std::optional<int> threads = 4;
  EXPECT_EQ(absl::StrFormat("%s-%d", name, *threads), "tcpu-4");
}

}  // namespace
}  // namespace tcpu::testing
