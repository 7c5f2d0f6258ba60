// Choosing the fastest cluster from a sysfs tree (a fake one, written here, shaped like a
// CIX P1: four A520 little cores, four A720 at one clock and four at a higher one).
#include "runtime/cpu_topology.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace tcpu {
namespace {

class FakeSysfs {
 public:
  FakeSysfs() {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = std::string(tmp ? tmp : "/tmp") + "/sysfs" + std::to_string(counter_++);
    mkdir(root_.c_str(), 0755);
  }
  void Write(int cpu, const std::string& file, const std::string& value) {
    std::string path = root_ + "/cpu" + std::to_string(cpu);
    mkdir(path.c_str(), 0755);
    size_t slash = 0;
    while ((slash = file.find('/', slash)) != std::string::npos) {
      mkdir((path + "/" + file.substr(0, slash)).c_str(), 0755);
      ++slash;
    }
    std::ofstream(path + "/" + file) << value << "\n";
  }
  const std::string& root() const { return root_; }

 private:
  static inline int counter_ = 0;
  std::string root_;
};

const std::vector<int> kTwelve = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

TEST(CpuTopologyTest, HighestCapacityWins) {
  FakeSysfs sysfs;
  for (int cpu = 0; cpu < 12; ++cpu) {
    sysfs.Write(cpu, "cpu_capacity", cpu < 4 ? "403" : (cpu < 8 ? "984" : "1024"));
  }
  EXPECT_EQ(FastestCluster(ReadCpuDescriptions(sysfs.root(), kTwelve)),
            (std::vector<int>{8, 9, 10, 11}));
}

TEST(CpuTopologyTest, MaxFrequencyWhenNoCapacity) {
  FakeSysfs sysfs;
  for (int cpu = 0; cpu < 8; ++cpu) {
    sysfs.Write(cpu, "cpufreq/cpuinfo_max_freq", cpu % 2 ? "2600000" : "1800000");
  }
  EXPECT_EQ(FastestCluster(ReadCpuDescriptions(sysfs.root(), {0, 1, 2, 3, 4, 5, 6, 7})),
            (std::vector<int>{1, 3, 5, 7}));
}

TEST(CpuTopologyTest, MidrPartExcludesLittleCores) {
  FakeSysfs sysfs;
  for (int cpu = 0; cpu < 6; ++cpu) {
    // Cortex-A520 (0xd80) on 0-3, Cortex-A720 (0xd81) on 4-5.
    sysfs.Write(cpu, "regs/identification/midr_el1",
                cpu < 4 ? "0x00000000410fd800" : "0x00000000410fd810");
  }
  EXPECT_EQ(FastestCluster(ReadCpuDescriptions(sysfs.root(), {0, 1, 2, 3, 4, 5})),
            (std::vector<int>{4, 5}));
}

TEST(CpuTopologyTest, NothingKnownMeansEveryCpu) {
  FakeSysfs sysfs;
  EXPECT_EQ(FastestCluster(ReadCpuDescriptions(sysfs.root(), {0, 2, 5})),
            (std::vector<int>{0, 2, 5}));
  EXPECT_TRUE(FastestCluster({}).empty());
}

TEST(CpuTopologyTest, PartialCapacityFallsBackToFrequency) {
  FakeSysfs sysfs;
  sysfs.Write(0, "cpu_capacity", "1024");  // Only one CPU reports a capacity.
  sysfs.Write(0, "cpufreq/cpuinfo_max_freq", "2000000");
  sysfs.Write(1, "cpufreq/cpuinfo_max_freq", "3000000");
  EXPECT_EQ(FastestCluster(ReadCpuDescriptions(sysfs.root(), {0, 1})), (std::vector<int>{1}));
}

TEST(CpuTopologyTest, ParsesCpuLists) {
  std::vector<int> cpus;
  std::string error;
  ASSERT_TRUE(ParseCpuList("0,1,6-7", &cpus, &error)) << error;
  EXPECT_EQ(cpus, (std::vector<int>{0, 1, 6, 7}));
  ASSERT_TRUE(ParseCpuList("7,3-4,3", &cpus, &error)) << error;
  EXPECT_EQ(cpus, (std::vector<int>{3, 4, 7}));
  for (const char* bad : {"", "a", "1,,2", "3-1", "-1", "1-", "0,9999", "1 2"}) {
    EXPECT_FALSE(ParseCpuList(bad, &cpus, &error)) << bad;
    EXPECT_NE(error.find("is not a CPU id or range"), std::string::npos) << error;
  }
}

TEST(CpuTopologyTest, ProcessHasAllowedCpus) { EXPECT_FALSE(AllowedCpus().empty()); }

}  // namespace
}  // namespace tcpu
